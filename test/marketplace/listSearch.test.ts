import type { INodeListSearchResult } from 'n8n-workflow';

import { runListSearch } from '../harness';
import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../simulator/marketplace';
import { ROUTES, useMarketplace } from './helpers';

/**
 * The Marketplace node's `From list` pickers, called as n8n's server calls them: scrapers from the section C scrapers
 * list, runs from its results list. (Paging of the scraper and result pickers: crud.test.ts.)
 */

const ctx = useMarketplace();

async function search(method: string, options: { filter?: string; paginationToken?: string } = {}): Promise<INodeListSearchResult> {
	return await runListSearch({
		nodeType: 'scraperMarketplace',
		method,
		parameters: { resource: 'scraper', operation: 'run' },
		credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: ctx.sim.url } },
		...options,
	});
}

const values = (result: INodeListSearchResult) => result.results.map((r) => r.value);

describe('Marketplace list searches', () => {
	it('Scraper: each scraper of the account once, named with its id, newest first, one request to the scrapers list', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 2);
		ctx.sim.seedRuns(MARKETPLACE_OTHER_USER_TOKEN, 2);
		const result = await search('searchScrapers');
		expect(result.results).toHaveLength(2);
		for (const item of result.results) expect(item.name).toMatch(/^Seeded scraper \d+ \(\d+\)$/);
		expect(result.results.map((r) => r.name)).toEqual(expect.arrayContaining([expect.stringContaining(`(${result.results[0].value})`)]));
		// The scraper with two runs was created (backdated) after the one with three: it comes first.
		expect(values(result)).toEqual(['102', '101']);
		expect(result.paginationToken).toBeUndefined();
		expect(ctx.requests(ROUTES.listResults)).toHaveLength(0);
		const requests = ctx.requests(ROUTES.listScrapers);
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({ page: '1', per_page: '100' });
	});

	it('Scraper: a filter narrows the list by name or id (the listing has no search of its own)', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		const all = await search('searchScrapers');
		const wanted = all.results[1];
		const filtered = await search('searchScrapers', { filter: String(wanted.name).split(' (')[0].toUpperCase() });
		expect(values(filtered)).toEqual([wanted.value]);
		expect(values(await search('searchScrapers', { filter: 'no such scraper' }))).toEqual([]);
	});

	it('Scraping Run: runs with scraper, status and date, paged one request per page scrolled', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 150);
		const first = await search('searchScrapingRuns');
		expect(first.results).toHaveLength(100);
		expect(first.results[0].name).toMatch(/^Run \d+ · Seeded scraper \d+ · succeeded · \d{4}-\d\d-\d\d \d\d:\d\d$/);
		expect(JSON.parse(first.paginationToken as string)).toMatchObject({ page: 2 });
		const second = await search('searchScrapingRuns', { paginationToken: first.paginationToken as string });
		expect(second.results).toHaveLength(50);
		expect(second.paginationToken).toBeUndefined();
		expect(new Set([...values(first), ...values(second)]).size).toBe(150);
		expect(ctx.requests(ROUTES.listResults).map((r) => r.query.page)).toEqual(['1', '2']);
	});

	it('Scraping Run: a filter narrows the runs by scraper name, URL or id', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 2);
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		const all = await search('searchScrapingRuns');
		expect(all.results).toHaveLength(5);
		const scraper = String(all.results[0].name).split(' · ')[1];
		const byScraper = await search('searchScrapingRuns', { filter: scraper.toLowerCase() });
		expect(byScraper.results).toHaveLength(3);
		const byId = await search('searchScrapingRuns', { filter: String(all.results[4].value) });
		expect(values(byId)).toEqual([all.results[4].value]);
	});

	it('Scraper: a scraper is listed whatever its runs: many runs once, none at all too', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 130);
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 0);
		const result = await search('searchScrapers');
		expect(values(result)).toEqual(['102', '101']);
		expect(result.paginationToken).toBeUndefined();
	});
});
