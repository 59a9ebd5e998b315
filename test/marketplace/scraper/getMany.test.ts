import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../../simulator/marketplace';
import { BEARER, ROUTES, runOk, seedScrapers as seed, useMarketplace } from '../helpers';
import { invalid, messageOf } from '../locators';

const ctx = useMarketplace();
const seedScrapers = (count: number, token?: string) => seed(ctx, count, token);

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
