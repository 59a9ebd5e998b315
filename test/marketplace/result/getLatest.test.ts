import type { IDataObject } from 'n8n-workflow';

import { ROUTES, WAIT, createFinished as finish, portalLinks, runOk, useMarketplace } from '../helpers';
import { LOCATOR_SHAPES, messageOf, typed } from '../locators';

const ctx = useMarketplace();
const createFinished = (parameters: IDataObject) => finish(ctx, parameters);

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
