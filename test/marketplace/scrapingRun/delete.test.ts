import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../../simulator/marketplace';
import { BEARER, ROUTES, jsonOf, runOk, useMarketplace } from '../helpers';
import { LOCATOR_SHAPES, invalid, messageOf, typed } from '../locators';

const ctx = useMarketplace();

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
