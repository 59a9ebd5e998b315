import { callPlatform } from '../../simulator/platform/client';
import {
	DEMO_MANUAL_SCRAPER_IDS,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PlatformSimulator,
	type BulkData,
	type CancelBulkResult,
	type ListedResultRecord,
	type ResultRecord,
} from '../../simulator/platform';

function urls(count: number, failAt: number[] = []): string[] {
	return Array.from({ length: count }, (_, i) =>
		failAt.includes(i) ? `https://shop.example.com/sim-fail/${i}` : `https://shop.example.com/product/${i}`,
	);
}

/** Everything the summary says must agree with urlDetails and mergedData. */
function expectConsistent(record: ResultRecord<BulkData>): void {
	const { urlDetails, summary, mergedData } = record.data;
	const finished = urlDetails.filter((d) => d.status === 'Finished');
	const failed = urlDetails.filter((d) => d.status === 'Failed');
	expect(summary.totalUrls).toBe(urlDetails.length);
	expect(summary.successfulUrls).toBe(finished.length);
	expect(summary.failedUrls).toBe(failed.length);
	expect(summary.scrapedCount).toBe(finished.length + failed.length);
	expect(summary.totalTokenUsage).toBe(record.tokenUsage);
	const finishedUrls = finished.map((d) => d.url);
	expect([...new Set(mergedData.map((m) => m.url))]).toEqual(finishedUrls);
	expect(mergedData.length).toBeGreaterThanOrEqual(finished.length);
	for (const d of urlDetails) {
		if (d.status === 'Failed') expect(d.error).toEqual(expect.any(String));
		else expect(d.error).toBeNull();
	}
	const anyOpen = urlDetails.some((d) => d.status === 'Pending' || d.status === 'Running');
	if (anyOpen) expect(record.status).toBe('Running');
	else expect(record.status).not.toBe('Running');
}

