import type { IDataObject } from 'n8n-workflow';

import { SeededRandom } from '../../simulator/core/random';
import { callPlatform } from '../../simulator/platform/client';
import type { PlatformSimulator } from '../../simulator/platform';
import { OVERLAP_MS } from '../../../nodes/ScraperPlatform/trigger/state';
import type { TriggerDatabase, TriggerInstance } from '../../harness/trigger';
import { LIST, MINUTE, SCRAPER_A, TOKEN, beforeEachRequest, completedAt, countRequests, ids, newTrigger, record, startJob, useSimulator } from './helpers';

const ctx = useSimulator();

interface PollLog {
	emitted: string[];
	list: number;
	detail: number;
}

/**
 * 50 bulk jobs with random sizes and speeds, started at random moments (4 of them before activation), polled once
 * a minute for 30 minutes. With `restartRate`, n8n "restarts" before a poll: a new trigger instance over the same
 * saved static data (saved as n8n does: after activation and after each poll that emits).
 */
async function runScenario(sim: PlatformSimulator, seed: string, restartRate: number) {
	const random = new SeededRandom(seed);
	// Finished before activation: never emitted.
	const before = [startJob(sim, { urls: 2 }), startJob(sim, { urls: 1 })];
	sim.clock.advance(10_000);
	const jobs: string[] = [];
	for (let i = 0; i < 4; i++) jobs.push(startJob(sim, { urls: random.int(1, 3), urlMs: random.int(60_000, 200_000) }));

	const database: TriggerDatabase = { saves: 0 };
	let trigger: TriggerInstance = newTrigger(sim, {}, database);
	const activation = await countRequests(sim, () => trigger.poll());
	expect(activation.value).toEqual([]);
	expect(activation.list).toBe(1);

	// Start moments of the other 46 jobs, spread over the first 22 minutes.
	const starts = Array.from({ length: 46 }, () => random.int(0, 22 * MINUTE)).sort((a, b) => a - b);
	const t0 = sim.clock.now();
	const polls: PollLog[] = [];
	let restarts = 0;
	for (let p = 1; p <= 30; p++) {
		const pollAt = t0 + p * MINUTE;
		while (starts.length > 0 && t0 + starts[0] < pollAt) {
			sim.clock.advance(Math.max(0, t0 + starts.shift()! - sim.clock.now()));
			// Some jobs have a failed URL (partly failed jobs trigger by default; failed-only ones do not).
			const urls = random.int(1, 3);
			jobs.push(startJob(sim, { urls, urlMs: random.int(1_000, 120_000), fail: urls > 1 && random.next() < 0.3 ? [0] : undefined }));
		}
		sim.clock.advance(pollAt - sim.clock.now());
		if (random.next() < restartRate) {
			trigger = newTrigger(sim, {}, database);
			restarts++;
		}
		const { value, list, detail } = await countRequests(sim, () => trigger.poll());
		polls.push({ emitted: ids(value), list, detail });
	}
	return { before, jobs, polls, restarts };
}

function checkExactlyOnceInOrder(sim: PlatformSimulator, result: Awaited<ReturnType<typeof runScenario>>) {
	const emitted = result.polls.flatMap((p) => p.emitted);
	// Every job completed within the 30 minutes and was emitted exactly once; the pre-activation ones never.
	expect(result.jobs.every((id) => record(sim, id).status !== 'Running')).toBe(true);
	expect(new Set(emitted).size).toBe(emitted.length);
	expect([...emitted].sort()).toEqual([...result.jobs].sort());
	for (const id of result.before) expect(emitted).not.toContain(id);
	// In completion order (ties by id, as the service sorts them).
	const order = [...result.jobs].sort((a, b) => completedAt(sim, a) - completedAt(sim, b) || (a < b ? -1 : 1));
	expect(emitted).toEqual(order);
	// Cost: an idle poll makes one request; a poll emitting K jobs at most 1 + K.
	for (const poll of result.polls) {
		const requests = poll.list + poll.detail;
		if (poll.emitted.length === 0) expect(requests).toBe(1);
		expect(requests).toBeLessThanOrEqual(1 + poll.emitted.length);
	}
}

