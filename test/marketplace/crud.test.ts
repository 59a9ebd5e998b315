import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { runListSearch } from '../harness';
import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../simulator/marketplace';
import { BEARER, NO_WAIT, ROUTES, WAIT, jsonOf, runOk, useMarketplace } from './helpers';

/**
 * The reads and deletes of section C (n8n's UX guideline: CRUD operations for each resource type), run through n8n's
 * engine against the simulator: Scraper > Get / Get Many, Scraping Run > Get / Get Latest / Delete, Result > Get /
 * Get Latest / Delete, and the pickers they use.
 */

const ctx = useMarketplace();

const social = { resource: 'lead', operation: 'createAndRunSocial', name: 'CRM talk', keywords: 'crm software', expectedData: 3 };
const portalLinks = (urls: string[]) => ({ resource: 'realEstatePortal', operation: 'createAndRun', name: 'Listings', searchBy: 'links', urls: urls.join('\n') });

/** A resource locator value as the editor stores it: picked from the list, or typed By ID. */
const picked = (id: unknown) => ({ __rl: true, mode: 'list', value: String(id), cachedResultName: `Picked ${String(id)}` });
const typed = (id: unknown) => ({ __rl: true, mode: 'id', value: String(id) });
const LOCATOR_SHAPES: Array<[string, (id: unknown) => IDataObject]> = [
	['picked from the list', picked],
	['typed By ID', typed],
];

/** A message without the ` [item N]` that names the input item it came from (when the shared item loop adds it). */
function messageOf(error: { message?: string } | string | undefined, itemIndex = 0): string {
	const text = typeof error === 'string' ? error : (error?.message ?? '');
	const mark = ` [item ${itemIndex}]`;
	return text.endsWith(mark) ? text.slice(0, -mark.length) : text;
}

/** Validation names the field (in single or double quotes, whichever the shared messages use). */
const invalid = (label: string) => new RegExp(`^Invalid ['"]${label}['"]: `);

/** Creates a scraper with one finished run (social leads); returns the run item of Wait for Completion. */
async function createFinished(parameters: IDataObject = social): Promise<IDataObject> {
	const [run] = await runOk(ctx, { ...parameters, ...WAIT });
	expect(run.status).toBe('succeeded');
	ctx.sim.server.log.clear();
	return run;
}

/** `count` scrapers of the demo account, each with one finished run; ids from 101, listed newest (highest) first. */
function seedScrapers(count: number, token = MARKETPLACE_DEMO_TOKEN): void {
	for (let i = 0; i < count; i++) ctx.sim.seedRuns(token, 1);
}

async function search(method: string, options: { filter?: string; paginationToken?: string } = {}): Promise<INodeListSearchResult> {
	return await runListSearch({
		nodeType: 'scraperMarketplace',
		method,
		parameters: { resource: 'result', operation: 'get' },
		credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: ctx.sim.url } },
		...options,
	});
}

const values = (result: INodeListSearchResult) => result.results.map((r) => r.value);

describe('Scraper: Get', () => {
	it.each(LOCATOR_SHAPES)('%s: reads exactly that scraper, one GET', async (_shape, locator) => {
		seedScrapers(3);
		const [scraper] = await runOk(ctx, { resource: 'scraper', operation: 'get', scraperId: locator(102) });
		const requests = ctx.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ route: ROUTES.scraper, method: 'GET', path: '/api/scrapers/102' });
		expect(requests[0].headers.authorization).toBe(BEARER);
		expect(scraper).toMatchObject({ id: 102, name: 'Seeded scraper 102', scheduled: false, schedule: null });
		expect(Object.keys(scraper).sort()).toEqual(['created_at', 'id', 'name', 'schedule', 'scheduled', 'updated_at', 'url', 'urls']);
	});

	it('the scraper a create made, with its URLs', async () => {
		const created = await createFinished(portalLinks(['https://www.portal.example/rent/a']));
		const [scraper] = await runOk(ctx, { resource: 'scraper', operation: 'get', scraperId: typed(created.scraper_id) });
		expect(scraper).toMatchObject({ id: created.scraper_id, name: 'Listings', urls: ['https://www.portal.example/rent/a'] });
	});

	it('an unknown scraper, or one of another account, is a 404 naming the ID', async () => {
		const result = await ctx.run({ resource: 'scraper', operation: 'get', scraperId: typed(999) });
		expect(messageOf(result.error)).toMatch(/^The scraper .999. was not found \(404\)$/);
		seedScrapers(1, MARKETPLACE_OTHER_USER_TOKEN);
		const other = await ctx.run({ resource: 'scraper', operation: 'get', scraperId: typed(101) });
		expect(other.error?.httpCode).toBe('404');
	});
});

