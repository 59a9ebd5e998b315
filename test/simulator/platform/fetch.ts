import type { SimReply, SimRequest } from '../core/http';
import { SeededRandom, hashString } from '../core/random';
import { SimSection, SimServer } from '../core/server';
import { pageTitle, renderHtml } from './content';
import { errorReply, platformErrorBody } from './errors';
import type { PlatformSimulator } from './index';
import type { Caller } from './routes/guard';

/**
 * The page fetch with the API token (public facts, "Token page fetch"): `GET {fetch host}/?url=…` with the
 * platform's `x-api-token`, answered with the page's HTML as text and what it cost in headers. A host of its own,
 * as the real service has one (`https://api.mrscraper.com`), sharing the platform's tokens, rate window and clock.
 */

/** Route names as the request log, faults and latency know them. */
export const FETCH_ROUTES = { fetch: 'GET /' } as const;

/** A page whose URL contains this never loads in time: 504 with the navigation timeout, as results report one. */
export const TIMEOUT_MARKER = 'sim-timeout';
/** A page whose URL contains `sim-status-<code>` answers with that status: the fetch succeeds, `x-status-code` says it. */
const STATUS_MARKER = /sim-status-([1-5]\d\d)/;

/** The service's page timeout when none is sent (its own clients send 30). */
export const DEFAULT_FETCH_TIMEOUT_SECONDS = 30;

export interface FetchSimulatorOptions {
	seed?: string;
	/** Real-time latency (ms) per route name; read when a request arrives. */
	latencyMs?: Partial<Record<string, number>>;
}

/** The query of one fetch, checked. */
export interface FetchQuery {
	url: string;
	timeout: number;
	geoCode?: string;
	browserRendering: boolean;
	waitForSelector?: string;
	homePage: boolean;
	blockResources: boolean;
	maxRetries: number;
	tokenCap?: number;
}

type Parsed = { query: FetchQuery } | { refused: SimReply };

const refuse = (message: string): Parsed => ({ refused: errorReply(400, message) });

/** An integer query parameter in `[min, max]`, or the message naming it; undefined when absent. */
function integerParam(params: URLSearchParams, name: string, min: number, max: number): number | string | undefined {
	const raw = params.get(name);
	if (raw === null) return undefined;
	const value = Number(raw);
	return /^-?\d+$/.test(raw.trim()) && value >= min && value <= max ? value : `${name} must be an integer from ${min} to ${max}`;
}

function booleanParam(params: URLSearchParams, name: string): boolean | string {
	const raw = params.get(name);
	if (raw === null) return false;
	return raw === 'true' || raw === 'false' ? raw === 'true' : `${name} must be true or false`;
}

/** The interface's bounds (section A, the same fields at the gateway); the first field that breaks one is named. */
export function parseFetchQuery(params: URLSearchParams): Parsed {
	const url = params.get('url');
	if (url === null || url.trim() === '') return refuse('url is required');
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return refuse('url must be a valid http or https URL');
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return refuse('url must be a valid http or https URL');
	const numbers = {
		timeout: integerParam(params, 'timeout', 1, 300),
		maxRetries: integerParam(params, 'maxRetries', 0, 10),
		tokenCap: integerParam(params, 'tokenCap', 1, 10000),
	};
	const flags = {
		browserRendering: booleanParam(params, 'browserRendering'),
		homePage: booleanParam(params, 'homePage'),
		blockResources: booleanParam(params, 'blockResources'),
	};
	const said = [...Object.values(numbers), ...Object.values(flags)].find((value): value is string => typeof value === 'string');
	if (said) return refuse(said);
	const geoCode = params.get('geoCode') ?? undefined;
	if (geoCode !== undefined && !/^[a-zA-Z]{2}$/.test(geoCode)) return refuse('geoCode must be a two-letter country code');
	const waitForSelector = params.get('waitForSelector') ?? undefined;
	if (waitForSelector !== undefined && (waitForSelector.length === 0 || waitForSelector.length > 1000)) {
		return refuse('waitForSelector must be 1 to 1000 characters');
	}
	return {
		query: {
			url,
			timeout: (numbers.timeout as number | undefined) ?? DEFAULT_FETCH_TIMEOUT_SECONDS,
			geoCode,
			browserRendering: flags.browserRendering as boolean,
			waitForSelector,
			homePage: flags.homePage as boolean,
			blockResources: flags.blockResources as boolean,
			maxRetries: (numbers.maxRetries as number | undefined) ?? 3,
			tokenCap: numbers.tokenCap as number | undefined,
		},
	};
}

