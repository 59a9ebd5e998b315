import { LAST_READ_MS } from '../../../nodes/shared/execution/polling';
import { ROUTES as PLATFORM_ROUTES, usePlatform } from '../../platform/helpers';
import { bulkStart, PLATFORM_TIMINGS, scraperId } from './startedWork';

/**
 * How the wait on a bulk job the node started ends when its reads cannot confirm the end: a read that hangs, a job the
 * service does not know yet or no longer knows, an execution stopped. The job is named each time and started once.
 * What the started-work tests share: startedWork.ts.
 */

const platform = usePlatform(PLATFORM_TIMINGS);

describe('Bulk > Start with Wait for Completion', () => {
	it('a status read that hangs does not hold the wait past Max Wait: the job is output with its latest known state', async () => {
		// Within the transport's 120 s timeout: a read that waited on it would answer after 90 s.
		platform.sim.server.faults.add({ kind: 'slow', delayMs: 90_000, routes: [PLATFORM_ROUTES.result], times: 1 });
		const started = Date.now();
		const result = await platform.run(bulkStart({ maxWaitSeconds: 3 }));
		// The last read gets LAST_READ_MS past Max Wait, then the wait ends with what it knows.
		expect(Date.now() - started).toBeLessThan(3_000 + LAST_READ_MS + 3_000);
		expect(result.error).toBeUndefined();
		const job = result.items[0].json;
		expect(job).toMatchObject({ id: expect.any(String), scraperId, completed: false, waitTimedOut: true });
		expect(job.waitMessage).toContain(String(job.id));
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
	}, 120_000);

	it('a job the service does not know yet (404 to every status read) is read until Max Wait, then named', async () => {
		platform.sim.server.faults.add({ kind: 'status', status: 404, routes: [PLATFORM_ROUTES.result] });
		const started = Date.now();
		const result = await platform.run(bulkStart({ maxWaitSeconds: 5 }));
		expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started, but its status could not be read: The bulk job "[^"]+" was not found \(404\)/);
		expect(result.error?.description).toMatch(/^Do not start it again/);
		// A service may not list at once what it has just created: the wait reads on instead of giving up at once.
		expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBeGreaterThan(1);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
	}, 60_000);

	it('a job read once, then gone (404): the wait ends at once, naming the job and calling it deleted', async () => {
		platform.sim.options.bulkUrlDurationMs = 600_000;
		try {
			platform.sim.server.faults.add({ kind: 'status', status: 404, routes: [PLATFORM_ROUTES.result], afterRequests: 1 });
			const started = Date.now();
			const result = await platform.run(bulkStart({ maxWaitSeconds: 600 }));
			expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started and then deleted while the node waited for it: The bulk job "[^"]+" was not found \(404\)/);
			expect(result.error?.description).toBe(
				'It was found while the node waited, then no longer: it no longer exists in the service, so nothing of it goes on and it cannot be read later. Start it again if you still need it.',
			);
			expect(Date.now() - started).toBeLessThan(15_000);
			expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBe(2);
		} finally {
			platform.sim.options.bulkUrlDurationMs = PLATFORM_TIMINGS.bulkUrlDurationMs;
		}
	}, 30_000);

	it('stopped while waiting: the message names the job that goes on', async () => {
		platform.sim.options.bulkUrlDurationMs = 600_000;
		try {
			const result = await platform.run(bulkStart({ maxWaitSeconds: 600 }), { cancelAfterMs: 1_500 });
			expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started; the execution was stopped before it finished/);
			expect(result.error?.description).toMatch(/^Do not start it again/);
		} finally {
			platform.sim.options.bulkUrlDurationMs = PLATFORM_TIMINGS.bulkUrlDurationMs;
		}
	}, 30_000);
});
