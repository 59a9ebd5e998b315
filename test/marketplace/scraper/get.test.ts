import type { IDataObject } from 'n8n-workflow';

import { MARKETPLACE_OTHER_USER_TOKEN } from '../../simulator/marketplace';
import { BEARER, ROUTES, createFinished as finish, portalLinks, runOk, seedScrapers as seed, useMarketplace } from '../helpers';
import { LOCATOR_SHAPES, messageOf, typed } from '../locators';

const ctx = useMarketplace();
const createFinished = (parameters: IDataObject) => finish(ctx, parameters);
const seedScrapers = (count: number, token?: string) => seed(ctx, count, token);

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
