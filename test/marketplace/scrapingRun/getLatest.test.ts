import type { IDataObject } from 'n8n-workflow';

import { NO_WAIT, ROUTES, createFinished as finish, runOk, useMarketplace } from '../helpers';
import { LOCATOR_SHAPES, messageOf, typed } from '../locators';
import * as start from '../parameters';

const ctx = useMarketplace();
const social = { ...start.social, expectedData: 3 };
const createFinished = (parameters: IDataObject = social) => finish(ctx, parameters);

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
