import type { SimReply, SimRequest } from '../core/http';
import { SimSection, SimServer } from '../core/server';
import { TIMEOUT_MARKER } from './fetch';
import { errorReply, platformErrorBody } from './errors';
import type { PlatformSimulator } from './index';
import type { Caller } from './routes/guard';
import { aiOverview, RESULTS_PER_PAGE, serpHtml, serpPage, totalResults, type SerpAsked } from './serp';

/**
 * The Google search with the API token (public facts, "Google search"): `POST {search host}/api/google/serp/v2/sync`
 * with a JSON body `{query, region, language, page, format, renderJs}` and the platform's `x-api-token`. A host of
 * its own, as the real service has one (`https://sync.scraper.mrscraper.com`), sharing the platform's tokens, rate
 * window and clock.
 */

export const SEARCH_ROUTES = { google: 'POST /api/google/serp/v2/sync' } as const;

/** Tokens one result page costs; rendering Google's page in a browser costs three times as much. */
export const SEARCH_PAGE_TOKENS = 2;

export interface SearchSimulatorOptions {
	seed?: string;
	/** Real-time latency (ms) per route name; read when a request arrives. */
	latencyMs?: Partial<Record<string, number>>;
	/**
	 * Whether a JSON answer says where the results end: `marked` (default) adds `totalResults` and `hasNextPage` to
	 * `data` (our choice: the public facts show only the result fields); `unmarked` gives the result list alone.
	 */
	paging?: SearchPaging;
}

export type SearchPaging = 'marked' | 'unmarked';

type Parsed = { asked: SerpAsked; format: 'json' | 'html' } | { refused: SimReply };

const refuse = (message: string): Parsed => ({ refused: errorReply(400, message) });

/** The body, checked field by field (language: BCP 47's shapes Google takes, e.g. en, fil, pt-BR, es-419, zh-Hant); the first field that breaks its rule is named in a 400. Unknown fields are ignored. */
export function parseSearchBody(req: SimRequest): Parsed {
	if (req.bodyIsInvalidJson) return refuse('body must be valid JSON');
	const body = req.body;
	if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('body must be a JSON object');
	const { query, region, language, page, format, renderJs } = body as Record<string, unknown>;
	if (typeof query !== 'string' || query.trim() === '') return refuse('query is required');
	if (region !== undefined && (typeof region !== 'string' || !/^[a-zA-Z]{2}$/.test(region))) return refuse('region must be a two-letter country code');
	if (language !== undefined && (typeof language !== 'string' || !/^[a-zA-Z]{2,3}(-([a-zA-Z]{2}|[0-9]{3}|[a-zA-Z]{4}))?$/.test(language))) {
		return refuse('language must be a language code such as en or pt-BR');
	}
	if (page !== undefined && !(typeof page === 'number' && Number.isInteger(page) && page >= 1)) return refuse('page must be an integer of at least 1');
	if (format !== undefined && format !== 'json' && format !== 'html') return refuse('format must be json or html');
	if (renderJs !== undefined && typeof renderJs !== 'boolean') return refuse('renderJs must be true or false');
	return {
		asked: { query, region, language, page: page ?? 1, renderJs: renderJs ?? false } as SerpAsked,
		format: format ?? 'json',
	};
}

export class SearchSimulator extends SimSection {
	readonly server: SimServer;
	readonly latencyMs: Partial<Record<string, number>>;
	/** Mutable: requests after a change see it; `reset()` restores the option's. */
	paging: SearchPaging;
	private readonly initialPaging: SearchPaging;

	constructor(
		private readonly platform: PlatformSimulator,
		options: SearchSimulatorOptions = {},
	) {
		super();
		this.latencyMs = { ...(options.latencyMs ?? {}) };
		this.paging = options.paging ?? 'marked';
		this.initialPaging = this.paging;
		this.server = new SimServer({
			name: 'search',
			clock: platform.clock,
			errorBody: platformErrorBody,
			seed: options.seed ?? 'search',
			latencyMs: (route) => this.latencyMs[route],
		});
		this.server.route('POST', '/api/google/serp/v2/sync', platform.tokenGuard((req, caller) => this.search(req, caller)));
	}

	/** Forgets the request log, faults and latencies (the platform's accounts and rate windows are the platform's). */
	reset(): void {
		this.server.log.clear();
		this.server.faults.clear();
		for (const route of Object.keys(this.latencyMs)) delete this.latencyMs[route];
		this.paging = this.initialPaging;
	}

	private search(req: SimRequest, caller: Caller): SimReply {
		const parsed = parseSearchBody(req);
		if ('refused' in parsed) return parsed.refused;
		const { asked, format } = parsed;
		const tokens = SEARCH_PAGE_TOKENS * (asked.renderJs ? 3 : 1);
		this.platform.spendTokens(caller, tokens);
		const usage = { token_usage: String(tokens) };
		if (asked.query.includes(TIMEOUT_MARKER)) return { ...errorReply(504, 'Google did not answer within 60 s'), headers: usage };
		const results = serpPage(asked);
		if (format === 'html') return { status: 200, text: serpHtml(asked, results), headers: { 'content-type': 'text/html; charset=utf-8', ...usage } };
		const data = {
			query: asked.query,
			region: asked.region ?? null,
			language: asked.language ?? null,
			page: asked.page,
			...(asked.renderJs ? { aiOverview: aiOverview(asked.query) } : {}),
			results,
			...(this.paging === 'marked' ? { totalResults: totalResults(asked.query), hasNextPage: asked.page * RESULTS_PER_PAGE < totalResults(asked.query) } : {}),
		};
		return { status: 200, json: { success: true, message: 'Search completed', data, tokenUsage: tokens }, headers: usage };
	}
}
