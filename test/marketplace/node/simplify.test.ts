import { FAST_RUNS, NO_WAIT, runOk, useMarketplace } from '../helpers';
import { keywordsParam, pdf, portal } from '../parameters';

/** Simplify of the create-and-run operations (actions/common.ts), when the node does not wait for the runs. */

// Nothing here waits, and a run stays queued for an hour: the started run is `queued` however long a busy machine
// takes between creating it and answering (FAST_RUNS' 50 ms could pass first when files run in parallel).
const ctx = useMarketplace({ ...FAST_RUNS, queuedMs: 3_600_000 });

describe('Simplify without waiting (version 3)', () => {
	const STARTED_RUN_KEYS = ['completed', 'created_at', 'message', 'results_total', 'scraper_id', 'scraper_name', 'scraping_run_id', 'status'];

	it('on by default: one flat item per started run, its ids and status instead of the scraper configuration', async () => {
		const out = await runOk(ctx, { ...portal, locations: 'Bondi, NSW 2026', ...NO_WAIT });
		expect(out).toHaveLength(1);
		expect(Object.keys(out[0]).sort()).toEqual(STARTED_RUN_KEYS);
		expect(out[0]).toEqual({
			scraping_run_id: expect.any(Number),
			scraper_id: expect.any(Number),
			scraper_name: 'Bondi houses',
			status: 'queued',
			completed: false,
			results_total: 1,
			created_at: expect.any(String),
			message: 'Scraping queued successfully',
		});
		// The ids are the started run's: reading it by id finds the new scraper's run.
		const read = await runOk(ctx, { resource: 'scrapingRun', operation: 'get', scrapingRunId: out[0].scraping_run_id });
		expect(read[0]).toMatchObject({ id: out[0].scraping_run_id, scraper_id: out[0].scraper_id });
		for (const value of Object.values(out[0])) expect(typeof value === 'object' && value !== null).toBe(false);
	});

	it('a PDF scraper with two keywords: one item per run, each counting its results', async () => {
		const out = await runOk(ctx, { ...pdf, keywords: keywordsParam(['budget 2025', 'Is it a budget paper?'], ['annual report', 'Is it an annual report?']), ...NO_WAIT });
		const runs = new Set(out.map((item) => item.scraping_run_id));
		expect(runs.size).toBe(out.length);
		expect(out.reduce((sum, item) => sum + Number(item.results_total), 0)).toBe(2);
	});

	it('version 2 keeps the service answer as it was', async () => {
		const result = await ctx.run({ ...portal, locations: 'Bondi, NSW 2026', ...NO_WAIT }, { typeVersion: 2 });
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.items[0].json).sort()).toEqual(['message', 'results', 'scraper']);
	});

	it('a Simplify that is not a boolean is refused before anything is sent', async () => {
		const result = await ctx.run({ ...portal, locations: 'Bondi', ...NO_WAIT, simplify: '={{ "yes" }}' });
		expect(result.error?.message).toMatch(/^Invalid 'Simplify'/);
		expect(ctx.requests()).toHaveLength(0);
	});
});
