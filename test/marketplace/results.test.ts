import type { IDataObject } from 'n8n-workflow';

import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../simulator/marketplace';
import { BEARER, NO_WAIT, ROUTES, WAIT, jsonOf, runOk, useMarketplace } from './helpers';

const ctx = useMarketplace();

const social = { resource: 'lead', operation: 'createAndRunSocial', name: 'CRM talk', keywords: 'crm software', expectedData: 4 };
const portalLinks = (urls: string[]) => ({
	resource: 'realEstatePortal',
	operation: 'createAndRun',
	name: 'Listings',
	searchBy: 'links',
	urls: urls.join('\n'),
});
const getMany = { resource: 'result', operation: 'getMany' };
const getHtml = { resource: 'scrapingRun', operation: 'getHtml' };

/** Creates a social-lead scraper and waits for its first run; returns the run item. */
async function createFinished(parameters: IDataObject = social): Promise<IDataObject> {
	const [run] = await runOk(ctx, { ...parameters, ...WAIT });
	expect(run.status).toBe('succeeded');
	ctx.sim.server.log.clear();
	return run;
}

describe('Scraper: Run', () => {
	it('runs the scraper on its own URLs: no body is sent, and Wait for Completion outputs the new run', async () => {
		const created = await createFinished();
		const [out] = await runOk(ctx, { resource: 'scraper', operation: 'run', scraperId: created.scraper_id, ...WAIT });
		const [run, ...polls] = ctx.requests();
		expect(run.route).toBe(ROUTES.runScraper);
		expect(run.method).toBe('POST');
		expect(run.path).toBe(`/api/scrapers/${created.scraper_id as number}/run`);
		expect(run.headers.authorization).toBe(BEARER);
		expect(run.body).toBeUndefined();
		expect(polls.every((p) => p.route === ROUTES.scrapingRun)).toBe(true);
		expect(out).toMatchObject({ scraper_id: created.scraper_id, status: 'succeeded', completed: true, results_total: 1 });
		expect(out.scraping_run_id).not.toBe(created.scraping_run_id);
		expect(((out.results as IDataObject[])[0].content as IDataObject[]).length).toBe(4);
	});

	it('with URLs: sends them instead of the defaults, one result per URL, split into records', async () => {
		const created = await createFinished(portalLinks(['https://www.portal.example/buy/default']));
		const urls = ['https://www.portal.example/buy/a', 'https://www.portal.example/buy/b'];
		const result = await ctx.run({ resource: 'scraper', operation: 'run', scraperId: created.scraper_id, urls: urls.join(', '), ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		expect(ctx.requests()[0].body).toEqual({ urls });
		const listings = jsonOf(result.items);
		expect(new Set(listings.map((l) => l.scraped_url))).toEqual(new Set(urls));
		expect(listings.every((l) => typeof l.listing_id === 'string' && l.scraper_id === created.scraper_id)).toBe(true);
	});

	it('without waiting outputs one item per queued result', async () => {
		const created = await createFinished(portalLinks(['https://www.portal.example/buy/x']));
		const urls = ['https://www.portal.example/buy/1', 'https://www.portal.example/buy/2', 'https://www.portal.example/buy/3'];
		const items = await runOk(ctx, { resource: 'scraper', operation: 'run', scraperId: created.scraper_id, urls: urls.join('\n'), ...NO_WAIT });
		expect(items.map((i) => i.scraped_url)).toEqual(urls);
		expect(items.every((i) => i.status === 'queued' && i.content === null)).toBe(true);
		expect(ctx.requests()).toHaveLength(1);
	});

	it('an unknown scraper, or one of another account, is a 404 naming the ID', async () => {
		const result = await ctx.run({ resource: 'scraper', operation: 'run', scraperId: 999, ...NO_WAIT });
		expect(result.error?.message).toBe('The scraper "999" was not found (404) [item 0]');
		expect(result.error?.description).toContain('Scraper Marketplace API');

		const created = await createFinished();
		const other = await ctx.run({ resource: 'scraper', operation: 'run', scraperId: created.scraper_id, ...NO_WAIT }, { token: MARKETPLACE_OTHER_USER_TOKEN });
		expect(other.error?.httpCode).toBe('404');
		// A run is not repeated after a 404 either.
		expect(ctx.requests()).toHaveLength(1);
	});

	it.each([
		// As an expression gives it: n8n itself refuses an empty (or zero) picker before the node runs.
		['scraper id 0', { scraperId: '0' }, "Invalid 'Scraper ID': 0 is out of range of at least 1"],
		['scraper id 0 in a version 1 number field', { scraperId: 0, typeVersion: 1 }, "Invalid 'Scraper ID': 0 is out of range of at least 1"],
		['scraper id fraction', { scraperId: 1.5 }, "Invalid 'Scraper ID': it must be a whole number"],
		['URL syntax', { scraperId: 101, urls: 'https://ok.example.com/\nnot-a-url' }, 'Invalid \'URLs (entry 2)\': "not-a-url" is not a valid URL'],
	])('validation: %s (nothing is sent)', async (_name, parameters, message) => {
		const { typeVersion, ...rest } = parameters as typeof parameters & { typeVersion?: number };
		const result = await ctx.run({ resource: 'scraper', operation: 'run', ...rest }, { typeVersion });
		expect(result.error?.message).toContain(message);
		expect(ctx.requests()).toHaveLength(0);
	});
});

describe('Result: Get Many', () => {
	it('Return All reads every page: one request per page, newest first', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 25);
		const items = await runOk(ctx, { ...getMany, returnAll: true, options: { perPage: 10 } });
		const requests = ctx.requests();
		expect(requests.map((r) => r.query)).toEqual([
			{ page: '1', per_page: '10' },
			{ page: '2', per_page: '10' },
			{ page: '3', per_page: '10' },
		]);
		expect(requests.every((r) => r.route === ROUTES.listResults && r.method === 'GET' && r.headers.authorization === BEARER)).toBe(true);
		expect(items).toHaveLength(25);
		expect(new Set(items.map((i) => i.id)).size).toBe(25);
		const created = items.map((i) => Date.parse(i.created_at as string));
		expect([...created].sort((a, b) => b - a)).toEqual(created);
		expect(items.every((i) => i.status === 'succeeded' && Array.isArray(i.content))).toBe(true);
	});

	it('Return All stops at an empty page when the last full page ends the list', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 20);
		const items = await runOk(ctx, { ...getMany, returnAll: true, options: { perPage: 10 } });
		expect(items).toHaveLength(20);
		expect(ctx.requests()).toHaveLength(3);
	});

	it('Limit asks for no more than needed', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 30);
		const five = await runOk(ctx, { ...getMany, limit: 5 });
		expect(five).toHaveLength(5);
		expect(ctx.requests().map((r) => r.query)).toEqual([{ page: '1', per_page: '5' }]);

		ctx.sim.server.log.clear();
		const twelve = await runOk(ctx, { ...getMany, limit: 12, options: { perPage: 5 } });
		expect(twelve).toHaveLength(12);
		expect(ctx.requests().map((r) => r.query.page)).toEqual(['1', '2', '3']);
		expect(twelve.map((i) => i.id)).toEqual(
			(await runOk(ctx, { ...getMany, limit: 12 })).map((i) => i.id),
		);
	});

	it('lists only the results of the token\'s account', async () => {
		ctx.sim.seedRuns(MARKETPLACE_OTHER_USER_TOKEN, 3);
		expect(await runOk(ctx, { ...getMany, returnAll: true })).toHaveLength(0);
	});

	it('Split Into Items outputs one item per extracted record, with the result IDs', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 2);
		const results = await runOk(ctx, { ...getMany, returnAll: true });
		const records = await runOk(ctx, { ...getMany, returnAll: true, options: { split: true } });
		const expected = results.reduce((n, r) => n + (r.content as unknown[]).length, 0);
		expect(records).toHaveLength(expected);
		expect(records.every((r) => typeof r.result_id === 'number' && typeof r.email === 'string')).toBe(true);
	});

	it.each([
		['limit 0', { limit: 0 }, "Invalid 'Limit': 0 is out of range of at least 1"],
		['page size 101', { options: { perPage: 101 } }, "Invalid 'Page Size': 101 is out of range from 1 to 100"],
		['page size 0', { options: { perPage: 0 } }, "Invalid 'Page Size': 0 is out of range from 1 to 100"],
	])('validation: %s (nothing is sent)', async (_name, parameters, message) => {
		const result = await ctx.run({ ...getMany, ...parameters });
		expect(result.error?.message).toContain(message);
		expect(ctx.requests()).toHaveLength(0);
	});
});

