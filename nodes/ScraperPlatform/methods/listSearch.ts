import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { nextListToken, readListToken } from '../../shared/descriptions/locator';
import type { ListPosition } from '../../shared/descriptions/locator';
import { readPickerPage } from '../../shared/paging/pages';
import { resultsPages } from '../transport/api';
import type { ResultsQuery } from '../transport/api';
import { AI_RESULT_TYPES, MANUAL_RESULT_TYPES, RESULT_TYPES } from '../transport/vocabulary';
import { NodeCall } from '../../shared/execution/call';

/**
 * The choices of the editor's `From list` pickers. The service has no scraper or bulk-job listing of its own, so each
 * list is read from the results list (GET /api/v1/results), newest first: one request per page the user scrolls, the
 * user's filter passed to the service's `search` (it matches any column: id, scraper id, URL, type, status).
 */

const PAGE_SIZE = 100;

type ScraperKind = 'ai' | 'manual';

/**
 * The page of the results list the user scrolled to, newest first, narrowed by the user's filter (else by
 * `search`): through the paging guard, only records no earlier scroll met (`position.shown` remembers them), and
 * `more` false once the list ends or stops advancing.
 */
async function resultsPage(call: NodeCall<ILoadOptionsFunctions>, filter: string | undefined, position: ListPosition, search?: string) {
	const query: ResultsQuery = { pageSize: PAGE_SIZE, sortField: 'createdAt', sortOrder: 'DESC' };
	const text = filter?.trim() || search;
	if (text) query.search = text;
	return await readPickerPage(resultsPages(call, query, 0), position.page, position.shown);
}

/** "example.com/products" from "https://www.example.com/products?page=2": enough to recognise a page. */
function shortUrl(url: unknown): string {
	if (typeof url !== 'string' || url === '') return 'no URL';
	try {
		const parsed = new URL(url);
		return `${parsed.host.replace(/^www\./, '')}${parsed.pathname === '/' ? '' : parsed.pathname}`;
	} catch {
		return url;
	}
}

/** "…5d4e3f01": the end of a uuid, which tells scrapers apart as well as its start and reads as an id. */
export function idTag(id: string): string {
	return `…${id.slice(-8)}`;
}

function shortDate(value: unknown): string {
	return typeof value === 'string' ? value.slice(0, 16).replace('T', ' ') : '';
}

/** The words of each kind in a picker entry: "AI scraper", "Manual scraper". */
const KIND_WORDS: Record<ScraperKind, string> = { ai: 'AI', manual: 'Manual' };

/** "AI scraper", "Manual scraper", or "Scraper" when its results do not tell its kind. */
function scraperLabel(kind: ScraperKind | undefined): string {
	const words = kind === undefined ? 'scraper' : `${KIND_WORDS[kind]} scraper`;
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The kind the current form asks for: AI Scraper and Manual Scraper operations, or Bulk > Start's Scraper Kind. */
function wantedKind(ctx: ILoadOptionsFunctions): ScraperKind | undefined {
	const resource = ctx.getCurrentNodeParameter('resource');
	if (resource === 'aiScraper') return 'ai';
	if (resource === 'manualScraper') return 'manual';
	if (resource === 'bulk' && ctx.getCurrentNodeParameter('operation') === 'start') {
		return ctx.getCurrentNodeParameter('scraperKind') === 'ai' ? 'ai' : 'manual';
	}
	return undefined;
}

export async function searchScrapers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const call = new NodeCall(this);
	const position = readListToken(paginationToken);
	const { records, page, more } = await resultsPage(call, filter, position);
	const wanted = wantedKind(this);
	// Distinct scrapers in the order of their newest result; a scraper's kind is known from the types seen on the page.
	const scrapers = new Map<string, { url: unknown; types: Set<string> }>();
	for (const record of records) {
		const id = record.scraperId;
		if (typeof id !== 'string' || id === '' || position.shown.has(id)) continue;
		const entry = scrapers.get(id) ?? { url: record.url, types: new Set<string>() };
		entry.types.add(String(record.type ?? ''));
		scrapers.set(id, entry);
	}
	const results: INodeListSearchItems[] = [];
	for (const [id, { url, types }] of scrapers) {
		// A manual scraper shows up through its manual reruns, or only through bulk jobs (AI ones are `Bulk-AI` too).
		const kind: ScraperKind | undefined = [...types].some((t) => AI_RESULT_TYPES.includes(t))
			? 'ai'
			: [...types].some((t) => MANUAL_RESULT_TYPES.includes(t))
				? 'manual'
				: undefined;
		// Every AI scraper has AI results (its creation, its reruns); a scraper without any is not one.
		if (wanted === 'ai' ? kind !== 'ai' : wanted === 'manual' && kind === 'ai') continue;
		const label = scraperLabel(kind);
		// A piece of the id first: it stays while the URL of the newest result changes, and survives truncation.
		results.push({ name: `${idTag(id)} · ${label} · ${shortUrl(url)}`, value: id, description: `${label} ${id}` });
		position.shown.add(id);
	}
	return { results, paginationToken: nextListToken(page, more, position.shown) };
}

export async function searchBulkJobs(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const call = new NodeCall(this);
	// Without a filter, `search` narrows the page to bulk jobs; with one, the page is the user's and is narrowed here.
	const position = readListToken(paginationToken);
	const { records, page, more } = await resultsPage(call, filter, position, RESULT_TYPES.bulk);
	const results: INodeListSearchItems[] = [];
	for (const record of records) {
		if (record.type !== RESULT_TYPES.bulk || typeof record.id !== 'string') continue;
		const data = (record.data ?? {}) as IDataObject;
		const urls = Array.isArray(data.urlDetails) ? data.urlDetails.length : undefined;
		const parts = [shortUrl(record.url), String(record.status ?? 'unknown status')];
		if (urls !== undefined) parts.push(`${urls} URL${urls === 1 ? '' : 's'}`);
		parts.push(shortDate(record.createdAt));
		results.push({ name: parts.filter(Boolean).join(' · '), value: record.id, description: `Bulk job ${record.id}` });
	}
	return { results, paginationToken: nextListToken(page, more, position.shown) };
}

export async function searchResults(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const call = new NodeCall(this);
	const position = readListToken(paginationToken);
	const { records, page, more } = await resultsPage(call, filter, position);
	const results: INodeListSearchItems[] = [];
	for (const record of records) {
		if (typeof record.id !== 'string') continue;
		const parts = [String(record.type ?? 'result'), shortUrl(record.url), String(record.status ?? ''), shortDate(record.createdAt)];
		results.push({ name: parts.filter(Boolean).join(' · '), value: record.id, description: `Result ${record.id}` });
	}
	return { results, paginationToken: nextListToken(page, more, position.shown) };
}