describe('Scraper: Get Many', () => {
	it('Return All reads every page, one request each, newest first, each scraper once', async () => {
		seedScrapers(25);
		const items = await runOk(ctx, { resource: 'scraper', operation: 'getMany', returnAll: true, options: { perPage: 10 } });
		const requests = ctx.requests();
		expect(requests.map((r) => r.query)).toEqual([
			{ page: '1', per_page: '10' },
			{ page: '2', per_page: '10' },
			{ page: '3', per_page: '10' },
		]);
		expect(requests.every((r) => r.route === ROUTES.listScrapers && r.method === 'GET' && r.headers.authorization === BEARER)).toBe(true);
		expect(items.map((i) => i.id)).toEqual(Array.from({ length: 25 }, (_, i) => 125 - i));
	});

	it('Return All with the default page size: one request for a short list', async () => {
		seedScrapers(3);
		expect(await runOk(ctx, { resource: 'scraper', operation: 'getMany', returnAll: true })).toHaveLength(3);
		expect(ctx.requests().map((r) => r.query)).toEqual([{ page: '1', per_page: '100' }]);
	});

	it('Limit across several pages asks for no more than needed', async () => {
		seedScrapers(30);
		const twelve = await runOk(ctx, { resource: 'scraper', operation: 'getMany', limit: 12, options: { perPage: 5 } });
		expect(twelve.map((i) => i.id)).toEqual(Array.from({ length: 12 }, (_, i) => 130 - i));
		expect(ctx.requests().map((r) => r.query)).toEqual([
			{ page: '1', per_page: '5' },
			{ page: '2', per_page: '5' },
			{ page: '3', per_page: '5' },
		]);
		ctx.sim.server.log.clear();
		expect(await runOk(ctx, { resource: 'scraper', operation: 'getMany', limit: 4 })).toHaveLength(4);
		expect(ctx.requests().map((r) => r.query)).toEqual([{ page: '1', per_page: '4' }]);
	});

	it("a scraper created while the pages are read pushes the list down: it is not output twice", async () => {
		seedScrapers(6);
		let created = false;
		ctx.sim.server.beforeHandle = (request) => {
			if (request.route === ROUTES.listScrapers && request.query.page === '2' && !created) {
				created = true;
				ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
			}
		};
		try {
			const items = await runOk(ctx, { resource: 'scraper', operation: 'getMany', returnAll: true, options: { perPage: 3 } });
			expect(items.map((i) => i.id)).toEqual([106, 105, 104, 103, 102, 101]);
		} finally {
			ctx.sim.server.beforeHandle = undefined;
		}
	});

	it("lists only the token's account's scrapers", async () => {
		seedScrapers(2, MARKETPLACE_OTHER_USER_TOKEN);
		expect(await runOk(ctx, { resource: 'scraper', operation: 'getMany', returnAll: true })).toEqual([]);
	});

	it.each([
		['limit 0', { limit: 0 }, invalid('Limit')],
		['page size 101', { options: { perPage: 101 } }, invalid('Page Size')],
	])('validation: %s (nothing is sent)', async (_name, parameters, message) => {
		const result = await ctx.run({ resource: 'scraper', operation: 'getMany', ...parameters });
		expect(messageOf(result.error)).toMatch(message);
		expect(ctx.requests()).toHaveLength(0);
	});
});

describe('Scraping Run: Get', () => {
	it.each(LOCATOR_SHAPES)('%s: the run with its results and their extracted data', async (_shape, locator) => {
		seedScrapers(1);
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 2);
		const [run] = await runOk(ctx, { resource: 'scrapingRun', operation: 'get', scrapingRunId: locator(5002) });
		expect(ctx.requests().map((r) => [r.route, r.method, r.path])).toEqual([[ROUTES.scrapingRun, 'GET', '/api/scraping-runs/5002']]);
		expect(run).toMatchObject({ id: 5002, scraper_id: 102, status: 'succeeded' });
		const results = run.results as IDataObject[];
		expect(results).toHaveLength(1);
		expect(results[0]).toMatchObject({ scraping_run_id: 5002, status: 'succeeded' });
		expect(Array.isArray(results[0].content)).toBe(true);
	});

	it('an unknown run is a 404 naming the ID', async () => {
		const result = await ctx.run({ resource: 'scrapingRun', operation: 'get', scrapingRunId: typed(4242) });
		expect(messageOf(result.error)).toMatch(/^The scraping run .4242. was not found \(404\)$/);
	});
});

