import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { ROUTES, WAIT, createFinished as finish, runOk, useMarketplace } from '../helpers';
import { typed } from '../locators';
import * as start from '../parameters';

/** Answers the service declares as text/plain, read as the JSON they hold, on every operation. */

const ctx = useMarketplace();
const social = { ...start.social, expectedData: 4 };
const getMany = { resource: 'result', operation: 'getMany' };
const getHtml = { resource: 'scrapingRun', operation: 'getHtml' };
const createFinished = () => finish(ctx, social);

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
