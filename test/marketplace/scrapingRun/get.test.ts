import type { IDataObject } from 'n8n-workflow';

import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { ROUTES, runOk, seedScrapers as seed, useMarketplace } from '../helpers';
import { LOCATOR_SHAPES, messageOf, typed } from '../locators';

const ctx = useMarketplace();
const seedScrapers = (count: number, token?: string) => seed(ctx, count, token);

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
