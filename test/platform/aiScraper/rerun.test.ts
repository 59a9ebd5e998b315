import type { IDataObject } from 'n8n-workflow';

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

describe("AI Scraper > Rerun: the vendor's rerun options (public facts, \"AI rerun options\")", () => {
	const rerunOf = (scraperId: IDataObject[string], extra: IDataObject) => ({ resource: 'aiScraper', operation: 'rerun', scraperId, url: 'https://shop.example.com/p', simplify: false, ...extra });

	it('every option sent exactly as the vendor sends it, in its order, and only when added', async () => {
		const created = await createScraper(ctx, 'listing');
		ctx.sim.server.log.clear();
		const options = { maxRetry: 0, proxyCountry: 'de', bypassProxy: false, html: false, markdown: true, renderJavascript: true, returnCookie: true, screenshot: true, useHomePage: false, waitForSelector: '.price' };
		const result = await ctx.run(rerunOf(created.scraperId, { options, listingOptions: { maxPages: 3, timeout: 120, stream: false } }));
		expect(result.error).toBeUndefined();
		const body = ctx.sim.server.log.last(ROUTES.rerun)?.body as Record<string, unknown>;
		expect(body).toEqual({ scraperId: created.scraperId, url: 'https://shop.example.com/p', ...options, returnCookie: undefined, returnCookies: true, maxPages: 3, timeout: 120, stream: false });
		expect(Object.keys(body)).toEqual(['scraperId', 'url', 'maxRetry', 'proxyCountry', 'bypassProxy', 'html', 'markdown', 'renderJavascript', 'returnCookies', 'screenshot', 'useHomePage', 'waitForSelector', 'maxPages', 'timeout', 'stream']);
		// What the options asked for is in the result: no HTML, the Markdown, a screenshot and the cookies.
		expect(result.items[0].json).toMatchObject({ htmlContent: '', markdown: expect.stringMatching(/^# /), screenshot: expect.any(String), cookies: [expect.objectContaining({ name: 'session' })] });
	});

	it.each([
		['Max Retries', { options: { maxRetry: 11 } }, /^Invalid 'Max Retries': 11 is out of range from 0 to 10/],
		['Proxy Country', { options: { proxyCountry: 'deu' } }, /^Invalid 'Proxy Country': "deu" is not a two-letter country code/],
		['Wait for Selector', { options: { waitForSelector: 'x'.repeat(1001) } }, /^Invalid 'Wait for Selector': it is 1001 characters long, the limit is 1000/],
		['Render JavaScript', { options: { renderJavascript: '={{ "yes" }}' } }, /^Invalid 'Render JavaScript': it must be true or false/],
		['Timeout', { listingOptions: { timeout: 601 } }, /^Invalid 'Timeout \(Seconds\)': 601 is out of range from 1 to 600/],
		['Max Pages of both agents', { listingOptions: { maxPages: 3 }, mapOptions: { maxPages: 4 } }, /^Invalid 'Map Agent Options > Max Pages': it is set with 'Listing Agent Options > Max Pages'/],
	])('%s: refused naming the field, nothing sent', async (_name, extra, message) => {
		ctx.sim.server.log.clear();
		const result = await ctx.run(rerunOf(DEMO_AI_SCRAPER_IDS.general, extra));
		expect(result.error?.message).toMatch(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('Max Depth 0 (the URL alone) is taken by the node and the service alike', async () => {
		const created = await createScraper(ctx, 'map');
		const result = await ctx.run(rerunOf(created.scraperId, { mapOptions: { maxDepth: 0 } }));
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.rerun)?.body).toMatchObject({ maxDepth: 0 });
	});

	it('a Timeout beyond five minutes gets the answer that long plus a minute', async () => {
		const created = await createScraper(ctx, 'listing');
		ctx.sim.server.faults.add({ kind: 'slow', delayMs: 1_500, times: 1, routes: [ROUTES.rerun] });
		const result = await ctx.run(rerunOf(created.scraperId, { listingOptions: { timeout: 600 } }));
		expect(result.error).toBeUndefined();
	});
});