describe('Scraping Run: Get Latest', () => {
	it.each(LOCATOR_SHAPES)('%s: the newest run of that scraper', async (_shape, locator) => {
		const created = await createFinished();
		const [rerun] = await runOk(ctx, { resource: 'scraper', operation: 'run', scraperId: created.scraper_id, ...NO_WAIT });
		ctx.sim.server.log.clear();
		const [latest] = await runOk(ctx, { resource: 'scrapingRun', operation: 'getLatest', scraperId: locator(created.scraper_id) });
		expect(ctx.requests().map((r) => [r.route, r.path])).toEqual([[ROUTES.latestScrapingRun, `/api/scraping-runs/latest/${created.scraper_id as number}`]]);
		expect(latest).toMatchObject({ id: rerun.scraping_run_id, scraper_id: created.scraper_id });
		expect(latest.id).not.toBe(created.scraping_run_id);
	});

	it('a scraper without runs left, or an unknown one: the message says either may be the case', async () => {
		const created = await createFinished();
		await runOk(ctx, { resource: 'scrapingRun', operation: 'delete', scrapingRunId: typed(created.scraping_run_id) });
		for (const id of [created.scraper_id, 999]) {
			const result = await ctx.run({ resource: 'scrapingRun', operation: 'getLatest', scraperId: typed(id) });
			expect(messageOf(result.error)).toBe(`The scraper "${String(id)}" was not found, or has no scraping run (404)`);
			expect(result.error?.description).toContain("'Scraper ID'");
		}
	});
});

describe('Scraping Run: Delete', () => {
	it.each(LOCATOR_SHAPES)('%s: deletes exactly that run and outputs {deleted, id}; reading it then is a 404', async (_shape, locator) => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		const [out] = await runOk(ctx, { resource: 'scrapingRun', operation: 'delete', scrapingRunId: locator(5002) });
		expect(out).toEqual({ deleted: true, id: 5002 });
		const [request] = ctx.requests();
		expect(request).toMatchObject({ route: ROUTES.deleteScrapingRun, method: 'DELETE', path: '/api/scraping-runs/5002' });
		expect(request.headers.authorization).toBe(BEARER);
		expect(request.body).toBeUndefined();

		const read = await ctx.run({ resource: 'scrapingRun', operation: 'get', scrapingRunId: typed(5002) });
		expect(messageOf(read.error)).toMatch(/^The scraping run .5002. was not found \(404\)$/);
		const left = await runOk(ctx, { resource: 'result', operation: 'getMany', returnAll: true });
		expect(left.map((r) => r.scraping_run_id)).toEqual([5003, 5001]);
	});

	it('deleting twice: the second says the run may already be deleted, and sends one request', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		await runOk(ctx, { resource: 'scrapingRun', operation: 'delete', scrapingRunId: typed(5001) });
		ctx.sim.server.log.clear();
		const again = await ctx.run({ resource: 'scrapingRun', operation: 'delete', scrapingRunId: typed(5001) });
		expect(messageOf(again.error)).toBe('The scraping run "5001" was not found (404): it may already be deleted');
		expect(again.error?.description).toContain("'Scraping Run ID'");
		expect(again.error?.description).toContain('Nothing was deleted');
		expect(again.error?.httpCode).toBe('404');
		expect(ctx.requests()).toHaveLength(1);
	});

	it("another account's run is not deleted", async () => {
		ctx.sim.seedRuns(MARKETPLACE_OTHER_USER_TOKEN, 1);
		const result = await ctx.run({ resource: 'scrapingRun', operation: 'delete', scrapingRunId: typed(5001) });
		expect(result.error?.httpCode).toBe('404');
		expect(await runOk(ctx, { resource: 'scrapingRun', operation: 'get', scrapingRunId: typed(5001) }, { token: MARKETPLACE_OTHER_USER_TOKEN })).toHaveLength(1);
	});

	it('Continue On Fail: a missing run among good ones gives its own error item, paired with its input', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		const input = [{ run: 5001 }, { run: 4242 }, { run: 5003 }, { run: 'abc' }];
		const result = await ctx.run(
			{ resource: 'scrapingRun', operation: 'delete', scrapingRunId: { __rl: true, mode: 'id', value: '={{ $json.run }}' } },
			{ input, continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const json = jsonOf(result.items);
		expect(json[0]).toEqual({ deleted: true, id: 5001 });
		expect(messageOf(json[1].error as string, 1)).toBe('The scraping run "4242" was not found (404): it may already be deleted');
		expect(json[1].httpCode).toBe('404');
		expect(json[2]).toEqual({ deleted: true, id: 5003 });
		expect(messageOf(json[3].error as string, 3)).toMatch(invalid('Scraping Run ID'));
		expect(ctx.requests().map((r) => r.path)).toEqual(['/api/scraping-runs/5001', '/api/scraping-runs/4242', '/api/scraping-runs/5003']);
		const left = await runOk(ctx, { resource: 'result', operation: 'getMany', returnAll: true });
		expect(left.map((r) => r.scraping_run_id)).toEqual([5002]);
	});
});

