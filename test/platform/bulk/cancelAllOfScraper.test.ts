import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { statusCounts, urls } from '../bulkJobs';
import type { UrlDetail } from '../bulkJobs';
import { ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();
const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];

describe('Bulk > Cancel All Pending of a Scraper', () => {
	beforeEach(() => {
		ctx.sim.options.bulkUrlDurationMs = 10_000;
		ctx.sim.options.bulkConcurrency = 1;
	});

	it('Cancel All Pending of a Scraper stops the pending URLs of every job of that scraper, by scraper id', async () => {
		const other = DEMO_MANUAL_SCRAPER_IDS[1];
		const jobs = [ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, urls(3)), ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, urls(2))];
		const untouched = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, other, urls(2));
		ctx.sim.clock.advance(5_000);
		const result = await ctx.run({ resource: 'bulk', operation: 'cancelAllOfScraper', scraperId });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.cancelScraper)?.path).toBe(`/api/v1/scrapers-bulks/${scraperId}/cancel`);
		const data = result.items[0].json;
		expect(data.canceledUrls).toEqual([...urls(3).slice(1), ...urls(2).slice(1)]);
		expect(data.bulkUrls).toEqual(expect.arrayContaining([...urls(3), ...urls(2)]));
		ctx.sim.clock.advance(60_000);
		for (const job of jobs) {
			const state = (await ctx.run({ resource: 'bulk', operation: 'get', simplify: false, bulkId: job.id })).items[0].json;
			expect(state.status).toBe('Canceled');
		}
		const rest = (await ctx.run({ resource: 'bulk', operation: 'get', simplify: false, bulkId: untouched.id })).items[0].json;
		expect(statusCounts(rest.urlDetails as UrlDetail[])).toEqual({ Finished: 2 });
	});

	it('a scraper without pending work answers empty lists, and the output always carries both lists', async () => {
		const idle = ctx.sim.createManualScraper();
		const result = await ctx.run({ resource: 'bulk', operation: 'cancelAllOfScraper', scraperId: idle });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ bulkUrls: [], canceledUrls: [] });
	});

	it('a bulk job id where a scraper id belongs is reported as an unknown scraper (404), nothing canceled', async () => {
		const job = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, urls(3));
		const result = await ctx.run({ resource: 'bulk', operation: 'cancelAllOfScraper', scraperId: job.id });
		expect(result.error?.message).toBe(`The scraper "${job.id}" was not found (404) [item 0]`);
		ctx.sim.clock.advance(60_000);
		expect(statusCounts(((await ctx.run({ resource: 'bulk', operation: 'get', simplify: false, bulkId: job.id })).items[0].json.urlDetails) as UrlDetail[])).toEqual({ Finished: 3 });
	});
});