describe('Scraper Bulk Trigger: each completed job exactly once', () => {
	it('50 jobs completing at random moments across 30 polls are emitted once each, in completion order', async () => {
		const result = await runScenario(ctx.sim, 'trigger-50-jobs', 0);
		checkExactlyOnceInOrder(ctx.sim, result);
		// The listing carries the job data: no poll needed a per-job request, every poll was one request.
		expect(result.polls.map((p) => p.list + p.detail)).toEqual(Array(30).fill(1));
		// Jobs really completed across many polls, several of them in the same poll.
		const busyPolls = result.polls.filter((p) => p.emitted.length > 0);
		expect(busyPolls.length).toBeGreaterThan(10);
		expect(Math.max(...result.polls.map((p) => p.emitted.length))).toBeGreaterThan(1);
	});

	it('restarts between polls (new instance, saved static data) lose and duplicate nothing', async () => {
		const result = await runScenario(ctx.sim, 'trigger-restarts', 0.4);
		expect(result.restarts).toBeGreaterThan(5);
		checkExactlyOnceInOrder(ctx.sim, result);
	});

	it('first activation emits nothing from before it; an idle poll is one request with 1,000 jobs stored', async () => {
		const { sim } = ctx;
		sim.seedResults(TOKEN, 1000);
		// 1,000 bulk jobs over ~14 hours, a third of them still running (for days).
		const running: string[] = [];
		for (let i = 0; i < 1000; i++) {
			const id = startJob(sim, { urlMs: i % 3 === 0 ? 5 * 24 * 3_600_000 : 1000 });
			if (i % 3 === 0) running.push(id);
			sim.clock.advance(50_000);
		}
		const trigger = newTrigger(sim);
		const activation = await countRequests(sim, () => trigger.poll());
		expect(activation.value).toEqual([]);
		expect(activation.total).toBe(1);
		const [query] = sim.server.log.for(LIST).slice(-1);
		expect(query.query).toEqual({ page: '1', pageSize: '1', sortField: 'updatedAt', sortOrder: 'DESC', search: 'Bulk-AI' });

		for (let p = 0; p < 5; p++) {
			sim.clock.advance(MINUTE);
			const idle = await countRequests(sim, () => trigger.poll());
			expect(idle.value).toEqual([]);
			expect(idle.total).toBe(1);
		}
		const last = sim.server.log.last(LIST)!;
		expect(last.query).toMatchObject({ pageSize: '100', sortField: 'updatedAt', sortOrder: 'ASC', search: 'Bulk-AI', dateRangeColumn: 'updatedAt' });
		expect(last.headers['x-api-token']).toBe(TOKEN);

		// One of the old running jobs completes: the next poll finds it with the same single request.
		sim.options.bulkUrlDurationMs = 1000;
		const quick = startJob(sim, { urls: 2 });
		sim.clock.advance(MINUTE);
		const found = await countRequests(sim, () => trigger.poll());
		expect(ids(found.value)).toEqual([quick]);
		expect(found.total).toBe(1);
		expect(running.length).toBe(334);
	});

	it('150 jobs completing in one interval are all emitted by one poll that pages through (2 requests)', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		await trigger.poll();
		const jobs = Array.from({ length: 150 }, (_, i) => startJob(sim, { urlMs: 5_000 + ((i * 7919) % 50_000) }));
		sim.clock.advance(2 * MINUTE);
		const poll = await countRequests(sim, () => trigger.poll());
		expect(poll.value).toHaveLength(150);
		expect(new Set(ids(poll.value))).toEqual(new Set(jobs));
		expect(poll.list).toBe(2);
		expect(poll.detail).toBe(0);
		const times = ids(poll.value).map((id) => completedAt(sim, id));
		expect(times).toEqual([...times].sort((a, b) => a - b));
		// The next poll re-reads the overlap once (2 pages, nothing new), then idle polls are single requests.
		sim.clock.advance(MINUTE);
		const overlap = await countRequests(sim, () => trigger.poll());
		expect(overlap.value).toEqual([]);
		expect(overlap.total).toBe(2);
		sim.clock.advance(MINUTE);
		const idle = await countRequests(sim, () => trigger.poll());
		expect(idle.value).toEqual([]);
		expect(idle.total).toBe(1);
	});

	it('jobs that complete while a poll pages through are neither skipped nor duplicated (keyset paging)', async () => {
		const { sim } = ctx;
		startJob(sim);
		sim.clock.advance(5_000);
		const trigger = newTrigger(sim);
		await trigger.poll();
		// C1..C5 complete before the poll; R1..R40 complete between its first and second page; R41..R130 keep running.
		const early = Array.from({ length: 5 }, () => startJob(sim, { urlMs: 5_000 }));
		sim.clock.advance(1_000);
		const racing: string[] = [];
		const running: string[] = [];
		for (let i = 0; i < 130; i++) {
			(i < 40 ? racing : running).push(startJob(sim, { urlMs: i < 40 ? 30_000 : 10 * 24 * 3_600_000 }));
			sim.clock.advance(10);
		}
		sim.clock.advance(20_000);
		const unhook = beforeEachRequest(sim, (n) => {
			if (n === 2) sim.clock.advance(20_000);
		});
		const poll = await countRequests(sim, () => trigger.poll());
		unhook();
		expect(poll.list).toBe(2);
		// With page offsets, the 40 jobs moving to the end would have pushed C1..C5 back onto the page already read.
		expect(new Set(ids(poll.value))).toEqual(new Set([...early, ...racing]));
		expect(poll.value).toHaveLength(45);
		for (let p = 0; p < 3; p++) {
			sim.clock.advance(MINUTE);
			expect(await trigger.poll()).toEqual([]);
		}
		expect(running.every((id) => record(sim, id).status === 'Running')).toBe(true);
	});

	it('when the listing lacks the job data, each completed job costs one more request (1 + K)', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		await trigger.poll();
		const done = [startJob(sim, { urls: 2 }), startJob(sim, { urls: 1 }), startJob(sim, { urls: 3 })];
		startJob(sim, { urls: 1, urlMs: 3_600_000 });
		sim.clock.advance(MINUTE);
		// A service whose list leaves `data` out: the real list page with `data` removed, served once.
		const unhook = beforeEachRequest(sim, async (n, request) => {
			if (n !== 1) return;
			const real = await callPlatform<IDataObject[]>(sim.url, 'GET', '/api/v1/results', {
				query: { ...request.query, testProbe: '1' },
			});
			const stripped = real.body.data.map((listed) => {
				const copy = { ...listed };
				delete copy.data;
				return copy;
			});
			expect(stripped).toHaveLength(4);
			sim.server.faults.add({ kind: 'status', status: 200, routes: [LIST], times: 1, body: { ...real.body, data: stripped } });
		});
		const poll = await countRequests(sim, () => trigger.poll());
		unhook();
		expect(poll.list).toBe(1);
		// Only the three that ended are read by id; the running one is not.
		expect(poll.detail).toBe(3);
		// In completion order: 1 URL, then 2, then 3 (they ran side by side).
		expect(ids(poll.value)).toEqual([done[1], done[0], done[2]]);
		for (const item of poll.value) {
			const full = record(sim, String(item.json.id)).data;
			expect(item.json.urlDetails).toEqual(full.urlDetails);
			expect(item.json.mergedData).toEqual(full.mergedData);
			expect(item.json.summary).toEqual(full.summary);
		}
	});
});

