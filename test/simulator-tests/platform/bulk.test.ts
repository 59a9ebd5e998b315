import { callPlatform } from '../../simulator/platform/client';
import {
	BULK_START_ANSWERS,
	DEMO_AI_SCRAPER_IDS,
	DEMO_MANUAL_SCRAPER_IDS,
	OTHER_USER_MANUAL_SCRAPER_ID,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PLATFORM_ROUTES,
	PlatformSimulator,
	type BulkData,
	type BulkStartRecord,
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
	const cancel = (id: string) => callPlatform<CancelBulkResult>(base, 'PATCH', `/api/v1/scrapers-bulks/result/${id}/cancel`);

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

describe('platform simulator: bulk starts, AI bulk reruns and both cancels (public facts)', () => {
	let sim: PlatformSimulator;
	let base: string;

	beforeEach(async () => {
		sim = new PlatformSimulator();
		base = await sim.listen();
	});
	afterEach(() => sim.close());

	const BULK_PATHS = {
		manual: { path: '/api/v1/scrapers-manual-rerun/bulk', scraperId: DEMO_MANUAL_SCRAPER_IDS[0] },
		ai: { path: '/api/v1/scrapers-ai-rerun/bulk', scraperId: DEMO_AI_SCRAPER_IDS.listing },
	} as const;
	const startOn = (kind: keyof typeof BULK_PATHS, list: string[], scraperId: string = BULK_PATHS[kind].scraperId) =>
		callPlatform<Record<string, unknown>>(base, 'POST', BULK_PATHS[kind].path, { body: { scraperId, urls: list } });
	const poll = async (id: string) => {
		const res = await callPlatform<ResultRecord<BulkData>>(base, 'GET', `/api/v1/results/${id}`);
		expect(res.status).toBe(200);
		return res.body.data;
	};
	const cancelResult = (id: string) => callPlatform<CancelBulkResult>(base, 'PATCH', `/api/v1/scrapers-bulks/result/${id}/cancel`);
	const cancelScraper = (scraperId: string, token = PLATFORM_DEMO_TOKEN) =>
		callPlatform<CancelBulkResult>(base, 'PATCH', `/api/v1/scrapers-bulks/${scraperId}/cancel`, { token });

	describe.each(['manual', 'ai'] as const)('%s bulk start answer', (kind) => {
		it("default 'both': the record with its id and bulkResultId equal to it", async () => {
			const res = await startOn(kind, urls(3));
			expect(res.status).toBe(200);
			expect(res.body.message).toBe('Bulk rerun started successfully');
			const data = res.body.data as unknown as BulkStartRecord;
			expect(data.bulkResultId).toBe(data.id);
			expect(data).toMatchObject({ type: 'Bulk-AI', status: 'Running', scraperId: BULK_PATHS[kind].scraperId, url: urls(3)[0] });
			expect(data.curl).toEqual(expect.any(String));
			expect(data).not.toHaveProperty('screenshotPath');
			expect(data).not.toHaveProperty('htmlContent');
			// The poll answer is the record, without the start-only fields.
			const polled = await poll(data.bulkResultId);
			expect(polled).not.toHaveProperty('bulkResultId');
			expect(polled.id).toBe(data.id);
		});

		it("'bulkResultId': the record without id, plus bulkResultId (as the vendor's live test reads it)", async () => {
			sim.options.bulkStartAnswer = 'bulkResultId';
			const res = await startOn(kind, urls(2));
			expect(res.status).toBe(200);
			const data = res.body.data;
			expect(data).not.toHaveProperty('id');
			expect(data.bulkResultId).toMatch(/^[0-9a-f-]{36}$/);
			expect(data).toMatchObject({ type: 'Bulk-AI', status: 'Running', scraperId: BULK_PATHS[kind].scraperId });
			expect((data.data as BulkData).summary.totalUrls).toBe(2);
			expect((await poll(String(data.bulkResultId))).type).toBe('Bulk-AI');
		});

		it("'bulkResultIdOnly': data is just {bulkResultId}", async () => {
			sim.options.bulkStartAnswer = 'bulkResultIdOnly';
			const res = await startOn(kind, urls(2));
			expect(res.status).toBe(200);
			expect(Object.keys(res.body.data)).toEqual(['bulkResultId']);
			const record = await poll(String(res.body.data.bulkResultId));
			expect(record.scraperId).toBe(BULK_PATHS[kind].scraperId);
		});

		it('bulkStartStatus 201 answers 201 with the same body', async () => {
			const created = new PlatformSimulator({ bulkStartStatus: 201, bulkStartAnswer: 'bulkResultId' });
			const url = await created.listen();
			try {
				const res = await callPlatform<Record<string, unknown>>(url, 'POST', BULK_PATHS[kind].path, {
					body: { scraperId: BULK_PATHS[kind].scraperId, urls: urls(1) },
				});
				expect(res.status).toBe(201);
				expect(res.body.message).toBe('Bulk rerun started successfully');
				expect(res.body.data).not.toHaveProperty('id');
				expect(res.body.data.bulkResultId).toEqual(expect.any(String));
			} finally {
				await created.close();
			}
			// Mutable at run time too; errors keep their own statuses.
			sim.options.bulkStartStatus = 201;
			expect((await startOn(kind, urls(1))).status).toBe(201);
			expect((await startOn(kind, [])).status).toBe(422);
		});
	});

	it('every bulkStartAnswer value is listed, and startBulk returns the fullest form whatever the option', () => {
		expect(BULK_START_ANSWERS).toEqual(['both', 'bulkResultId', 'bulkResultIdOnly']);
		sim.options.bulkStartAnswer = 'bulkResultIdOnly';
		const record = sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], urls(1));
		expect(record.bulkResultId).toBe(record.id);
		expect(record.type).toBe('Bulk-AI');
		const ai = sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_AI_SCRAPER_IDS.general, urls(1), 'ai');
		expect(ai.scraperId).toBe(DEMO_AI_SCRAPER_IDS.general);
	});

	it('an AI bulk job progresses, merges and fails URLs exactly as a manual one', async () => {
		const list = urls(5, [2]);
		const ai = (await startOn('ai', list)).body.data as unknown as BulkStartRecord;
		const manual = (await startOn('manual', list)).body.data as unknown as BulkStartRecord;
		// The two starts are a few real milliseconds apart, so their finish estimates differ by that much.
		const progress = (data: BulkData) => ({ ...data, summary: { ...data.summary, estimatedFinishAt: undefined } });
		expect(ai.data.urlDetails).toEqual(manual.data.urlDetails);
		sim.clock.advance(2000);
		const [aiMid, manualMid] = [await poll(ai.id), await poll(manual.id)];
		expect(progress(aiMid.data)).toEqual(progress(manualMid.data));
		expect(aiMid.status).toBe('Running');
		sim.clock.advance(4000);
		const [aiDone, manualDone] = [await poll(ai.id), await poll(manual.id)];
		expectConsistent(aiDone);
		expect(aiDone.status).toBe('Finished');
		expect(progress(aiDone.data)).toEqual(progress(manualDone.data));
		expect(aiDone.data.summary).toMatchObject({ totalUrls: 5, successfulUrls: 4, failedUrls: 1 });
		expect(aiDone.scraperId).toBe(DEMO_AI_SCRAPER_IDS.listing);
		expect(aiDone.type).toBe('Bulk-AI');
		expect(sim.server.log.count(PLATFORM_ROUTES.aiBulkRerun)).toBe(1);
		expect(sim.server.log.count(PLATFORM_ROUTES.bulkRerun)).toBe(1);
	});

	describe('cancel by result id (scrapers-bulks/result/{resultId}/cancel)', () => {
		it('cancels only that job, answering its id, URLs and the canceled ones', async () => {
			sim.options.bulkConcurrency = 1;
			const a = (await startOn('manual', urls(4))).body.data as unknown as BulkStartRecord;
			const b = (await startOn('manual', urls(3))).body.data as unknown as BulkStartRecord;
			const res = await cancelResult(a.id);
			expect(res.status).toBe(200);
			expect(res.body.message).toEqual(expect.any(String));
			expect(res.body.data).toEqual({ id: a.id, bulkUrls: urls(4), canceledUrls: urls(4).slice(1) });
			expect((await poll(b.id)).data.urlDetails.map((d) => d.status)).toEqual(['Running', 'Pending', 'Pending']);
			expect(sim.server.log.last(PLATFORM_ROUTES.cancelBulkResult)?.status).toBe(200);
		});

		it('cancels an AI bulk job too', async () => {
			const job = (await startOn('ai', urls(5))).body.data as unknown as BulkStartRecord;
			expect((await cancelResult(job.id)).body.data.canceledUrls).toEqual(urls(5).slice(2));
			sim.clock.advance(2000);
			expect((await poll(job.id)).status).toBe('Canceled');
		});
	});

	describe('cancel by scraper id (scrapers-bulks/{scraperId}/cancel)', () => {
		it('cancels the pending URLs of every bulk job of the scraper, listing their URLs in job creation order', async () => {
			sim.options.bulkConcurrency = 1;
			const scraperId = DEMO_MANUAL_SCRAPER_IDS[1];
			const first = urls(3).map((u) => `${u}?job=1`);
			const second = urls(4).map((u) => `${u}?job=2`);
			const third = urls(2).map((u) => `${u}?job=3`);
			const done = sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, first);
			sim.clock.advance(3 * 2000);
			expect((await poll(done.id)).status).toBe('Finished');
			const running = (await startOn('manual', second, scraperId)).body.data as unknown as BulkStartRecord;
			sim.clock.advance(2000 + 500);
			const fresh = (await startOn('manual', third, scraperId)).body.data as unknown as BulkStartRecord;
			// Another scraper's job and another user's job stay untouched.
			const elsewhere = sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[2], urls(3));
			const otherUsers = sim.startBulk(PLATFORM_OTHER_USER_TOKEN, OTHER_USER_MANUAL_SCRAPER_ID, urls(3));

			const res = await cancelScraper(scraperId);
			expect(res.status).toBe(200);
			expect(res.body.message).toEqual(expect.any(String));
			expect(res.body.data).toEqual({
				id: scraperId,
				bulkUrls: [...first, ...second, ...third],
				// second: URL 0 finished, URL 1 running; third: URL 0 running.
				canceledUrls: [...second.slice(2), ...third.slice(1)],
			});
			expect((await poll(running.id)).data.urlDetails.map((d) => d.status)).toEqual(['Finished', 'Running', 'Canceled', 'Canceled']);
			expect((await poll(fresh.id)).data.urlDetails.map((d) => d.status)).toEqual(['Running', 'Canceled']);
			expect((await poll(done.id)).status).toBe('Finished');
			expect((await poll(elsewhere.id)).data.urlDetails.map((d) => d.status)).toEqual(['Running', 'Pending', 'Pending']);
			expect(sim.getRecord<BulkData>(otherUsers.id)?.data.urlDetails.map((d) => d.status)).toEqual(['Running', 'Pending', 'Pending']);

			sim.clock.advance(2000);
			expect((await poll(running.id)).status).toBe('Canceled');
			expect((await poll(fresh.id)).status).toBe('Canceled');
			const again = await cancelScraper(scraperId);
			expect(again.body.data).toEqual({ id: scraperId, bulkUrls: [...first, ...second, ...third], canceledUrls: [] });
			expect(sim.server.log.count(PLATFORM_ROUTES.cancelBulk)).toBe(2);
		});

		it('covers the AI bulk jobs of an AI scraper', async () => {
			const scraperId = DEMO_AI_SCRAPER_IDS.map;
			await startOn('ai', urls(3), scraperId);
			await startOn('ai', urls(3), scraperId);
			const res = await cancelScraper(scraperId);
			expect(res.body.data).toEqual({ id: scraperId, bulkUrls: [...urls(3), ...urls(3)], canceledUrls: [urls(3)[2], urls(3)[2]] });
		});

		it('a scraper with no bulk jobs answers 200 with empty lists', async () => {
			const res = await cancelScraper(DEMO_MANUAL_SCRAPER_IDS[2]);
			expect(res.status).toBe(200);
			expect(res.body.data).toEqual({ id: DEMO_MANUAL_SCRAPER_IDS[2], bulkUrls: [], canceledUrls: [] });
			const fresh = sim.createManualScraper();
			expect((await cancelScraper(fresh)).body.data).toEqual({ id: fresh, bulkUrls: [], canceledUrls: [] });
		});

		it("another user's scraper is 404 and cancels nothing", async () => {
			const theirs = sim.startBulk(PLATFORM_OTHER_USER_TOKEN, OTHER_USER_MANUAL_SCRAPER_ID, urls(4));
			const res = await cancelScraper(OTHER_USER_MANUAL_SCRAPER_ID);
			expect(res.status).toBe(404);
			expect(res.body).toEqual({ message: 'Resource not found', error: 'Not Found', statusCode: 404 });
			expect(sim.getRecord<BulkData>(theirs.id)?.data.urlDetails.filter((d) => d.status === 'Canceled')).toEqual([]);
			// Its owner can.
			const own = await cancelScraper(OTHER_USER_MANUAL_SCRAPER_ID, PLATFORM_OTHER_USER_TOKEN);
			expect(own.body.data.canceledUrls).toEqual(urls(4).slice(2));
		});
	});
});
