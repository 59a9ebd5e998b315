import type { IDataObject } from 'n8n-workflow';

import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { ROUTES, createFinished as finish, portalLinks, runOk, useMarketplace } from '../helpers';
import { LOCATOR_SHAPES, messageOf, typed } from '../locators';

const ctx = useMarketplace();
const createFinished = (parameters: IDataObject) => finish(ctx, parameters);

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
