import type { IDataObject } from 'n8n-workflow';

import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { BEARER, NO_WAIT, ROUTES, createFinished as finish, portalLinks, runOk, useMarketplace } from '../helpers';
import { typed } from '../locators';
import * as start from '../parameters';

const ctx = useMarketplace();
const social = { ...start.social, expectedData: 4 };
const getHtml = { resource: 'scrapingRun', operation: 'getHtml' };
const createFinished = (parameters: IDataObject = social) => finish(ctx, parameters);

describe('Scraping Run: Get HTML', () => {
	it('as text: one item per result with its page HTML', async () => {
		const urls = ['https://www.portal.example/buy/a', 'https://www.portal.example/buy/b'];
		const created = await createFinished(portalLinks(urls));
		const items = await runOk(ctx, { ...getHtml, scrapingRunId: created.scraping_run_id });
		const [request] = ctx.requests();
		expect(request.route).toBe(ROUTES.scrapingRunHtml);
		expect(request.path).toBe(`/api/scraping-runs/html/${created.scraping_run_id as number}`);
		expect(request.headers.authorization).toBe(BEARER);
		expect(items.map((i) => i.scraped_url)).toEqual(urls);
		for (const item of items) {
			expect(item).toMatchObject({ scraping_run_id: created.scraping_run_id, status: 'succeeded', run_status: 'succeeded' });
			expect(item.html).toMatch(/^<!DOCTYPE html>/);
			expect(item.html).toContain(`<link rel="canonical" href="${item.scraped_url as string}">`);
			expect(item).not.toHaveProperty('content');
		}
	});

	it('as a binary .html file per result: text/html, the right size', async () => {
		const created = await createFinished();
		const [text] = await runOk(ctx, { ...getHtml, scrapingRunId: created.scraping_run_id });
		const result = await ctx.run({ ...getHtml, scrapingRunId: created.scraping_run_id, htmlOutput: 'binary', binaryPropertyName: 'page' });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		const file = item.binary?.page;
		expect(file).toBeDefined();
		expect(file?.mimeType).toBe('text/html');
		expect(file?.fileExtension).toBe('html');
		expect(file?.fileName).toBe(`default-${created.scraping_run_id as number}-${text.id as number}.html`);
		const bytes = Buffer.from(file?.data ?? '', 'base64');
		expect(bytes.length).toBe(Buffer.byteLength(text.html as string, 'utf8'));
		expect(bytes.toString('utf8')).toBe(text.html);
		expect(item.json).not.toHaveProperty('html');
		expect(item.json.fileName).toBe(file?.fileName);
	});

	it('a result that is not done yet has no HTML and says so', async () => {
		// Queued for an hour: the read after the start finds it queued however busy the machine is.
		const { queuedMs, runMs } = ctx.sim.options;
		ctx.sim.options.queuedMs = 3_600_000;
		ctx.sim.options.runMs = 3_600_000;
		try {
			const [queued] = await runOk(ctx, { ...social, ...NO_WAIT });
			const runId = queued.scraping_run_id;
			const result = await ctx.run({ ...getHtml, scrapingRunId: runId, htmlOutput: 'binary' });
			expect(result.items).toHaveLength(1);
			expect(result.items[0].binary).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ html: null, status: 'queued' });
			expect(result.items[0].json.message).toMatch(/No HTML for this result: it is queued/);
		} finally {
			Object.assign(ctx.sim.options, { queuedMs, runMs });
		}
	});

	it('an unknown run is a 404 naming the ID', async () => {
		const result = await ctx.run({ ...getHtml, scrapingRunId: 4242 });
		expect(result.error?.message).toBe('The scraping run "4242" was not found (404) [item 0]');
	});

	it('validation: the ID must be a positive whole number (nothing is sent)', async () => {
		const result = await ctx.run({ ...getHtml, scrapingRunId: '0' });
		expect(result.error?.message).toContain("Invalid 'Scraping Run ID': 0 is out of range of at least 1");
		expect(ctx.requests()).toHaveLength(0);
	});
});

describe('saved workflows keep their operation', () => {
	it("a Scraping Run node saved before Delete existed (operation left out as the default) still gets the HTML", async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		const items = await runOk(ctx, { resource: 'scrapingRun', scrapingRunId: typed(5001) });
		expect(items[0].html).toEqual(expect.stringMatching(/^<!DOCTYPE html>/));
		expect(ctx.requests().map((r) => r.route)).toEqual([ROUTES.scrapingRunHtml]);
	});
});
