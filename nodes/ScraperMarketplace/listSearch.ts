import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { nextListToken, readListToken } from '../shared/locator';
import { resultsPageReader } from './api';
import { LARGEST_RESULTS_PAGE } from './vocabulary';
import type { RunListRecord } from './vocabulary';

/**
 * The choices of the editor's `From list` pickers, read from the results list (GET /api/results, newest first): the
 * section C API lists neither scrapers nor runs by themselves. One request per page the user scrolls. The listing has
 * no search parameter, so the user's filter narrows each page here (name, URL or id, case-insensitive).
 */

/** The page the user scrolled to, and whether there is one after it. */
async function resultsPage(ctx: ILoadOptionsFunctions, page: number): Promise<{ records: RunListRecord[]; more: boolean }> {
	const { records, next } = await resultsPageReader(ctx, LARGEST_RESULTS_PAGE)(page);
	return { records, more: next !== undefined };
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
	const position = readListToken(paginationToken);
	const { records, more } = await resultsPage(this, position.page);
	const results: INodeListSearchItems[] = [];
	for (const record of records) {
		const id = String(record.scraper_id);
		if (typeof record.scraper_id !== 'number' || position.shown.has(id)) continue;
		if (!matches(filter, record.scraper_name, record.scraped_url, id)) continue;
		position.shown.add(id);
		const name = record.scraper_name ? String(record.scraper_name) : `Scraper ${id}`;
		results.push({ name: `${name} (${id})`, value: id, description: `Last run ${shortDate(record.created_at)}` });
	}
	return { results, paginationToken: nextListToken(position.page, more, position.shown) };
}

export async function searchScrapingRuns(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const position = readListToken(paginationToken);
	const { records, more } = await resultsPage(this, position.page);
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
	return { results, paginationToken: nextListToken(position.page, more, position.shown) };
}
