import type { SimReply } from '../core/http';
import { badRequest } from './errors';
import type { LiveResult } from './store';
import {
	ANALYTICS_STATUS_KEYS,
	type AnalyticsStatusKey,
	type AnalyticsStatusSummary,
	type ProxyBandwidthRow,
	type ResultStatus,
} from './types';
import { UTC_DATE_TIME_FORMAT, parseUtcDateTime } from './query';

/** A UTC window of whole seconds: `[start, end]`, the end second included. */
export interface UtcWindow {
	start: number;
	/** Exclusive bound in ms: one second after the end date-time. */
	endExclusive: number;
}

/**
 * Reads `startDate`/`endDate` (`yyyy-MM-dd HH:mm:ss`, UTC). A missing or malformed one is a 400 whose message
 * names the field and the format, as the real service answers a bad date.
 */
export function parseWindow(query: URLSearchParams): UtcWindow | SimReply {
	const read = (field: 'startDate' | 'endDate'): number | SimReply => {
		const raw = query.get(field);
		if (raw === null || raw === '') return badRequest(`${field} is required, in the format ${UTC_DATE_TIME_FORMAT} (UTC)`);
		const ms = parseUtcDateTime(raw);
		if (ms === undefined) return badRequest(`${field} must be in the format ${UTC_DATE_TIME_FORMAT} (UTC), got "${raw}"`);
		return ms;
	};
	const start = read('startDate');
	if (typeof start !== 'number') return start;
	const end = read('endDate');
	if (typeof end !== 'number') return end;
	if (start > end) return badRequest('startDate must not be after endDate');
	return { start, endExclusive: end + 1000 };
}

export function inWindow(result: LiveResult, window: UtcWindow): boolean {
	return result.createdAt >= window.start && result.createdAt < window.endExclusive;
}

/** `example.com`, `https://Example.com/x` -> `example.com`. */
function normaliseDomain(domain: string): string {
	const trimmed = domain.trim().toLowerCase();
	try {
		return new URL(trimmed.includes('://') ? trimmed : `http://${trimmed}`).hostname;
	} catch {
		return trimmed;
	}
}

/** The result's host is the domain or one of its subdomains. */
export function matchesDomain(url: string, domain: string): boolean {
	const want = normaliseDomain(domain);
	let host: string;
	try {
		host = new URL(url).hostname.toLowerCase();
	} catch {
		return false;
	}
	return host === want || host.endsWith(`.${want}`);
}

const STATUS_KEY: Record<ResultStatus, AnalyticsStatusKey> = {
	Pending: 'PENDING',
	Running: 'RUNNING',
	Processing: 'PROCESSING',
	Finished: 'COMPLETED',
	Failed: 'FAILED',
	Canceled: 'CANCELLED',
};

function round2(n: number): number {
	return Math.round(n * 100) / 100;
}

export interface AnalyticsFilter {
	domain: string;
	window: UtcWindow;
	/** Matched against the result `type` (AI, Rerun-AI, Bulk-AI), case-insensitively. */
	action?: string;
	apiTokenName?: string;
}

export function analyticsSummary(results: LiveResult[], filter: AnalyticsFilter): AnalyticsStatusSummary {
	const action = filter.action?.toLowerCase();
	const counted = results.filter(
		(r) =>
			inWindow(r, filter.window) &&
			matchesDomain(r.url, filter.domain) &&
			(action === undefined || r.type.toLowerCase() === action) &&
			(filter.apiTokenName === undefined || r.tokenName === filter.apiTokenName),
	);
	const counts = new Map<AnalyticsStatusKey, number>();
	for (const r of counted) counts.set(STATUS_KEY[r.status], (counts.get(STATUS_KEY[r.status]) ?? 0) + 1);
	const countAll = counted.length;
	const minutes = (filter.window.endExclusive - filter.window.start) / 60_000;
	const completed = counts.get('COMPLETED') ?? 0;
	return {
		countAll,
		successRate: countAll === 0 ? 0 : round2((completed / countAll) * 100),
		reqPerMinute: round2(countAll / minutes),
		avgLatency: countAll === 0 ? 0 : round2(counted.reduce((sum, r) => sum + r.runtime, 0) / countAll),
		// Statuses present come back as a SQL count would (a numeric string); absent ones are filled in with 0.
		data: ANALYTICS_STATUS_KEYS.map((key) => {
			const n = counts.get(key);
			return { key, value: n === undefined ? 0 : String(n) };
		}),
	};
}

/** Bytes a scrape moved through its proxy: page weight grows with browsing time and with extracted content. */
export function bandwidthBytes(result: LiveResult): number {
	return Math.round(result.runtime * 180_000 + result.tokenUsage * 64);
}

/** One row per proxy username of the account (zero when unused), over results created in the window. */
export function proxyBandwidth(usernames: string[], results: LiveResult[], window: UtcWindow): ProxyBandwidthRow[] {
	const totals = new Map<string, number>(usernames.map((u) => [u, 0]));
	for (const r of results) {
		if (!inWindow(r, window)) continue;
		totals.set(r.proxyUsername, (totals.get(r.proxyUsername) ?? 0) + bandwidthBytes(r));
	}
	return [...totals].map(([username, total]) => ({ username, total_bandwidth_usage: total }));
}