describe('Result: Get', () => {
	it.each(LOCATOR_SHAPES)('%s: exactly that result, as the results list shows it', async (_shape, locator) => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		const listed = await runOk(ctx, { resource: 'result', operation: 'getMany', returnAll: true });
		ctx.sim.server.log.clear();
		const [result] = await runOk(ctx, { resource: 'result', operation: 'get', resultId: locator(90002) });
		expect(ctx.requests().map((r) => [r.route, r.method, r.path])).toEqual([[ROUTES.result, 'GET', '/api/results/90002']]);
		expect(result).toEqual(listed.find((r) => r.id === 90002));
	});

	it('Continue On Fail: good, missing and invalid ids, each item paired with its input', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 2);
		const input = [{ id: 90001 }, { id: 999_999 }, { id: 1.5 }, { id: 90002 }];
		const result = await ctx.run(
			{ resource: 'result', operation: 'get', resultId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			{ input, continueOnFail: true },
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const json = jsonOf(result.items);
		expect(json[0].id).toBe(90001);
		expect(messageOf(json[1].error as string, 1)).toMatch(/^The result .999999. was not found \(404\)$/);
		expect(messageOf(json[2].error as string, 2)).toMatch(invalid('Result ID'));
		expect(json[3].id).toBe(90002);
		// The invalid id was refused before any request.
		expect(ctx.requests().map((r) => r.path)).toEqual(['/api/results/90001', '/api/results/999999', '/api/results/90002']);
	});
});

describe('Result: Get Latest', () => {
	it.each(LOCATOR_SHAPES)('%s: the results of the newest run of that scraper, one item each', async (_shape, locator) => {
		const urls = ['https://www.portal.example/rent/a', 'https://www.portal.example/rent/b'];
		const created = await createFinished(portalLinks(['https://www.portal.example/rent/first']));
		await runOk(ctx, { resource: 'scraper', operation: 'run', scraperId: created.scraper_id, urls: urls.join('\n'), ...WAIT });
		ctx.sim.server.log.clear();
		const items = await runOk(ctx, { resource: 'result', operation: 'getLatest', scraperId: locator(created.scraper_id) });
		expect(ctx.requests().map((r) => [r.route, r.path])).toEqual([[ROUTES.latestResults, `/api/results/latest/${created.scraper_id as number}`]]);
		expect(items.map((i) => i.scraped_url)).toEqual(urls);
		expect(items.every((i) => i.scraper_id === created.scraper_id && i.status === 'succeeded' && Array.isArray(i.content))).toBe(true);
	});

	it('a scraper without runs: the message says so', async () => {
		const result = await ctx.run({ resource: 'result', operation: 'getLatest', scraperId: typed(777) });
		expect(messageOf(result.error)).toBe('The scraper "777" was not found, or has no scraping run (404)');
	});
});

