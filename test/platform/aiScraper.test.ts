import { PLATFORM_DEMO_TOKEN } from '../simulator/platform';
import { jsonOf, ROUTES, usePlatform } from './helpers';

const ctx = usePlatform();

async function createScraper(agent = 'general') {
	const result = await ctx.run({
		resource: 'aiScraper',
		operation: 'createAndRun',
		url: 'https://shop.example.com/products',
		prompt: 'Extract every product with name and price',
		agent,
		// The whole record: what the service answered.
		simplify: false,
	});
	expect(result.error).toBeUndefined();
	return result.items[0].json;
}

describe('AI Scraper > Create and Run', () => {
	it('sends url, prompt (also as message, the same text) and agent only, and outputs the AI result with example output', async () => {
		const record = await createScraper();
		const requests = ctx.sim.server.log.for(ROUTES.createAndRun);
		expect(requests).toHaveLength(1);
		expect(requests[0].headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(requests[0].body).toEqual({
			url: 'https://shop.example.com/products',
			prompt: 'Extract every product with name and price',
			message: 'Extract every product with name and price',
			agent: 'general',
		});
		expect(record.type).toBe('AI');
		expect(typeof record.scraperId).toBe('string');
		expect(typeof record.runtime).toBe('string');
		expect(record.curl).toEqual(expect.any(String));
		expect(record.data).toEqual(expect.any(Object));
		expect(ctx.sim.getRecord(record.id as string)).toBeDefined();
	});

	it('sends the proxy country only when set', async () => {
		const result = await ctx.run({
			resource: 'aiScraper',
			operation: 'createAndRun',
			url: 'https://shop.example.com/',
			prompt: 'Titles',
			agent: 'listing',
			additionalFields: { proxyCountry: 'de' },
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.createAndRun)?.body).toEqual({
			url: 'https://shop.example.com/',
			prompt: 'Titles',
			message: 'Titles',
			agent: 'listing',
			proxyCountry: 'de',
		});
	});

	it('Simplify (on by default) keeps at most ten fields, the most used first; off, the whole record', async () => {
		const parameters = { resource: 'aiScraper', operation: 'createAndRun', url: 'https://shop.example.com/', prompt: 'Titles' };
		const simplified = (await ctx.run(parameters)).items[0].json;
		expect(Object.keys(simplified)).toEqual(['id', 'scraperId', 'url', 'status', 'type', 'data', 'error', 'tokenUsage', 'runtime', 'createdAt'].filter((k) => k in simplified));
		expect(Object.keys(simplified).length).toBeLessThanOrEqual(10);
		expect(simplified).toMatchObject({ type: 'AI', scraperId: expect.any(String), data: expect.any(Object) });
		const raw = (await ctx.run({ ...parameters, simplify: false })).items[0].json;
		expect(raw).toMatchObject({ htmlPath: expect.any(String), curl: expect.any(String) });
		expect(Object.keys(raw).length).toBeGreaterThan(10);
	});

	it('version 2 keeps its Simplify under Output: off by default, on it drops file paths and audit fields', async () => {
		const parameters = { resource: 'aiScraper', operation: 'createAndRun', url: 'https://shop.example.com/', prompt: 'Titles' };
		const off = (await ctx.run(parameters, { typeVersion: 2 })).items[0].json;
		expect(off).toHaveProperty('htmlPath');
		const record = (await ctx.run({ ...parameters, output: { simplify: true } }, { typeVersion: 2 })).items[0].json;
		for (const field of ['htmlPath', 'recordingPath', 'dataPath', 'createdById', 'updatedById', 'deletedAt', 'deletedById']) {
			expect(record).not.toHaveProperty(field);
		}
		expect(record).toHaveProperty('curl');
	});
});

describe('AI Scraper > Rerun', () => {
	it('sends scraperId and url with accept: application/json, nothing unset', async () => {
		const created = await createScraper();
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
		const created = await createScraper('map');
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
