import type { IDataObject } from 'n8n-workflow';

import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../simulator/platform';
import { jsonOf, ROUTES, usePlatform } from './helpers';

const ctx = usePlatform();
const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];
const urls = (n: number, failing: number[] = []) =>
	Array.from({ length: n }, (_, i) => `https://shop.example.com/item/${i + 1}${failing.includes(i) ? '/sim-fail' : ''}`);

interface UrlDetail {
	url: string;
	status: string;
}

function statusCounts(details: UrlDetail[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const d of details) counts[d.status] = (counts[d.status] ?? 0) + 1;
	return counts;
}

describe('Bulk > Start', () => {
	beforeEach(() => {
		ctx.sim.options.bulkUrlDurationMs = 2_000;
		ctx.sim.options.bulkConcurrency = 2;
	});

	it('starts one job per input item from the URL list, sending exactly scraperId and urls', async () => {
		const list = urls(3);
		const result = await ctx.run({ resource: 'bulk', operation: 'start', scraperId, urls: list.join('\n') });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.bulk)?.body).toEqual({ scraperId, urls: list });
		const job = result.items[0].json;
		expect(job.id).toEqual(expect.any(String));
		expect(job.scraperId).toBe(scraperId);
		expect(job.completed).toBe(false);
		expect((job.urlDetails as UrlDetail[]).map((u) => u.url)).toEqual(list);
	});

	it('collects the URL field of all input items into one job, paired with every item', async () => {
		const list = urls(4);
		const result = await ctx.run(
			{ resource: 'bulk', operation: 'start', scraperId, urlSource: 'inputItems', urlField: 'link' },
			{ input: list.map((link) => ({ link })) },
		);
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(1);
		expect(ctx.sim.server.log.last(ROUTES.bulk)?.body).toEqual({ scraperId, urls: list });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual(list.map((_, item) => ({ item })));
	});

	it('an input item without the URL field is named, and nothing is started', async () => {
		const result = await ctx.run(
			{ resource: 'bulk', operation: 'start', scraperId, urlSource: 'inputItems', urlField: 'link' },
			{ input: [{ link: 'https://a.example.com/' }, { other: 'x' }] },
		);
		expect(result.error?.message).toBe('Invalid "URL Field": input item 2 has no field "link"');
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('Wait for Completion: 20 URLs with 3 failing end with 17 finished and 3 failed, counts consistent', async () => {
		ctx.sim.options.bulkUrlDurationMs = 100;
		const list = urls(20, [3, 9, 15]);
		const result = await ctx.run({
			resource: 'bulk',
			operation: 'start',
			scraperId,
			urls: list.join(','),
			waitForCompletion: true,
			pollIntervalSeconds: 1,
			maxWaitSeconds: 60,
		});
		expect(result.error).toBeUndefined();
		const job = result.items[0].json;
		expect(job.completed).toBe(true);
		expect(job.waitTimedOut).toBeUndefined();
		const details = job.urlDetails as UrlDetail[];
		expect(statusCounts(details)).toEqual({ Finished: 17, Failed: 3 });
		expect(details.filter((d) => d.status === 'Failed').map((d) => d.url)).toEqual([list[3], list[9], list[15]]);
		const summary = job.summary as IDataObject;
		// scrapedCount counts URLs the job has processed (finished or failed).
		expect(summary).toMatchObject({ totalUrls: 20, successfulUrls: 17, failedUrls: 3, scrapedCount: 20 });
		const merged = job.mergedData as IDataObject[];
		// Merged records come only from the finished URLs, each carrying its source URL.
		const finishedUrls = new Set(details.filter((d) => d.status === 'Finished').map((d) => d.url));
		expect(merged.length).toBeGreaterThanOrEqual(17);
		expect(new Set(merged.map((r) => r.url))).toEqual(finishedUrls);
		// Polled through GET /api/v1/results/{id}, and the job was started once.
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(1);
		expect(ctx.sim.server.log.count(ROUTES.result)).toBeGreaterThanOrEqual(1);
	});

	it('Wait for Completion that times out outputs the latest state with a clear note, never hangs', async () => {
		ctx.sim.options.bulkUrlDurationMs = 600_000;
		const started = Date.now();
		const result = await ctx.run({
			resource: 'bulk',
			operation: 'start',
			scraperId,
			urls: urls(2).join('\n'),
			waitForCompletion: true,
			pollIntervalSeconds: 1,
			maxWaitSeconds: 2,
		});
		expect(Date.now() - started).toBeLessThan(10_000);
		const job = result.items[0].json;
		expect(job.completed).toBe(false);
		expect(job.waitTimedOut).toBe(true);
		expect(job.waitMessage).toMatch(/still running after 2 s: 0 of 2 URLs done/);
	});

	it('One Item per Merged Record outputs each record with the job id', async () => {
		ctx.sim.options.bulkUrlDurationMs = 50;
		const result = await ctx.run({
			resource: 'bulk',
			operation: 'start',
			scraperId,
			urls: urls(3).join('\n'),
			waitForCompletion: true,
			pollIntervalSeconds: 1,
			bulkOutput: 'records',
		});
		expect(result.error).toBeUndefined();
		const records = jsonOf(result.items);
		expect(records.length).toBeGreaterThanOrEqual(3);
		const bulkIds = new Set(records.map((r) => r.bulkId));
		expect(bulkIds.size).toBe(1);
		expect(ctx.sim.getRecord(String([...bulkIds][0]))?.type).toBe('Bulk-AI');
	});
});

describe('Bulk > Get and Cancel', () => {
	it('Get returns status, summary, per-URL details and merged data of a job', async () => {
		ctx.sim.options.bulkUrlDurationMs = 1_000;
		ctx.sim.options.bulkConcurrency = 2;
		const record = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, urls(4));
		ctx.sim.clock.advance(5_000);
		const result = await ctx.run({ resource: 'bulk', operation: 'get', bulkId: record.id });
		expect(result.error).toBeUndefined();
		const job = result.items[0].json;
		expect(job).toMatchObject({ id: record.id, scraperId, completed: true });
		expect((job.urlDetails as UrlDetail[]).every((d) => d.status === 'Finished')).toBe(true);
		expect((job.summary as IDataObject).successfulUrls).toBe(4);
		expect(ctx.sim.server.log.last(ROUTES.result)?.path).toBe(`/api/v1/results/${record.id}`);
	});

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
		expect(ctx.sim.server.log.last(ROUTES.cancel)?.method).toBe('PATCH');

		// The running URL still finishes; the job then counts 6 finished and 14 canceled.
		ctx.sim.clock.advance(10_000);
		const job = (await ctx.run({ resource: 'bulk', operation: 'get', bulkId: record.id })).items[0].json;
		expect(statusCounts(job.urlDetails as UrlDetail[])).toEqual({ Finished: 6, Canceled: 14 });
		expect(job.completed).toBe(true);
		expect(job.status).toBe('Canceled');
	});

	it('an unknown bulk id is reported by id (404)', async () => {
		const id = '00000000-0000-4000-8000-000000000000';
		const result = await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId: id });
		expect(result.error?.message).toBe(`The bulk job "${id}" was not found (404)`);
		expect(result.error?.description).toContain('Check the bulk job ID');
	});
});
