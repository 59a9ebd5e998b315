import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_ROUTES } from '../../simulator/marketplace';
import type { TriggerDatabase } from '../../harness/trigger';
import * as run from './helpers';

/**
 * The Scraper Run Trigger through n8n-core's real PollContext: static data saved as n8n saves it, a new instance
 * over the same database is a restart. Runs are started over HTTP as the service's users (or its schedule) start
 * them; the simulated clock makes them finish.
 */

const QUEUED_MS = 1_000;
const RUN_MS = 3_000;
const MINUTE = 60_000;

const ctx = run.useRunSimulator({ queuedMs: QUEUED_MS, runMs: RUN_MS });

const createScraper = (name: string) => run.createScraper(ctx.sim, name);
const startRun = (scraperId: number, options?: { urls?: number; fail?: boolean }) => run.startRun(ctx.sim, scraperId, options);
const newTrigger = (parameters?: Parameters<typeof run.newRunTrigger>[1], database?: TriggerDatabase) => run.newRunTrigger(ctx.sim, parameters, database);
const { runIds, scrapersFilter } = run;

async function listRequests<T>(action: () => Promise<T>): Promise<{ value: T; requests: number }> {
	const { value, list } = await run.countRequests(ctx.sim, action);
	return { value, requests: list };
}

describe('Scraper Run Trigger', () => {
	it('activation remembers where it is (one request, nothing emitted); a run that finishes later triggers once', async () => {
		const { scraperId, runId: first } = await createScraper('Plumbers');
		ctx.sim.clock.advance(MINUTE);
		const trigger = newTrigger();
		const activation = await listRequests(() => trigger.poll());
		expect(activation).toEqual({ value: [], requests: 1 });

		const run = await startRun(scraperId, { urls: 2 });
		expect(await trigger.poll()).toEqual([]); // queued
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		const items = await trigger.poll();
		expect(runIds(items)).toEqual([run]);
		expect(items[0].json).toMatchObject({ scraper_id: scraperId, status: 'succeeded', completed: true, results_total: 2, results_succeeded: 2 });
		expect(runIds(items)).not.toContain(first);
		ctx.sim.clock.advance(MINUTE);
		expect(await trigger.poll()).toEqual([]);
	});

	it('a run still going at activation triggers when it finishes', async () => {
		const { scraperId } = await createScraper('Roofers');
		const running = await startRun(scraperId);
		const trigger = newTrigger();
		await trigger.poll();
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		expect(runIds(await trigger.poll())).toEqual(expect.arrayContaining([running]));
	});

	it('an idle poll costs one request, with 1, 100 or 1,000 runs stored', async () => {
		for (const stored of [1, 100, 1_000]) {
			ctx.sim.reset();
			ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, stored);
			const trigger = newTrigger();
			await trigger.poll();
			ctx.sim.clock.advance(MINUTE);
			const idle = await listRequests(() => trigger.poll());
			expect(idle).toEqual({ value: [], requests: 1 });
		}
	});

	it('exactly once over 500+ runs: bursts between polls, runs still going, failing polls and restarts', async () => {
		const scrapers = [await createScraper('Alpha'), await createScraper('Beta'), await createScraper('Gamma')].map((s) => s.scraperId);
		ctx.sim.clock.advance(MINUTE);
		const database: TriggerDatabase = { saves: 0 };
		let trigger = newTrigger({ options: { includeFailed: true } }, database);
		await trigger.poll();

		const started: number[] = [];
		const emitted: number[] = [];
		let polls = 0;
		for (let round = 0; round < 40; round++) {
			// A burst of 0-30 runs, some with several results, some failing, across the scrapers; once a burst of 150
			// runs (about 300 results), so a poll pages through runs that straddle page boundaries.
			const burst = round === 20 ? 150 : (round * 7) % 31;
			for (let i = 0; i < burst; i++) {
				started.push(await startRun(scrapers[(round + i) % 3], { urls: 1 + ((round + i) % 3), fail: (round + i) % 11 === 0 }));
			}
			// Runs finish at different times: part of the burst is still queued or running at the next poll.
			ctx.sim.clock.advance(((round % 4) + 1) * 1_500);
			if (round % 9 === 4) {
				// The service fails this poll: nothing is committed, nothing is lost.
				ctx.sim.server.faults.add({ kind: 'status', status: 503, times: 4, routes: [MARKETPLACE_ROUTES.listResults] });
				await expect(trigger.poll()).rejects.toThrow();
				ctx.sim.server.faults.clear();
			}
			if (round % 10 === 7) trigger = newTrigger({ options: { includeFailed: true } }, database); // n8n restarts
			emitted.push(...runIds(await trigger.poll()));
			polls++;
		}
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		emitted.push(...runIds(await trigger.poll()));

		expect(started.length).toBeGreaterThanOrEqual(500);
		expect(new Set(emitted).size).toBe(emitted.length); // no duplicates
		expect([...emitted].sort((a, b) => a - b)).toEqual([...started].sort((a, b) => a - b)); // none missed
		expect(polls).toBe(40);
		// Bounded state: the newest run id, the unfinished runs (none left now) and the runs emitted last.
		expect(trigger.staticData()).toEqual({ version: 2, newestRunId: Math.max(...started), pending: [], emitted: emitted.slice(-1_000) });
	}, 120_000);

	it('Scrapers keeps only the chosen scrapers; by default runs in which every result failed are skipped', async () => {
		const a = (await createScraper('Chosen')).scraperId;
		const b = (await createScraper('Other')).scraperId;
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		const trigger = newTrigger({ scrapers: scrapersFilter(a) });
		await trigger.poll();
		const ok = await startRun(a);
		await startRun(b);
		await startRun(a, { fail: true });
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		expect(runIds(await trigger.poll())).toEqual([ok]);

		const withFailed = newTrigger({ scrapers: scrapersFilter(a), options: { includeFailed: true } });
		await withFailed.poll();
		const failed = await startRun(a, { fail: true });
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		const items = await withFailed.poll();
		expect(runIds(items)).toEqual([failed]);
		expect(items[0].json).toMatchObject({ status: 'failed', results_failed: 1 });
	});

	it('One Item per Record: each extracted lead as an item with scraper, run and result ids', async () => {
		const { scraperId } = await createScraper('Records');
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		const trigger = newTrigger({ output: 'records' });
		await trigger.poll();
		const run = await startRun(scraperId, { urls: 2 });
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		const items = await trigger.poll();
		expect(items.length).toBeGreaterThan(2);
		for (const item of items) expect(item.json).toMatchObject({ scraper_id: scraperId, scraping_run_id: run, result_id: expect.any(Number) });
	});

	it('Fetch Test Event: the newest finished run, read whole, without touching the state', async () => {
		const { scraperId } = await createScraper('Sample');
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		const finished = await startRun(scraperId, { urls: 3 });
		ctx.sim.clock.advance(QUEUED_MS + RUN_MS);
		await startRun(scraperId); // still queued: not a sample
		const trigger = newTrigger();
		const before = trigger.staticData();
		const sample = await trigger.fetchTestEvent();
		expect(runIds(sample)).toEqual([finished]);
		expect(sample[0].json.results_total).toBe(3);
		expect(trigger.staticData()).toEqual(before);
	});

	it('Fetch Test Event with no finished run says how to get one', async () => {
		await expect(newTrigger().fetchTestEvent()).rejects.toThrow(/No finished scraping run found yet/);
	});
});