describe('Result: Delete', () => {
	it.each(LOCATOR_SHAPES)('%s: deletes exactly that result and outputs {deleted, id}', async (_shape, locator) => {
		const urls = ['https://www.portal.example/rent/a', 'https://www.portal.example/rent/b'];
		const created = await createFinished(portalLinks(urls));
		const [first, second] = (await runOk(ctx, { resource: 'scrapingRun', operation: 'get', scrapingRunId: typed(created.scraping_run_id) }))[0].results as IDataObject[];
		ctx.sim.server.log.clear();
		const [out] = await runOk(ctx, { resource: 'result', operation: 'delete', resultId: locator(second.id) });
		expect(out).toEqual({ deleted: true, id: second.id });
		expect(ctx.requests().map((r) => [r.route, r.method, r.path])).toEqual([[ROUTES.deleteResult, 'DELETE', `/api/results/${second.id as number}`]]);
		const read = await ctx.run({ resource: 'result', operation: 'get', resultId: typed(second.id) });
		expect(messageOf(read.error)).toMatch(new RegExp(`^The result .${second.id as number}. was not found \\(404\\)$`));
		const [run] = await runOk(ctx, { resource: 'scrapingRun', operation: 'get', scrapingRunId: typed(created.scraping_run_id) });
		expect((run.results as IDataObject[]).map((r) => r.id)).toEqual([first.id]);
	});

	it('deleting twice: the second says the result may already be deleted', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		await runOk(ctx, { resource: 'result', operation: 'delete', resultId: typed(90001) });
		const again = await ctx.run({ resource: 'result', operation: 'delete', resultId: typed(90001) });
		expect(messageOf(again.error)).toBe('The result "90001" was not found (404): it may already be deleted');
		expect(again.error?.description).toContain("'Result ID'");
	});
});

describe('ids are checked before any request, naming the field', () => {
	const operations: Array<[string, IDataObject, string, string]> = [
		['Scraper > Get', { resource: 'scraper', operation: 'get' }, 'scraperId', 'Scraper ID'],
		['Scraping Run > Get', { resource: 'scrapingRun', operation: 'get' }, 'scrapingRunId', 'Scraping Run ID'],
		['Scraping Run > Get Latest', { resource: 'scrapingRun', operation: 'getLatest' }, 'scraperId', 'Scraper ID'],
		['Scraping Run > Delete', { resource: 'scrapingRun', operation: 'delete' }, 'scrapingRunId', 'Scraping Run ID'],
		['Result > Get', { resource: 'result', operation: 'get' }, 'resultId', 'Result ID'],
		['Result > Get Latest', { resource: 'result', operation: 'getLatest' }, 'scraperId', 'Scraper ID'],
		['Result > Delete', { resource: 'result', operation: 'delete' }, 'resultId', 'Result ID'],
	];
	it.each(operations)('%s', async (_name, parameters, field, label) => {
		// As an expression gives them: n8n itself refuses an empty picker, and the By ID mode's pattern, in the editor.
		for (const bad of ['0', 'abc', '1.5', '-3']) {
			const result = await ctx.run({ ...parameters, [field]: { __rl: true, mode: 'id', value: `={{ ${JSON.stringify(bad)} }}` } });
			expect(messageOf(result.error)).toMatch(invalid(label));
		}
		expect(ctx.requests()).toHaveLength(0);
	});
});

describe('answers declared as text/plain are read as the JSON they are', () => {
	afterEach(() => {
		ctx.sim.options.contentType = 'application/json';
	});

	it('every new operation', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		ctx.sim.options.contentType = 'text/plain';
		expect((await runOk(ctx, { resource: 'scraper', operation: 'get', scraperId: typed(101) }))[0].id).toBe(101);
		expect(await runOk(ctx, { resource: 'scraper', operation: 'getMany', returnAll: true })).toHaveLength(1);
		expect((await runOk(ctx, { resource: 'scrapingRun', operation: 'get', scrapingRunId: typed(5002) }))[0].id).toBe(5002);
		expect((await runOk(ctx, { resource: 'scrapingRun', operation: 'getLatest', scraperId: typed(101) }))[0].id).toBe(5003);
		expect((await runOk(ctx, { resource: 'result', operation: 'get', resultId: typed(90001) }))[0].id).toBe(90001);
		expect(await runOk(ctx, { resource: 'result', operation: 'getLatest', scraperId: typed(101) })).toHaveLength(1);
		expect(await runOk(ctx, { resource: 'result', operation: 'delete', resultId: typed(90001) })).toEqual([{ deleted: true, id: 90001 }]);
		expect(await runOk(ctx, { resource: 'scrapingRun', operation: 'delete', scrapingRunId: typed(5002) })).toEqual([{ deleted: true, id: 5002 }]);
		expect(ctx.requests().every((r) => r.status === 200)).toBe(true);
	});
});

describe('saved workflows keep their operation', () => {
	it("a Scraping Run node saved before Delete existed (operation left out as the default) still gets the HTML", async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		const items = await runOk(ctx, { resource: 'scrapingRun', scrapingRunId: typed(5001) });
		expect(items[0].html).toEqual(expect.stringMatching(/^<!DOCTYPE html>/));
		expect(ctx.requests().map((r) => r.route)).toEqual([ROUTES.scrapingRunHtml]);
	});
});

describe('pickers', () => {
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
