import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { NO_WAIT, ROUTES, WAIT, jsonOf, runOk, useMarketplace, waitWith } from '../helpers';
import { portal, social } from '../parameters';

/** Wait for Completion of the operations that start scraping runs (actions/common.ts, runs/track.ts). */

const ctx = useMarketplace();

describe('Wait for Completion', () => {
	it('to failed: the run item says failed; One Item per Record gives a status item for the failed result', async () => {
		const [run] = await runOk(ctx, { ...social, name: 'sim-fail leads', expectedData: 3, ...WAIT });
		expect(run).toMatchObject({ status: 'failed', completed: true, results_total: 1, results_succeeded: 0, results_failed: 1 });
		expect((run.results as IDataObject[])[0]).toMatchObject({ status: 'failed', content: null });

		const records = await runOk(ctx, { ...social, name: 'sim-fail leads', expectedData: 3, ...WAIT, runOutput: 'records' });
		expect(records).toHaveLength(1);
		expect(records[0]).toMatchObject({ status: 'failed', scraped_url: 'Default' });
		expect(records[0].message).toMatch(/could not scrape this query/);
	});

	it('a run with one failed and one succeeded result: failed overall, the good records still output', async () => {
		const urls = ['https://www.portal.example/buy/a', 'https://www.portal.example/buy/sim-fail'];
		const result = await ctx.run({ ...portal, searchBy: 'links', urls: urls.join('\n'), ...WAIT, runOutput: 'records' });
		const items = jsonOf(result.items);
		const failed = items.filter((item) => item.status === 'failed');
		expect(failed).toHaveLength(1);
		expect(failed[0].scraped_url).toBe(urls[1]);
		const listings = items.filter((item) => item.listing_id !== undefined);
		expect(listings.length).toBeGreaterThan(0);
		expect(listings.every((item) => item.scraped_url === urls[0])).toBe(true);
	});

	it('on time-out outputs the latest state with a clear status and does not hang', async () => {
		ctx.sim.options.runMs = 3_600_000;
		try {
			const started = Date.now();
			const [out] = await runOk(ctx, { ...social, expectedData: 3, ...waitWith({ maxWaitSeconds: 1 }) });
			expect(Date.now() - started).toBeLessThan(5_000);
			expect(out).toMatchObject({ status: 'running', completed: false, waitTimedOut: true });
			expect(out.waitMessage).toMatch(/^The run is still running after 1 s: 0 of 1 results done/);
			expect((out.results as IDataObject[])[0]).toMatchObject({ status: 'running', content: null });
			expect(ctx.requests(ROUTES.scrapingRun)).toHaveLength(1);

			const records = await runOk(ctx, { ...social, expectedData: 3, ...waitWith({ maxWaitSeconds: 1 }), runOutput: 'records' });
			expect(records).toHaveLength(1);
			expect(records[0]).toMatchObject({ status: 'running' });
			expect(records[0].message).toMatch(/^Still running after 1 s/);
		} finally {
			ctx.sim.options.runMs = 150;
		}
	});

	it('finishes when the simulated clock moves on, without real waiting for the run', async () => {
		ctx.sim.options.runMs = 3_600_000;
		try {
			const pending = ctx.run({ ...social, expectedData: 2, ...waitWith({ maxWaitSeconds: 10 }) });
			// Once the run exists, an hour of simulated time passes before the node's first read (1 s later).
			while (ctx.requests(ROUTES.socialLeadsCreateAndRun)[0]?.status === undefined) await sleep(10);
			ctx.sim.clock.advance(3_600_000);
			const result = await pending;
			expect(jsonOf(result.items)[0]).toMatchObject({ status: 'succeeded', completed: true });
			expect(ctx.requests(ROUTES.scrapingRun)).toHaveLength(1);
		} finally {
			ctx.sim.options.runMs = 150;
		}
	});

	it('several input items wait together and keep their order and pairing', async () => {
		const input = [{ kw: 'alpha' }, { kw: 'beta' }, { kw: 'gamma' }];
		const result = await ctx.run({ ...social, keywords: '={{ $json.kw }}', expectedData: 2, ...WAIT }, { input });
		expect(result.error).toBeUndefined();
		// All three runs were started before the first poll: the items waited together, not one after another.
		expect(ctx.requests().slice(0, 3).map((r) => r.route)).toEqual(Array(3).fill(ROUTES.socialLeadsCreateAndRun));
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		expect(jsonOf(result.items).map((j) => ((j.results as IDataObject[])[0].content as IDataObject[])[0].keyword)).toEqual(['alpha', 'beta', 'gamma']);
		expect(ctx.requests(ROUTES.socialLeadsCreateAndRun)).toHaveLength(3);
	});

	it('without waiting sends no read at all', async () => {
		await runOk(ctx, { ...social, expectedData: 2, ...NO_WAIT });
		expect(ctx.requests()).toHaveLength(1);
	});

	it('create and run is never repeated after a server error or a dropped connection', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 500, routes: [ROUTES.socialLeadsCreateAndRun], times: 1 });
		const failed = await ctx.run({ ...social, expectedData: 2, ...NO_WAIT });
		expect(failed.error?.message).toBe('Scraper Marketplace answered 500 (An unexpected error occurred): the scraper "CRM talk" and its first run may have been created [item 0]');
		expect(failed.error?.description).toMatch(/Look for it with Scraper > Get Many \(newest first\), then Scraping Run > Get Latest before running the node again/);
		expect(ctx.requests()).toHaveLength(1);

		ctx.sim.server.log.clear();
		ctx.sim.server.faults.add({ kind: 'reset', routes: [ROUTES.socialLeadsCreateAndRun], times: 1 });
		const reset = await ctx.run({ ...social, expectedData: 2, ...NO_WAIT });
		expect(reset.error?.message).toMatch(/^The connection to Scraper Marketplace ended before its answer \(.*\): the scraper "CRM talk" and its first run may have been created \[item 0\]$/);
		expect(reset.error?.description).toMatch(/^The node did not send the request again, so nothing runs twice/);
		expect(ctx.requests()).toHaveLength(1);
	});

	it('a poll that fails once is retried (reads are safe to repeat)', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 503, routes: [ROUTES.scrapingRun], times: 1 });
		const [out] = await runOk(ctx, { ...social, expectedData: 2, ...WAIT });
		expect(out).toMatchObject({ status: 'succeeded', completed: true });
		expect(ctx.requests(ROUTES.scrapingRun).length).toBeGreaterThanOrEqual(2);
	});
});
