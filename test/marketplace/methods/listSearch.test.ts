import type { IDataObject } from 'n8n-workflow';

import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../../simulator/marketplace';
import { ROUTES, createFinished as finish, listSearch, runOk, seedScrapers as seed, useMarketplace, values } from '../helpers';
import { picked } from '../locators';
import * as start from '../parameters';

/**
 * The Marketplace node's `From list` pickers, called as n8n's server calls them: scrapers from the section C scrapers
 * list, runs from its results list; paging of the scraper and result pickers, and a pick used by Result > Get.
 */

const ctx = useMarketplace();
const social = { ...start.social, expectedData: 3 };
const createFinished = (parameters: IDataObject = social) => finish(ctx, parameters);
const seedScrapers = (count: number, token?: string) => seed(ctx, count, token);

/** A search as the Scraper > Run form calls it. */
const search = (method: string, options?: { filter?: string; paginationToken?: string }) => listSearch(ctx, { resource: 'scraper', operation: 'run' }, method, options);

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

describe('pickers', () => {
	/** A search as the Result > Get form calls it. */
	const search = (method: string, options?: { filter?: string; paginationToken?: string }) => listSearch(ctx, { resource: 'result', operation: 'get' }, method, options);

	it('Scraper: reads the scrapers list, 100 a page, one request per page scrolled', async () => {
		seedScrapers(150);
		const first = await search('searchScrapers');
		expect(first.results).toHaveLength(100);
		expect(first.results[0]).toMatchObject({ name: 'Seeded scraper 250 (250)', value: '250' });
		expect(first.results[0].description).toMatch(/^Updated \d{4}-\d\d-\d\d \d\d:\d\d$/);
		const second = await search('searchScrapers', { paginationToken: first.paginationToken as string });
		expect(second.results).toHaveLength(50);
		expect(second.paginationToken).toBeUndefined();
		expect(new Set([...values(first), ...values(second)]).size).toBe(150);
		expect(ctx.requests().map((r) => [r.route, r.query])).toEqual([
			[ROUTES.listScrapers, { page: '1', per_page: '100' }],
			[ROUTES.listScrapers, { page: '2', per_page: '100' }],
		]);
	});

	it('Scraper: a scraper created while scrolling pushes the list down, and none is listed twice', async () => {
		seedScrapers(150);
		const first = await search('searchScrapers');
		seedScrapers(1);
		const second = await search('searchScrapers', { paginationToken: first.paginationToken as string });
		expect(second.results).toHaveLength(50);
		expect(values(second).some((value) => values(first).includes(value))).toBe(false);
	});

	it('Scraper: the filter narrows each page by name or id, case-insensitive; scheduled scrapers say so', async () => {
		seedScrapers(3);
		const created = await createFinished({ ...social, name: 'Tea Talk' });
		ctx.sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, created.scraper_id as number, '0 * * * *');
		const byName = await search('searchScrapers', { filter: 'tea talk' });
		expect(byName.results).toEqual([expect.objectContaining({ name: `Tea Talk (${created.scraper_id as number})`, value: String(created.scraper_id) })]);
		expect(byName.results[0].description).toMatch(/ · scheduled$/);
		expect(values(await search('searchScrapers', { filter: '102' }))).toEqual(['102']);
		expect(values(await search('searchScrapers', { filter: 'nothing like it' }))).toEqual([]);
	});

	it('Result: results newest first with scraper, target, status and date; pages and filter; the pick is what is sent', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 120);
		await createFinished();
		const first = await search('searchResults');
		expect(first.results).toHaveLength(100);
		expect(first.results[0].name).toMatch(/^Result 90121 · CRM talk · Default · succeeded · \d{4}-\d\d-\d\d \d\d:\d\d$/);
		expect(first.results[0]).toMatchObject({ value: '90121', description: 'Scraping run 5121' });
		const second = await search('searchResults', { paginationToken: first.paginationToken as string });
		expect(second.results).toHaveLength(21);
		expect(second.paginationToken).toBeUndefined();
		expect(new Set([...values(first), ...values(second)]).size).toBe(121);
		expect(ctx.requests().map((r) => [r.route, r.query.page])).toEqual([
			[ROUTES.listResults, '1'],
			[ROUTES.listResults, '2'],
		]);

		const filtered = await search('searchResults', { filter: 'crm TALK' });
		expect(values(filtered)).toEqual(['90121']);

		ctx.sim.server.log.clear();
		const pick = second.results[3];
		const [result] = await runOk(ctx, { resource: 'result', operation: 'get', resultId: picked(pick.value) });
		expect(ctx.requests().map((r) => r.path)).toEqual([`/api/results/${String(pick.value)}`]);
		expect(String(result.id)).toBe(pick.value);
	});
});