describe('Scraping Run: Get HTML', () => {
	it('as text: one item per result with its page HTML', async () => {
		const urls = ['https://www.portal.example/buy/a', 'https://www.portal.example/buy/b'];
		const created = await createFinished(portalLinks(urls));
		const items = await runOk(ctx, { ...getHtml, scrapingRunId: created.scraping_run_id });
		const [request] = ctx.requests();
		expect(request.route).toBe(ROUTES.scrapingRunHtml);
		expect(request.path).toBe(`/api/scraping-runs/html/${created.scraping_run_id as number}`);
		expect(request.headers.authorization).toBe(BEARER);
		expect(items.map((i) => i.scraped_url)).toEqual(urls);
		for (const item of items) {
			expect(item).toMatchObject({ scraping_run_id: created.scraping_run_id, status: 'succeeded', run_status: 'succeeded' });
			expect(item.html).toMatch(/^<!DOCTYPE html>/);
			expect(item.html).toContain(`<link rel="canonical" href="${item.scraped_url as string}">`);
			expect(item).not.toHaveProperty('content');
		}
	});

	it('as a binary .html file per result: text/html, the right size', async () => {
		const created = await createFinished();
		const [text] = await runOk(ctx, { ...getHtml, scrapingRunId: created.scraping_run_id });
		const result = await ctx.run({ ...getHtml, scrapingRunId: created.scraping_run_id, htmlOutput: 'binary', binaryPropertyName: 'page' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		const file = item.binary?.page;
		expect(file).toBeDefined();
		expect(file?.mimeType).toBe('text/html');
		expect(file?.fileExtension).toBe('html');
		expect(file?.fileName).toBe(`default-${created.scraping_run_id as number}-${text.id as number}.html`);
		const bytes = Buffer.from(file?.data ?? '', 'base64');
		expect(bytes.length).toBe(Buffer.byteLength(text.html as string, 'utf8'));
		expect(bytes.toString('utf8')).toBe(text.html);
		expect(item.json).not.toHaveProperty('html');
		expect(item.json.fileName).toBe(file?.fileName);
	});

	it('a result that is not done yet has no HTML and says so', async () => {
		ctx.sim.options.runMs = 3_600_000;
		try {
			const [queued] = await runOk(ctx, { ...social, ...NO_WAIT });
			const runId = queued.scraping_run_id;
			const result = await ctx.run({ ...getHtml, scrapingRunId: runId, htmlOutput: 'binary' });
			expect(result.items).toHaveLength(1);
			expect(result.items[0].binary).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ html: null, status: 'queued' });
			expect(result.items[0].json.message).toMatch(/No HTML for this result: it is queued/);
		} finally {
			ctx.sim.options.runMs = 150;
		}
	});

	it('an unknown run is a 404 naming the ID', async () => {
		const result = await ctx.run({ ...getHtml, scrapingRunId: 4242 });
		expect(result.error?.message).toBe('The scraping run "4242" was not found (404) [item 0]');
	});

	it('validation: the ID must be a positive whole number (nothing is sent)', async () => {
		const result = await ctx.run({ ...getHtml, scrapingRunId: '0' });
		expect(result.error?.message).toContain("Invalid 'Scraping Run ID': 0 is out of range of at least 1");
		expect(ctx.requests()).toHaveLength(0);
	});
});

