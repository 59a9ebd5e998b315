import { DEMO_AI_SCRAPER_IDS } from '../../simulator/platform';
import { createScraper, jsonOf, ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();

describe('AI Scraper > Rerun', () => {
	it('sends scraperId and url with accept: application/json, nothing unset', async () => {
		const created = await createScraper(ctx);
		ctx.sim.server.log.clear();
		const result = await ctx.run({
			resource: 'aiScraper',
			operation: 'rerun',
			scraperId: created.scraperId,
			url: 'https://shop.example.com/products?page=2',
			simplify: false,
		});
		expect(result.error).toBeUndefined();
		const request = ctx.sim.server.log.last(ROUTES.rerun)!;
		expect(request.headers.accept).toBe('application/json');
		expect(request.body).toEqual({ scraperId: created.scraperId, url: 'https://shop.example.com/products?page=2' });
		const record = result.items[0].json;
		expect(record.type).toBe('Rerun-AI');
		expect(record.htmlContent).toEqual(expect.any(String));
	});

	it('sends every map option the user set, with the interface names, and honours them', async () => {
		const created = await createScraper(ctx, 'map');
		ctx.sim.server.log.clear();
		const result = await ctx.run({
			resource: 'aiScraper',
			operation: 'rerun',
			scraperId: created.scraperId,
			url: 'https://docs.example.com/',
			mapOptions: { maxDepth: 3, maxPages: 5, resultLimit: 4, includePatterns: 'docs', excludePatterns: '/tag/' },
			options: { split: true },
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.rerun)?.body).toEqual({
			scraperId: created.scraperId,
			url: 'https://docs.example.com/',
			maxDepth: 3,
			maxPages: 5,
			limit: 4,
			includePatterns: 'docs',
			excludePatterns: '/tag/',
		});
		// Split Into Items: one item per found page, each carrying the result id.
		expect(result.items.length).toBeGreaterThan(0);
		expect(result.items.length).toBeLessThanOrEqual(4);
		for (const item of jsonOf(result.items)) expect(item.resultId).toEqual(expect.any(String));
	});
});

describe('AI Scraper > Rerun answering 201', () => {
	afterEach(() => {
		ctx.sim.options.rerunStatus = 200;
	});

	it('is a success with the same output', async () => {
		ctx.sim.options.rerunStatus = 201;
		const result = await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/a' });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.rerun)?.status).toBe(201);
		expect(result.items[0].json).toMatchObject({ type: 'Rerun-AI', status: 'Finished' });
	});
});
