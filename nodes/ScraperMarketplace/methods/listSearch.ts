import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { nextListToken, readListToken } from '../../shared/descriptions/locator';
import type { ListPosition } from '../../shared/descriptions/locator';
import { readPickerPage } from '../../shared/paging/pages';
import { resultsPageReader, scrapersPageReader } from '../transport/api';
import { LARGEST_RESULTS_PAGE, LARGEST_SCRAPERS_PAGE } from '../transport/vocabulary';
import type { RunListRecord } from '../transport/vocabulary';
import { NodeCall } from '../../shared/execution/call';

/**
 * The choices of the editor's `From list` pickers: scrapers from the scrapers list (GET /api/scrapers), results and
 * runs from the results list (GET /api/results; the section C API lists no runs by themselves), newest first. One
 * request per page the user scrolls. The listings have no search parameter, so the user's filter narrows each page
 * here (name, URL or id, case-insensitive). New records enter at the top and push the rest down, so each page can
 * meet a record already read: the shared paging guard and the token list each once, and end the list when a page
 * brings nothing new.
 */

/** The page of the results list the user scrolled to: records no earlier scroll met, and whether more may follow. */
async function resultsPage(call: NodeCall<ILoadOptionsFunctions>, position: ListPosition): Promise<{ records: RunListRecord[]; page: number; more: boolean }> {
	return await readPickerPage(resultsPageReader(call, LARGEST_RESULTS_PAGE), position.page, position.shown);
}

function matches(filter: string | undefined, ...fields: unknown[]): boolean {
	const text = filter?.trim().toLowerCase();
	if (!text) return true;
	return fields.some((field) => field !== undefined && field !== null && String(field).toLowerCase().includes(text));
}

function shortDate(value: unknown): string {
	return typeof value === 'string' ? value.slice(0, 16).replace('T', ' ') : '';
}

export async function searchScrapers(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const call = new NodeCall(this);
	const position = readListToken(paginationToken);
	const { records, page, more } = await readPickerPage(scrapersPageReader(call, LARGEST_SCRAPERS_PAGE), position.page, position.shown);
	const results: INodeListSearchItems[] = [];
	for (const scraper of records) {
		if (typeof scraper.id !== 'number') continue;
		const id = String(scraper.id);
		const name = scraper.name ? String(scraper.name) : `Scraper ${id}`;
		if (!matches(filter, name, id)) continue;
		const schedule = scraper.scheduled ? ' · scheduled' : '';
		results.push({ name: `${name} (${id})`, value: id, description: `Updated ${shortDate(scraper.updated_at)}${schedule}` });
	}
	return { results, paginationToken: nextListToken(page, more, position.shown) };
}

export async function searchResults(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const call = new NodeCall(this);
	const position = readListToken(paginationToken);
	const { records, page, more } = await resultsPage(call, position);
	const results: INodeListSearchItems[] = [];
	for (const record of records) {
		if (typeof record.id !== 'number') continue;
		const id = String(record.id);
		const scraper = String(record.scraper_name ?? `Scraper ${record.scraper_id}`);
		if (!matches(filter, scraper, record.scraped_url, id, record.scraping_run_id)) continue;
		results.push({
			name: `Result ${id} · ${scraper} · ${String(record.scraped_url ?? '')} · ${String(record.status)} · ${shortDate(record.created_at)}`,
			value: id,
			description: `Scraping run ${record.scraping_run_id}`,
		});
	}
	return { results, paginationToken: nextListToken(page, more, position.shown) };
}

export async function searchScrapingRuns(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const call = new NodeCall(this);
	const position = readListToken(paginationToken);
	const { records, page, more } = await resultsPage(call, position);
	const runs = new Map<number, { scraper: string; created: unknown; statuses: Set<string>; urls: unknown[] }>();
	for (const record of records) {
		const id = record.scraping_run_id;
		if (typeof id !== 'number') continue;
		const run = runs.get(id) ?? { scraper: String(record.scraper_name ?? `Scraper ${record.scraper_id}`), created: record.created_at, statuses: new Set(), urls: [] };
		run.statuses.add(String(record.status));
		run.urls.push(record.scraped_url);
		runs.set(id, run);
	}
	const results: INodeListSearchItems[] = [];
	for (const [id, run] of runs) {
		// A run whose results straddle two pages is listed once, on the first.
		if (position.shown.has(String(id)) || !matches(filter, run.scraper, id, ...run.urls)) continue;
		position.shown.add(String(id));
		const status = [...run.statuses].join('/');
		results.push({ name: `Run ${id} · ${run.scraper} · ${status} · ${shortDate(run.created)}`, value: String(id), description: `${run.urls.length} result(s) on this page` });
	}
	return { results, paginationToken: nextListToken(page, more, position.shown) };
}
