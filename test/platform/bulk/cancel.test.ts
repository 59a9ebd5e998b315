import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { statusCounts, urls } from '../bulkJobs';
import type { UrlDetail } from '../bulkJobs';
import { ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();
const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];

describe('Bulk > Cancel', () => {
	it('Cancel after 5 finished cancels exactly the pending URLs', async () => {
		ctx.sim.options.bulkUrlDurationMs = 10_000;
		ctx.sim.options.bulkConcurrency = 1;
		const list = urls(20);
		const record = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, list);
		ctx.sim.clock.advance(55_000); // 5 finished, the 6th running, 14 pending
		const result = await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId: record.id });
		expect(result.error).toBeUndefined();
		const data = result.items[0].json;
		expect(data.id).toBe(record.id);
		expect(data.bulkUrls).toEqual(list);
		expect(data.canceledUrls).toEqual(list.slice(6));
		// One job is cancelled by its result id on its own endpoint, not on the scraper's.
		expect(ctx.sim.server.log.last(ROUTES.cancelJob)?.path).toBe(`/api/v1/scrapers-bulks/result/${record.id}/cancel`);
		expect(ctx.sim.server.log.count(ROUTES.cancelScraper)).toBe(0);

		// The running URL still finishes; the job then counts 6 finished and 14 canceled.
		ctx.sim.clock.advance(10_000);
		const job = (await ctx.run({ resource: 'bulk', operation: 'get', simplify: false, bulkId: record.id })).items[0].json;
		expect(statusCounts(job.urlDetails as UrlDetail[])).toEqual({ Finished: 6, Canceled: 14 });
		expect(job.completed).toBe(true);
		expect(job.status).toBe('Canceled');
	});

	it('an unknown bulk id is reported by id (404)', async () => {
		const id = '00000000-0000-4000-8000-000000000000';
		const result = await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId: id });
		expect(result.error?.message).toBe(`The bulk job "${id}" was not found (404) [item 0]`);
		expect(result.error?.description).toContain('Check the bulk job ID');
	});
});

describe('Bulk > Cancel One Job', () => {
	beforeEach(() => {
		ctx.sim.options.bulkUrlDurationMs = 10_000;
		ctx.sim.options.bulkConcurrency = 1;
	});

	it("Cancel One Job stops only that job's pending URLs; the scraper's other job goes on", async () => {
		const first = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, urls(4));
		const second = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, urls(3));
		ctx.sim.clock.advance(5_000); // the first URL of each job running, the rest pending
		const result = await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId: first.id });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.canceledUrls).toEqual(urls(4).slice(1));
		ctx.sim.clock.advance(60_000);
		const other = (await ctx.run({ resource: 'bulk', operation: 'get', simplify: false, bulkId: second.id })).items[0].json;
		expect(statusCounts(other.urlDetails as UrlDetail[])).toEqual({ Finished: 3 });
	});
});