describe('answers declared as text/plain (as the vendor\'s 2024 OpenAPI declares them) are read as the JSON they are', () => {
	afterEach(() => {
		ctx.sim.options.contentType = 'application/json';
	});

	it('create and wait, run, results listing and HTML all work, with the same output as JSON answers', async () => {
		const created = await createFinished();
		const asJson = await runOk(ctx, { ...getHtml, scrapingRunId: created.scraping_run_id });
		ctx.sim.options.contentType = 'text/plain';
		const [run] = await runOk(ctx, { ...social, ...WAIT });
		expect(run).toMatchObject({ status: 'succeeded', completed: true });
		const [rerun] = await runOk(ctx, { resource: 'scraper', operation: 'run', scraperId: created.scraper_id, ...WAIT });
		expect(rerun).toMatchObject({ scraper_id: created.scraper_id, status: 'succeeded' });
		const listed = await runOk(ctx, { ...getMany, returnAll: true });
		expect(listed.length).toBeGreaterThanOrEqual(3);
		const asText = await runOk(ctx, { ...getHtml, scrapingRunId: created.scraping_run_id });
		expect(asText).toEqual(asJson);
		const served = ctx.requests().map((r) => r.route);
		expect(served).toEqual(expect.arrayContaining([ROUTES.socialLeadsCreateAndRun, ROUTES.runScraper, ROUTES.scrapingRun, ROUTES.listResults, ROUTES.scrapingRunHtml]));
	});
});