describe('Scraper Bulk Trigger: late writes', () => {
	it('a job that becomes visible late, stamped up to a minute before the cursor, is still emitted once', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		await trigger.poll();
		const onTime = startJob(sim);
		sim.clock.advance(MINUTE);
		expect(ids(await trigger.poll())).toEqual([onTime]);
		const cursor = (trigger.staticData() as { cursor: number }).cursor;
		// Another server stamped these before the cursor but committed them after the poll read the list.
		const late = (offsetMs: number, title: string) => {
			sim.seedResults(TOKEN, 1, {
				type: 'Bulk-AI',
				status: 'Finished',
				scraperId: SCRAPER_A,
				runtime: 1,
				createdAt: cursor - offsetMs - 1000,
				data: {
					mergedData: [{ title }],
					urlDetails: [{ url: `https://late.example.com/${title}`, status: 'Finished', error: null }],
					summary: { totalUrls: 1, successfulUrls: 1, failedUrls: 0, scrapedCount: 1, totalTokenUsage: 10 },
				},
			});
		};
		late(30_000, 'within-overlap');
		late(OVERLAP_MS + 30_000, 'beyond-overlap');
		sim.clock.advance(MINUTE);
		const next = await trigger.poll();
		expect(next.map((item) => (item.json.mergedData as IDataObject[])[0].title)).toEqual(['within-overlap']);
		sim.clock.advance(MINUTE);
		expect(await trigger.poll()).toEqual([]);
	});
});