/** Tokens and seconds a fetch takes: a browser costs five times a plain request, the home page visit one more. */
export function fetchCost(query: FetchQuery): { tokens: number; runtime: number } {
	const n = hashString(`fetch|${query.url}`);
	const tokens = (1 + (n % 4)) * (query.browserRendering ? 5 : 1) + (query.homePage ? 1 : 0);
	const runtime = 0.3 + (n % 1700) / 1000 + (query.browserRendering ? 2 : 0) + (query.homePage ? 0.5 : 0);
	return { tokens: query.tokenCap === undefined ? tokens : Math.min(tokens, query.tokenCap), runtime: Math.round(runtime * 1000) / 1000 };
}

/** The page as the service returns it: the platform's fake web, marked when a browser rendered it. */
function pageHtml(query: FetchQuery, status: number): string {
	if (status >= 400) return `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>${status}</h1><p>${pageTitle(query.url)}</p></body></html>`;
	const html = renderHtml(query.url);
	return query.browserRendering ? html.replace('<html>', '<html data-rendered="browser">') : html;
}

export class FetchSimulator extends SimSection {
	readonly server: SimServer;
	readonly latencyMs: Partial<Record<string, number>>;
	private readonly random: SeededRandom;

	constructor(
		private readonly platform: PlatformSimulator,
		options: FetchSimulatorOptions = {},
	) {
		super();
		this.latencyMs = { ...(options.latencyMs ?? {}) };
		this.random = new SeededRandom(`${options.seed ?? 'fetch'}-ids`);
		this.server = new SimServer({
			name: 'fetch',
			clock: platform.clock,
			errorBody: platformErrorBody,
			seed: options.seed ?? 'fetch',
			latencyMs: (route) => this.latencyMs[route],
		});
		this.server.route('GET', '/', platform.tokenGuard((req, caller) => this.fetch(req, caller)));
	}

	/** Forgets the request log, faults and latencies (the platform's accounts and rate windows are the platform's). */
	reset(): void {
		this.server.log.clear();
		this.server.faults.clear();
		for (const route of Object.keys(this.latencyMs)) delete this.latencyMs[route];
	}

	private fetch(req: SimRequest, caller: Caller): SimReply {
		const parsed = parseFetchQuery(req.query);
		if ('refused' in parsed) return parsed.refused;
		const { query } = parsed;
		const cost = fetchCost(query);
		this.platform.spendTokens(caller, cost.tokens);
		const usage = {
			token_usage: String(cost.tokens),
			runtime: String(cost.runtime),
			'x-result-id': this.resultId(),
		};
		if (query.url.includes(TIMEOUT_MARKER)) {
			const reply = errorReply(504, `Navigation timeout of ${query.timeout * 1000} ms exceeded`);
			return { ...reply, headers: { ...usage, runtime: String(query.timeout) } };
		}
		const status = Number(STATUS_MARKER.exec(query.url)?.[1] ?? 200);
		const html = pageHtml(query, status);
		const bandwidth = Buffer.byteLength(html) * (query.blockResources ? 1 : 4);
		return {
			status: 200,
			text: html,
			headers: { 'content-type': 'text/html; charset=utf-8', ...usage, bandwidth_usage: String(bandwidth), 'x-status-code': String(status) },
		};
	}

	private resultId(): string {
		let hex = '';
		for (let i = 0; i < 32; i++) hex += Math.floor(this.random.next() * 16).toString(16);
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	}
}
