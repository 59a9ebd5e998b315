/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code in plain Node, never inside n8n: it samples the simulator on a timer while a run goes */
import type { IDataObject } from 'n8n-workflow';

import { DEMO_AI_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator, PLATFORM_ROUTES } from '../../../simulator/platform';
import { callPlatform } from '../../../simulator/platform/client';

/** The workloads of figure 7 and what one run of them did, as the simulator saw it. */

/** Goals of the issue that asked for this figure. */
export const SPEEDUP_GOAL = 8;
export const FLOOR_GOAL = 1.15;
export const SHARE_429_GOAL = 5;
/** Auto is repeated (warm-up + settings.reps, median) when the physical limit is below this; otherwise timed once. */
export const REPEAT_BELOW_MS = 5_000;

/** One workload: N items of one operation against an account with a concurrency limit and a fixed latency. */
export interface Workload {
	key: 'rerun' | 'result';
	title: string;
	items: number;
	latencyMs: number;
	limit: number;
	route: string;
	/** HTTP Request node's Batching: items per batch (the account's limit), interval 0 ms. */
	batchSize: number;
}

export const WORKLOADS: Workload[] = [
	{ key: 'rerun', title: 'AI Scraper > Rerun', items: 200, latencyMs: 2_000, limit: 10, route: PLATFORM_ROUTES.rerun, batchSize: 10 },
	{ key: 'result', title: 'Result > Get', items: 1_000, latencyMs: 100, limit: 100, route: PLATFORM_ROUTES.result, batchSize: 100 },
];

export const SCRAPER_ID = DEMO_AI_SCRAPER_IDS.general;

/** What one run did, as the simulator (requests, 429s, peak) and the node's output (failed items) tell it. */
export interface RunStats {
	wallMs: number;
	/** Items out without an error. */
	answered: number;
	failed: number;
	sent: number;
	refused: number;
	peak: number;
	/** Per latency-long window from the first request: most requests seen in flight, and 429s answered in it. */
	windows?: Array<{ inFlight: number; refused: number }>;
}

export const floorMs = (w: Workload) => (w.items * w.latencyMs) / w.limit;
export const thousands = (n: number) => n.toLocaleString('en-US');
export const seconds = (ms: number) => `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)} s`;

/** A simulator for one workload: its account limit and route latency set, Result > Get's results seeded. */
export async function startSimulator(w: Workload): Promise<{ sim: PlatformSimulator; ids: string[] }> {
	const sim = new PlatformSimulator({ concurrencyLimit: w.limit, latencyMs: { [w.route]: w.latencyMs } });
	await sim.listen();
	const ids: string[] = [];
	if (w.key === 'result') {
		sim.seedResults(PLATFORM_DEMO_TOKEN, w.items);
		for (let page = 1; ids.length < w.items; page++) {
			const listed = await callPlatform<Array<{ id: string }>>(sim.url, 'GET', '/api/v1/results', { query: { page, pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC' } });
			if (listed.body.data.length === 0) break;
			ids.push(...listed.body.data.map((r) => r.id));
		}
		if (ids.length !== w.items) throw new Error(`seeded ${ids.length} results, expected ${w.items}`);
	}
	return { sim, ids };
}

/** Input items: a fresh URL per rerun (the simulator's rerun cache never applies), or one result id each. */
export function inputFor(w: Workload, ids: string[], tag: string): IDataObject[] {
	return w.key === 'rerun'
		? Array.from({ length: w.items }, (_, i) => ({ url: `https://shop.example.com/throughput/${tag}/${i}` }))
		: ids.map((id) => ({ id }));
}

export function ourParameters(w: Workload, parallel?: IDataObject): IDataObject {
	const base: IDataObject =
		w.key === 'rerun'
			? { resource: 'aiScraper', operation: 'rerun', scraperId: SCRAPER_ID, url: '={{ $json.url }}' }
			: { resource: 'result', operation: 'get', resultId: '={{ $json.id }}' };
	// From node version 3 (what runNode runs) Parallel Requests is an option: `options.parallel.settings`.
	return parallel ? { ...base, options: { parallel: { settings: parallel } } } : base;
}

/** Samples the account's requests in flight while `fn` runs; summarises per latency-long window. */
export async function observed(sim: PlatformSimulator, w: Workload, fn: () => Promise<{ answered: number; failed: number }>): Promise<RunStats> {
	sim.server.log.clear();
	sim.resetConcurrencyStats();
	const samples: Array<{ at: number; inFlight: number }> = [];
	const timer = setInterval(() => samples.push({ at: Date.now(), inFlight: sim.concurrencyStats(PLATFORM_DEMO_TOKEN).inFlight }), Math.max(5, w.latencyMs / 10));
	const t0 = performance.now();
	let outcome: { answered: number; failed: number };
	try {
		outcome = await fn();
	} finally {
		clearInterval(timer);
	}
	const wallMs = performance.now() - t0;
	const stats = sim.concurrencyStats(PLATFORM_DEMO_TOKEN);
	const entries = sim.server.log.for(w.route);
	const windows: Array<{ inFlight: number; refused: number }> = [];
	// Windows start at the first request (a real n8n takes seconds to start before it sends any).
	const origin = entries.length > 0 ? Math.min(...entries.map((e) => e.at)) : Date.now();
	const windowOf = (at: number) => {
		const index = Math.max(0, Math.floor((at - origin) / w.latencyMs));
		while (windows.length <= index) windows.push({ inFlight: 0, refused: 0 });
		return windows[index];
	};
	for (const s of samples.filter((x) => x.at >= origin)) windowOf(s.at).inFlight = Math.max(windowOf(s.at).inFlight, s.inFlight);
	for (const e of entries) if (e.status === 429) windowOf(e.at).refused++;
	return { wallMs, ...outcome, sent: entries.length, refused: stats.refused, peak: stats.peak, windows };
}

/**
 * An item the node failed (Continue On Fail / On Error: Continue): `error` set and no answer. Answers carry `error`
 * too (a result record's own field, null unless the scrape failed): ours has the record's `id`, the HTTP Request
 * node's the body's `data`.
 */
export function isFailure(json: IDataObject): boolean {
	return json.error !== undefined && json.error !== null && json.id === undefined && json.data === undefined;
}