describe('Scraper Bulk Trigger: failing polls lose nothing', () => {
	async function failMidPoll(fault: { status: number; times: number; retryAfterSeconds?: number }) {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		await trigger.poll();
		const first = Array.from({ length: 150 }, (_, i) => startJob(sim, { urlMs: 1_000 + i * 100 }));
		sim.clock.advance(MINUTE);
		const stateBefore = trigger.staticData();
		const savedBefore = { ...trigger.database };
		const unhook = beforeEachRequest(sim, (n) => {
			if (n === 2) sim.server.faults.add({ kind: 'status', routes: [LIST], ...fault });
		});
		const failing = countRequests(sim, () => trigger.poll());
		const error = await failing.then(
			() => undefined,
			(e: unknown) => e as Error & { description?: string },
		);
		unhook();
		expect(error).toBeDefined();
		// Nothing was written: the cursor and the handled ids are as before the poll, in memory and saved.
		expect(trigger.staticData()).toEqual(stateBefore);
		expect(trigger.database).toEqual(savedBefore);
		// More jobs complete before the next poll, which emits everything exactly once.
		const second = Array.from({ length: 10 }, () => startJob(sim, { urlMs: 2_000 }));
		sim.clock.advance(MINUTE);
		const recovered = await trigger.poll();
		expect(ids(recovered)).toEqual([...first, ...second].sort((a, b) => completedAt(sim, a) - completedAt(sim, b) || (a < b ? -1 : 1)));
		sim.clock.advance(MINUTE);
		expect(await trigger.poll()).toEqual([]);
		return error!;
	}

	it('a 500 on the second page (after the node retried it) fails the poll; the next poll emits everything', async () => {
		const error = await failMidPoll({ status: 500, times: 3 });
		expect(error.message).toBe('Scraper Platform could not complete the request (500): An unexpected error occurred');
		expect(error.description).toContain('Try again in a few minutes');
		// First page, then the second page three times (two retries).
		expect(ctx.sim.server.log.for(LIST).filter((e) => e.status === 500)).toHaveLength(3);
	});

	it('a 429 with a long Retry-After fails the poll at once; the next poll emits everything', async () => {
		const error = await failMidPoll({ status: 429, times: 1, retryAfterSeconds: 120 });
		expect(error.message).toBe('Scraper Platform rate limit reached: too many requests');
		expect(ctx.sim.server.log.for(LIST).filter((e) => e.status === 429)).toHaveLength(1);
	});

	it('a 429 with a short Retry-After is waited out within the poll', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		await trigger.poll();
		const job = startJob(sim);
		sim.clock.advance(MINUTE);
		sim.server.faults.add({ kind: 'status', status: 429, routes: [LIST], times: 1, retryAfterSeconds: 1 });
		const poll = await countRequests(sim, () => trigger.poll());
		expect(ids(poll.value)).toEqual([job]);
		expect(poll.list).toBe(2);
	});

	it('a restart after a failed poll resumes from the saved cursor', async () => {
		const { sim } = ctx;
		const database: TriggerDatabase = { saves: 0 };
		const trigger = newTrigger(sim, {}, database);
		await trigger.poll();
		const a = startJob(sim);
		sim.clock.advance(MINUTE);
		sim.server.faults.add({ kind: 'status', status: 500, routes: [LIST], times: 3 });
		await expect(trigger.poll()).rejects.toThrow('could not complete the request (500)');
		const b = startJob(sim);
		sim.clock.advance(MINUTE);
		const restarted = newTrigger(sim, {}, database);
		expect(ids(await restarted.poll())).toEqual([a, b]);
		sim.clock.advance(MINUTE);
		expect(await restarted.poll()).toEqual([]);
	});
});

describe('Scraper Bulk Trigger: static data stays bounded', () => {
	it('keeps only ids inside the overlap window, however many jobs completed', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		await trigger.poll();
		let emitted = 0;
		for (let minute = 0; minute < 60; minute++) {
			// Three jobs per minute, completing at different moments inside it.
			for (let j = 0; j < 3; j++) startJob(sim, { urlMs: 5_000 + j * 15_000 });
			sim.clock.advance(MINUTE);
			emitted += (await trigger.poll()).length;
			const state = trigger.staticData() as { cursor: number; seen: Record<string, number> };
			for (const at of Object.values(state.seen)) expect(at).toBeGreaterThanOrEqual(state.cursor - OVERLAP_MS);
			expect(Object.keys(state.seen).length).toBeLessThanOrEqual(6);
		}
		expect(emitted).toBe(180);
		const state = trigger.staticData();
		expect(Object.keys(state).sort()).toEqual(['cursor', 'overlapPending', 'seen', 'version']);
		expect(JSON.stringify(state).length).toBeLessThan(1_000);
	});
});
