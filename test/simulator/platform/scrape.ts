/**
 * The scraping work behind the endpoints and the control methods: one synchronous scrape stored as a result
 * (reruns, demo data), and bulk jobs (both bulk starts, `startBulk`, demo data), whose progress the clock drives.
 */
import type { SimReply } from '../core/http';
import { createBulkJob } from './bulk';
import { extract, type MapOptions } from './agents';
import { failureFor, generalFields, normaliseUrl, renderHtml, scrapeCost } from './content';
import { validationFailed } from './errors';
import type { Caller } from './routes/guard';
import type { PlatformState, ScraperKind } from './state';
import { detailRecord, live, omit, type StoredResult, type StoredScraper } from './store';
import type { BulkData, BulkStartRecord } from './types';
import { Issues, requireUrlArray, requireUuid } from './validation';

/** The interface's map-agent defaults. */
export const MAP_DEFAULTS: Readonly<MapOptions> = { maxDepth: 2, maxPages: 50, limit: 1000 };

/** The `curl` of a record: the page request the scrape made. */
export function pageCurl(url: string): string {
	return `curl '${url}' -H 'accept: text/html,application/xhtml+xml' -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'`;
}

/**
 * One synchronous scrape of `url` by `scraper` at instant `at`, stored as a result of `type`: a `sim-fail` URL gives
 * a `Failed` record; a URL the scraper already scraped reuses the cache (fewer tokens, faster).
 */
export function scrape(
	state: PlatformState,
	{ user, token }: Caller,
	scraper: StoredScraper,
	url: string,
	type: 'Rerun-AI' | 'Rerun-Manual',
	at: number,
	map: MapOptions = MAP_DEFAULTS,
): StoredResult {
	const cacheKey = `${scraper.id}|${normaliseUrl(url)}`;
	const failure = failureFor(url);
	const cost = scrapeCost('rerun', url, state.rerunCache.has(cacheKey));
	let data: unknown = null;
	if (!failure) data = type === 'Rerun-AI' ? extract(scraper.agent ?? 'general', url, scraper.prompt ?? '', map) : generalFields(url);
	if (!failure) state.rerunCache.add(cacheKey);
	return state.insertResult({
		id: state.uuid(),
		userId: user.id,
		scraperId: scraper.id,
		type,
		url,
		createdAt: at,
		updatedAt: at,
		status: failure ? 'Failed' : 'Finished',
		error: failure ?? null,
		tokenUsage: failure ? 0 : cost.tokenUsage,
		runtime: cost.runtime,
		data,
		html: failure ? '' : renderHtml(url),
		tokenName: token.name,
		proxyUsername: state.proxyFor(user, url),
	});
}

/** A `Bulk-AI` record whose job started at `at` (in the past for demo data: then it is already done). */
export function insertBulkJob(state: PlatformState, { user, token }: Caller, scraperId: string, urls: string[], at: number): StoredResult {
	return state.insertResult({
		id: state.uuid(),
		userId: user.id,
		scraperId,
		type: 'Bulk-AI',
		url: urls[0],
		createdAt: at,
		updatedAt: at,
		status: 'Running',
		error: null,
		tokenUsage: 0,
		runtime: 0,
		data: null,
		html: null,
		tokenName: token.name,
		proxyUsername: state.proxyFor(user, urls[0]),
		bulk: createBulkJob(urls, at, state.options.bulkUrlDurationMs, Math.max(1, state.options.bulkConcurrency)),
	});
}

/** Shared by the bulk endpoints and `startBulk`: validation (422), scraper ownership and kind, then the job. */
export function startBulkJob(
	state: PlatformState,
	body: Record<string, unknown>,
	caller: Caller,
	kind: ScraperKind,
): { error: SimReply } | { record: BulkStartRecord } {
	const issues = new Issues();
	const scraperId = requireUuid(issues, body, 'scraperId');
	const urls = requireUrlArray(issues, body, 'urls');
	if (!issues.ok || scraperId === undefined || urls === undefined) return { error: validationFailed(issues.list) };

	const scraper = state.ownScraper(scraperId, caller.user, kind);
	if ('status' in scraper) return { error: scraper };

	const now = state.clock.now();
	const stored = insertBulkJob(state, caller, scraper.id, urls, now);
	const record = omit(detailRecord<BulkData>(live(stored, now)), 'screenshotPath', 'htmlContent');
	return { record: { ...record, curl: pageCurl(urls[0]), bulkResultId: record.id } };
}
