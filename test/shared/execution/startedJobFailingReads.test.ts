import { ROUTES as PLATFORM_ROUTES, usePlatform } from '../../platform/helpers';
import { bulkStart, PLATFORM_TIMINGS, scraperId } from './startedWork';

/**
 * A bulk job the node started whose status reads fail (503): ridden out with backoff up to Max Wait, then named, with
 * the advice not to start it again; never started twice. What the started-work tests share: startedWork.ts.
 */

const platform = usePlatform(PLATFORM_TIMINGS);

describe('Bulk > Start with Wait for Completion', () => {
	it('rides out status reads that fail beyond the transport retries, and completes with one job', async () => {
		// Five failed reads: one whole read of four attempts and more, where the wait used to give up after four.
		platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result], times: 5 });
		const result = await platform.run(bulkStart({ maxWaitSeconds: 120 }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ completed: true });
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBeGreaterThan(5);
	}, 120_000);

	it('reads failing until Max Wait: the message names the job, says not to start it again, and reads went on until Max Wait', async () => {
		platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result] });
		const started = Date.now();
		// A read of four attempts ends within 1 + 7 s (backoff with jitter), so 12 s leaves room for a second read.
		const result = await platform.run(bulkStart({ maxWaitSeconds: 12 }));
		const id = platform.sim.server.log.for(PLATFORM_ROUTES.result)[0].path.split('/').pop() as string;
		expect(result.error?.message).toBe(
			`Bulk job "${id}" was started, but its status could not be read: Scraper Platform could not complete the request (503): Service Unavailable [item 0]`,
		);
		expect(result.error?.description).toMatch(/^Do not start it again: it goes on in the service\. Read it later with Bulk > Get \('Bulk Job ID' /);
		expect(Date.now() - started).toBeGreaterThanOrEqual(12_000);
		// More than one read's four attempts: the wait read again after the first read gave up.
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBeGreaterThan(4);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
	}, 60_000);

	it('with Continue On Fail the item carries the job id and its latest known state', async () => {
		platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result] });
		const result = await platform.run(bulkStart({ maxWaitSeconds: 2 }), { continueOnFail: true });
		expect(result.error).toBeUndefined();
		const item = result.items[0].json;
		expect(item.error).toMatch(/^Bulk job "[^"]+" was started, but its status could not be read/);
		expect(item.bulkJobId).toEqual(expect.any(String));
		expect(item.error).toContain(item.bulkJobId as string);
		expect(item.latestState).toMatchObject({ id: item.bulkJobId, scraperId, completed: false });
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	}, 60_000);

	it('without waiting, a start answered with the id only whose read fails names the job', async () => {
		platform.sim.options.bulkStartAnswer = 'bulkResultIdOnly';
		try {
			platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result] });
			const result = await platform.run({ resource: 'bulk', operation: 'start', scraperId, urls: 'https://a.example.com/1' });
			expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started, but its status could not be read/);
			expect(result.error?.description).toMatch(/Do not start it again/);
			expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
		} finally {
			platform.sim.options.bulkStartAnswer = 'both';
		}
	}, 30_000);
});