describe('platform simulator: bulk rerun jobs', () => {
	let sim: PlatformSimulator;
	let base: string;

	beforeEach(async () => {
		sim = new PlatformSimulator();
		base = await sim.listen();
	});
	afterEach(() => sim.close());

	const start = (list: string[], scraperId = DEMO_MANUAL_SCRAPER_IDS[0]) =>
		callPlatform<ResultRecord<BulkData>>(base, 'POST', '/api/v1/scrapers-manual-rerun/bulk', { body: { scraperId, urls: list } });
	const poll = async (id: string) => {
		const res = await callPlatform<ResultRecord<BulkData>>(base, 'GET', `/api/v1/results/${id}`);
		expect(res.status).toBe(200);
		return res.body.data;
	};
	const cancel = (id: string) => callPlatform<CancelBulkResult>(base, 'PATCH', `/api/v1/scrapers-bulks/${id}/cancel`);

	it('20 URLs with 3 marked to fail end with 17 finished and 3 failed, consistent at every step', async () => {
		const list = urls(20, [3, 10, 17]);
		const res = await start(list);
		expect(res.status).toBe(200);
		expect(res.body.message).toBe('Bulk rerun started successfully');
		const started = res.body.data;
		expect(started.type).toBe('Bulk-AI');
		expect(started.status).toBe('Running');
		expect(started.scraperId).toBe(DEMO_MANUAL_SCRAPER_IDS[0]);
		expect(started.curl).toEqual(expect.any(String));
		expect(started).not.toHaveProperty('screenshotPath');
		expect(started.data.urlDetails.map((d) => d.status)).toEqual(['Running', 'Running', ...Array(18).fill('Pending')]);
		expect(started.data.summary).toMatchObject({ totalUrls: 20, successfulUrls: 0, failedUrls: 0, scrapedCount: 0, totalTokenUsage: 0 });
		const t0 = Date.parse(started.createdAt);
		expect(Date.parse(started.data.summary.estimatedFinishAt)).toBe(t0 + 10 * 2000);
		expectConsistent(started);

		let lastDone = 0;
		for (let step = 1; step <= 10; step++) {
			sim.clock.advance(2000);
			const record = await poll(started.id);
			expectConsistent(record);
			const done = record.data.summary.scrapedCount;
			expect(done).toBe(step * 2);
			expect(done).toBeGreaterThan(lastDone);
			lastDone = done;
			// updatedAt moves only on a record-level status change: here, completion.
			expect(Date.parse(record.updatedAt)).toBe(step < 10 ? t0 : t0 + 20_000);
			expect(record.status).toBe(step < 10 ? 'Running' : 'Finished');
		}
		const final = await poll(started.id);
		expect(final.data.summary).toMatchObject({ totalUrls: 20, successfulUrls: 17, failedUrls: 3, scrapedCount: 20 });
		expect(final.data.urlDetails.filter((d) => d.status === 'Failed').map((d) => d.url)).toEqual([list[3], list[10], list[17]]);
		expect(final.error).toBeNull();
		expect(final.runtime).toBe(20);
		expect(final.tokenUsage).toBeGreaterThan(0);
		expect(final.htmlContent).toBeNull();

		sim.clock.advance(60_000);
		const later = await poll(started.id);
		expect(later).toEqual(final);
	});

	it('cancel after 5 finished cancels exactly the pending URLs; the running one finishes', async () => {
		sim.options.bulkConcurrency = 1;
		const list = urls(20);
		const started = (await start(list)).body.data;
		const t0 = Date.parse(started.createdAt);
		sim.clock.advance(5 * 2000 + 500);
		const before = await poll(started.id);
		expect(before.data.summary.successfulUrls).toBe(5);
		expect(before.data.urlDetails[5].status).toBe('Running');

		const res = await cancel(started.id);
		expect(res.status).toBe(200);
		expect(res.body.message).toEqual(expect.any(String));
		expect(res.body.data).toEqual({ id: started.id, bulkUrls: list, canceledUrls: list.slice(6) });

		const after = await poll(started.id);
		expectConsistent(after);
		expect(after.status).toBe('Running');
		expect(after.data.urlDetails.map((d) => d.status)).toEqual([
			...Array(5).fill('Finished'),
			'Running',
			...Array(14).fill('Canceled'),
		]);
		expect(Date.parse(after.data.summary.estimatedFinishAt)).toBe(t0 + 6 * 2000);

		sim.clock.advance(1500);
		const final = await poll(started.id);
		expectConsistent(final);
		expect(final.status).toBe('Canceled');
		expect(final.data.summary).toMatchObject({ successfulUrls: 6, failedUrls: 0, scrapedCount: 6, totalUrls: 20 });
		expect(Date.parse(final.updatedAt)).toBe(t0 + 6 * 2000);

		const again = await cancel(started.id);
		expect(again.body.data.canceledUrls).toEqual([]);
	});

	it('cancel right after start leaves the first concurrent URLs to finish', async () => {
		const list = urls(6);
		const started = (await start(list)).body.data;
		const res = await cancel(started.id);
		expect(res.body.data.canceledUrls).toEqual(list.slice(2));
		sim.clock.advance(2000);
		const final = await poll(started.id);
		expect(final.status).toBe('Canceled');
		expect(final.data.summary.successfulUrls).toBe(2);
	});

	it('cancelling a finished job cancels nothing and keeps it Finished', async () => {
		const started = (await start(urls(2))).body.data;
		sim.clock.advance(2000);
		expect((await cancel(started.id)).body.data.canceledUrls).toEqual([]);
		expect((await poll(started.id)).status).toBe('Finished');
	});

	it('a job whose URLs all fail is Failed, with an error', async () => {
		const started = (await start(urls(3, [0, 1, 2]))).body.data;
		sim.clock.advance(4000);
		const final = await poll(started.id);
		expectConsistent(final);
		expect(final.status).toBe('Failed');
		expect(final.error).toEqual(expect.any(String));
		expect(final.data.mergedData).toEqual([]);
		expect(final.tokenUsage).toBe(0);
	});

	it('duration and concurrency are configurable, fixed per job when it starts', async () => {
		const slow = (await start(urls(4))).body.data;
		sim.options.bulkUrlDurationMs = 500;
		sim.options.bulkConcurrency = 4;
		const fast = (await start(urls(4))).body.data;
		expect(fast.data.urlDetails.every((d) => d.status === 'Running')).toBe(true);
		sim.clock.advance(500);
		expect((await poll(fast.id)).status).toBe('Finished');
		expect((await poll(slow.id)).status).toBe('Running');
		sim.clock.advance(3500);
		expect((await poll(slow.id)).status).toBe('Finished');

		const viaOptions = new PlatformSimulator({ bulkUrlDurationMs: 100, bulkConcurrency: 3, clock: sim.clock });
		const record = viaOptions.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], urls(6));
		sim.clock.advance(100);
		expect(viaOptions.getRecord<BulkData>(record.id)?.data.summary.scrapedCount).toBe(3);
		sim.clock.advance(100);
		expect(viaOptions.getRecord<BulkData>(record.id)?.status).toBe('Finished');
	});

	it('mergedData is deterministic per URL and names its source URL', async () => {
		const a = (await start(['https://shop.example.com/p/a', 'https://shop.example.com/p/b'])).body.data;
		const b = (await start(['https://shop.example.com/p/b'])).body.data;
		sim.clock.advance(2000);
		const merged = (await poll(a.id)).data.mergedData;
		const single = (await poll(b.id)).data.mergedData;
		expect(merged.filter((m) => m.url === 'https://shop.example.com/p/b')).toEqual(single);
		expect(single.length).toBeGreaterThanOrEqual(1);
		expect(single.length).toBeLessThanOrEqual(3);
	});

	it('works with created manual scrapers, only for their owner', async () => {
		const mine = sim.createManualScraper();
		expect((await start(urls(1), mine)).status).toBe(200);
		const theirs = sim.createManualScraper(PLATFORM_OTHER_USER_TOKEN);
		expect((await start(urls(1), theirs)).status).toBe(403);
	});

	it('listing by updatedAt finds jobs completed since a moment (what a bulk trigger relies on)', async () => {
		const quick = (await start(urls(2))).body.data;
		const long = (await start(urls(8))).body.data;
		// Running jobs keep updatedAt = createdAt, so a window opened after both started holds only completions.
		const since = new Date(Date.parse(long.createdAt) + 1).toISOString();
		const completedSince = async () => {
			const res = await callPlatform<ListedResultRecord[]>(base, 'GET', '/api/v1/results', {
				query: { page: 1, pageSize: 100, sortField: 'updatedAt', sortOrder: 'ASC', dateRangeColumn: 'updatedAt', startAt: since },
			});
			return res.body.data.map((r) => `${r.id}:${r.status}`);
		};
		expect(await completedSince()).toEqual([]);
		sim.clock.advance(2000);
		expect(await completedSince()).toEqual([`${quick.id}:Finished`]);
		sim.clock.advance(6000);
		expect(await completedSince()).toEqual([`${quick.id}:Finished`, `${long.id}:Finished`]);
		const listed = await callPlatform<ListedResultRecord[]>(base, 'GET', '/api/v1/results', {
			query: { page: 1, pageSize: 1, sortField: 'updatedAt', sortOrder: 'DESC', search: long.id },
		});
		const data = JSON.parse(listed.body.data[0].data) as BulkData;
		expect(data.summary.successfulUrls).toBe(8);
	});
});
