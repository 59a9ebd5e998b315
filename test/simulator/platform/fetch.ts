import type { SimReply, SimRequest } from '../core/http';
import { SeededRandom, hashString } from '../core/random';
import { SimSection, SimServer } from '../core/server';
import { pageTitle, renderHtml, renderMarkdown } from './content';
import { charsetPage, charsetPageText, fileAt, screenshotOf } from './fetchPages';
import { changingPage, pageKey, servedPage } from './changingPages';
import type { PageSpec, ServedPage } from './changingPages';
import { errorReply, platformErrorBody } from './errors';
import { fetchCost, fetchParams, parseFetchQuery } from './fetchQuery';
import type { FetchQuery } from './fetchQuery';
import type { PlatformSimulator } from './index';
import type { Caller } from './routes/guard';

/**
 * The page fetch with the API token (public facts, "Token page fetch" and "Page fetch, second form"): `GET {fetch
 * host}/?url=…`, or POST with part of the fields in a JSON body, with the platform's token as `x-api-token` or
 * `Authorization: Bearer` (neither: 401). The page comes as it is (HTML in its own charset, or a file such as a PDF)
 * with what it cost in headers; asked for its Markdown, a screenshot or its cookies (or with `html` sent), the answer
 * is JSON in the shape of the gateway's `data` (`html`, `markdown`, a base64 `screenshot`). A host of its own, as the
 * real service has one (`https://api.mrscraper.com`), sharing the platform's tokens, rate window and clock.
 */

/** Route names as the request log, faults and latency know them. */
export const FETCH_ROUTES = { fetch: 'GET /', fetchPost: 'POST /' } as const;

/** A page whose URL contains this never loads in time: 504 with the navigation timeout, as results report one. */
export const TIMEOUT_MARKER = 'sim-timeout';
/** A page whose URL contains `sim-status-<code>` answers with that status: the fetch succeeds, `x-status-code` says it. */
const STATUS_MARKER = /sim-status-([1-5]\d\d)/;

export interface FetchSimulatorOptions {
	seed?: string;
	/** Real-time latency (ms) per route name; read when a request arrives. */
	latencyMs?: Partial<Record<string, number>>;
	/** Rows of a full-page screenshot (benchmarks ask for large ones); read when a request arrives. */
	fullPageHeight?: number;
}

/** The page as the service returns it: the platform's fake web, marked when a browser rendered it. */
function pageHtml(query: FetchQuery, status: number): string {
	if (status >= 400) return `<!DOCTYPE html><html><head><title>${status}</title></head><body><h1>${status}</h1><p>${pageTitle(query.url)}</p></body></html>`;
	const html = renderHtml(query.url);
	return query.browserRendering ? html.replace('<html>', '<html data-rendered="browser">') : html;
}

const htmlPage = (html: string) => ({ bytes: Buffer.from(html), contentType: 'text/html; charset=utf-8' });

export class FetchSimulator extends SimSection {
	readonly server: SimServer;
	readonly latencyMs: Partial<Record<string, number>>;
	fullPageHeight: number | undefined;
	private readonly random: SeededRandom;
	/** Pages a test set (`setPage`), by `pageKey`. */
	private readonly setPages = new Map<string, ServedPage>();

	constructor(
		private readonly platform: PlatformSimulator,
		options: FetchSimulatorOptions = {},
	) {
		super();
		this.latencyMs = { ...(options.latencyMs ?? {}) };
		this.fullPageHeight = options.fullPageHeight;
		this.random = new SeededRandom(`${options.seed ?? 'fetch'}-ids`);
		this.server = new SimServer({
			name: 'fetch',
			clock: platform.clock,
			errorBody: platformErrorBody,
			seed: options.seed ?? 'fetch',
			latencyMs: (route) => this.latencyMs[route],
		});
		this.server.route('GET', '/', platform.tokenGuard((req, caller) => this.fetch(req, caller)));
		this.server.route('POST', '/', platform.tokenGuard((req, caller) => this.fetch(req, caller)));
	}

	/** Forgets the request log, faults and latencies (the platform's accounts and rate windows are the platform's). */
	reset(): void {
		this.server.log.clear();
		this.server.faults.clear();
		for (const route of Object.keys(this.latencyMs)) delete this.latencyMs[route];
		this.fullPageHeight = undefined;
		this.setPages.clear();
	}

	/**
	 * Test control: `url` serves this page from now on (its HTML, its Markdown, '' unless given, and its status, 200
	 * unless given) in place of the fake web's, until set again or `reset()`. It costs tokens as any page does.
	 */
	setPage(url: string, page: PageSpec): void {
		this.setPages.set(pageKey(url), servedPage(page));
	}

	/** The page a test set, else a changing page on the platform's clock; undefined for the fake web's own pages. */
	private servedAt(url: string): ServedPage | undefined {
		return this.setPages.get(pageKey(url)) ?? changingPage(url, this.platform.clock.now());
	}

	private fetch(req: SimRequest, caller: Caller): SimReply {
		if (req.method === 'POST' && req.bodyIsInvalidJson) return errorReply(400, 'The body must be JSON');
		const parsed = parseFetchQuery(fetchParams(req.query, req.body));
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
		const served = this.servedAt(query.url);
		const status = served?.status ?? Number(STATUS_MARKER.exec(query.url)?.[1] ?? 200);
		const page = (served && htmlPage(served.html)) ?? fileAt(query.url) ?? charsetPage(query.url, status) ?? htmlPage(pageHtml(query, status));
		const headers = { ...usage, bandwidth_usage: String(page.bytes.length * (query.blockResources ? 1 : 4)), 'x-status-code': String(status) };
		// A file is a file, whatever was asked; a page asked for its Markdown, screenshot or cookies comes as JSON.
		if (!query.asksContent || page.contentType.startsWith('application/pdf') || page.contentType.startsWith('image/')) {
			return { status: 200, buffer: page.bytes, headers: { 'content-type': page.contentType, ...headers } };
		}
		return { status: 200, json: this.content(query, status, cost, served), headers };
	}

	/** The JSON answer: the content asked for (an empty string or null for what was turned off), as the gateway's `data`. */
	private content(query: FetchQuery, status: number, cost: { tokens: number; runtime: number }, served: ServedPage | undefined): Record<string, unknown> {
		const html = served?.html ?? charsetPageText(query.url, status) ?? pageHtml(query, status);
		const host = new URL(query.url).hostname;
		return {
			html: query.html ? html : '',
			markdown: query.markdown ? (served?.markdown ?? renderMarkdown(query.url)) : '',
			screenshot: query.screenshot ? screenshotOf(query.url, query.screenshot, this.fullPageHeight).toString('base64') : null,
			...(query.returnCookie ? { cookies: [{ name: 'session', value: hashString(`cookie|${query.url}`).toString(16), domain: host }] } : {}),
			runtime: cost.runtime,
			token_usage: cost.tokens,
			retry_count: 0,
			error: null,
		};
	}

	private resultId(): string {
		let hex = '';
		for (let i = 0; i < 32; i++) hex += Math.floor(this.random.next() * 16).toString(16);
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	}
}
