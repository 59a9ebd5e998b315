import { MARKETPLACE_ROUTES, MarketplaceSimulator } from '../../simulator/marketplace';
import { api, countRequests, createScraper, newRunTrigger, runIds, startRun, useRunSimulator } from './helpers';

/**
 * The Run Trigger through n8n-core's real PollContext against the simulator, where the results list misbehaves as
 * a busy service's does: runs created between two page reads of one poll (the listing shifts under it), hundreds
 * of runs going at activation, a run stuck behind 20,000 newer results, a run that never finishes.
 */

const QUEUED_MS = 1_000;
const RUN_MS = 3_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DONE = QUEUED_MS + RUN_MS;

const ctx = useRunSimulator({ queuedMs: QUEUED_MS, runMs: RUN_MS });

beforeEach(() => {
	ctx.sim.options.runMs = RUN_MS;
	// These tests start hundreds of runs over HTTP; the per-token rate limit is not what they are about.
	ctx.sim.setRateLimit(100_000, 60);
});

/** Starts a run that stays running for `ms` (simulated). */
async function startLongRun(scraperId: number, ms: number, urls = 1): Promise<number> {
	ctx.sim.options.runMs = ms;
	try {
		return await startRun(ctx.sim, scraperId, { urls });
	} finally {
		ctx.sim.options.runMs = RUN_MS;
	}
}

/** Extracted records of a run's results, read directly (what One Item per Record must give, item for item). */
async function recordCount(runId: number): Promise<number> {
	const { data } = await api<{ data: { results: Array<{ content: unknown }> } }>(ctx.sim, 'GET', `/api/scraping-runs/${runId}`);
	return data.results.reduce((sum, result) => sum + (Array.isArray(result.content) ? result.content.length : 1), 0);
}

describe('Scraper Run Trigger: a listing that shifts, grows and holds stuck runs', () => {
	it.each(['run', 'records'])(
		'Output %s: a 4-result run cut by the first page, with runs created between the two page reads, emits exactly its 4 results, once',
		async (output) => {
			const { scraperId } = await createScraper(ctx.sim, 'Straddle');
			ctx.sim.clock.advance(DONE);
			const trigger = newRunTrigger(ctx.sim, { output });
			await trigger.poll();
			const straddling = await startRun(ctx.sim, scraperId, { urls: 4 });
			const after: number[] = [];
			// 98 results after it: its 4 results are at places 99-102 of the listing, two on page 1, two on page 2.
			for (let i = 0; i < 98; i++) after.push(await startRun(ctx.sim, scraperId));
			ctx.sim.clock.advance(DONE);

			// Two runs are created while the poll is between its first and second page: page 2 repeats the end of page 1.
			let listReads = 0;
			const inserted: number[] = [];
			ctx.sim.server.beforeHandle = async (request) => {
				if (request.route === MARKETPLACE_ROUTES.listResults && ++listReads === 2) inserted.push(await startRun(ctx.sim, scraperId), await startRun(ctx.sim, scraperId));
			};
			const items = await trigger.poll();
			ctx.sim.server.beforeHandle = undefined;
			expect(listReads).toBe(2);
			expect(inserted).toHaveLength(2);

			const ofStraddling = items.filter((item) => item.json.scraping_run_id === straddling);
			if (output === 'run') {
				expect(runIds(items)).toEqual([straddling, ...after]);
				expect(ofStraddling[0].json).toMatchObject({ results_total: 4, results_succeeded: 4 });
			} else {
				expect(ofStraddling).toHaveLength(await recordCount(straddling));
				expect(new Set(ofStraddling.map((item) => item.json.result_id)).size).toBe(4);
				expect(new Set(runIds(items))).toEqual(new Set([straddling, ...after]));
			}
			// The runs created during that poll trigger at the next one, once.
			ctx.sim.clock.advance(DONE);
			expect([...new Set(runIds(await trigger.poll()))]).toEqual(inserted);
			expect(await trigger.poll()).toEqual([]);
		},
	);

	it('250 runs going at activation all trigger when they finish, in the first poll after', async () => {
		const { scraperId, runId: first } = await createScraper(ctx.sim, 'Busy');
		const going: number[] = [];
		for (let i = 0; i < 250; i++) going.push(await startLongRun(scraperId, 10 * MINUTE));
		const trigger = newRunTrigger(ctx.sim);
		const activation = await countRequests(ctx.sim, () => trigger.poll());
		// 251 results of running runs: three pages, the last one short.
		expect(activation).toMatchObject({ value: [], list: 3, runs: 0 });

		ctx.sim.clock.advance(11 * MINUTE);
		const finished = await countRequests(ctx.sim, () => trigger.poll());
		expect(runIds(finished.value)).toEqual([first, ...going]);
		expect(finished.list + finished.runs).toBeLessThanOrEqual(1 + 20);
		expect(await trigger.poll()).toEqual([]);
	});

	it('a stuck run with 20,000 newer results: a poll costs what is new plus one direct read, never the history behind it', async () => {
		const { scraperId } = await createScraper(ctx.sim, 'Hub');
		ctx.sim.clock.advance(DONE);
		const stuck = await startLongRun(scraperId, 20 * HOUR);
		const trigger = newRunTrigger(ctx.sim);
		await trigger.poll();
		expect(trigger.staticData().pending).toMatchObject([{ id: stuck }]);

		const burst: number[] = [];
		for (let i = 0; i < 200; i++) burst.push(await startRun(ctx.sim, scraperId, { urls: 100 }));
		ctx.sim.clock.advance(DONE);
		const busy = await countRequests(ctx.sim, () => trigger.poll());
		expect(runIds(busy.value)).toEqual(burst);
		// 200 pages of new results; the 201st, which passes them, holds the stuck run too: no direct read then.
		expect(busy).toMatchObject({ list: 201, runs: 0 });

		for (let poll = 0; poll < 3; poll++) {
			ctx.sim.clock.advance(MINUTE);
			expect(await countRequests(ctx.sim, () => trigger.poll())).toEqual({ value: [], list: 1, runs: 1 });
		}
		// It finishes within the age limit: it triggers, once.
		ctx.sim.clock.advance(20 * HOUR);
		expect(runIds(await trigger.poll())).toEqual([stuck]);
		expect(trigger.staticData().pending).toEqual([]);
	}, 60_000);

	it('a remembered run deleted in the service (its direct read answers 404) is no longer tracked', async () => {
		const { scraperId } = await createScraper(ctx.sim, 'Doomed');
		ctx.sim.clock.advance(DONE);
		const doomed = await startLongRun(scraperId, 10 * HOUR);
		const trigger = newRunTrigger(ctx.sim);
		await trigger.poll();
		// 150 results after it, so the later walks of new runs end before reaching it: it is read directly.
		await startRun(ctx.sim, scraperId, { urls: 150 });
		ctx.sim.clock.advance(DONE);
		await trigger.poll();
		expect(trigger.staticData().pending).toMatchObject([{ id: doomed }]);
		const newer: number[] = [];
		for (let i = 0; i < 2; i++) newer.push(await startRun(ctx.sim, scraperId, { urls: 100 }));
		ctx.sim.clock.advance(DONE);
		await api(ctx.sim, 'DELETE', `/api/scraping-runs/${doomed}`);
		expect(await countRequests(ctx.sim, () => trigger.poll())).toMatchObject({ list: 3, runs: 1 });
		expect(trigger.staticData().pending).toEqual([]);
		expect(await countRequests(ctx.sim, () => trigger.poll())).toEqual({ value: [], list: 1, runs: 0 });
	});

	it('a run unfinished 24 hours after it started stops being tracked (it never triggers); runs after it still do', async () => {
		// The trigger counts a run's age on n8n's clock: here it moves with the service's (a simulator of its own, whose
		// clock has not been advanced), a day in a few polls.
		const realNow = Date.now.bind(Date);
		let shift = 0;
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
		const own = new MarketplaceSimulator({ queuedMs: QUEUED_MS, runMs: RUN_MS });
		await own.listen();
		try {
			const { scraperId } = await createScraper(own, 'Warm-up');
			shift += DONE;
			own.options.runMs = 30 * 24 * HOUR;
			const stuck = await startRun(own, scraperId);
			own.options.runMs = RUN_MS;
			const trigger = newRunTrigger(own);
			await trigger.poll();
			shift += 23 * HOUR;
			expect(await trigger.poll()).toEqual([]);
			expect(trigger.staticData().pending).toMatchObject([{ id: stuck }]);

			shift += 2 * HOUR;
			const later = await startRun(own, scraperId);
			shift += DONE;
			expect(runIds(await trigger.poll())).toEqual([later]);
			expect(trigger.staticData().pending).toEqual([]);
			expect(await countRequests(own, () => trigger.poll())).toEqual({ value: [], list: 1, runs: 0 });

			// When it finishes at last, it does not trigger; a run after it does.
			shift += 30 * 24 * HOUR;
			const last = await startRun(own, scraperId);
			shift += DONE;
			expect(runIds(await trigger.poll())).toEqual([last]);
		} finally {
			clock.mockRestore();
			await own.close();
		}
	});
});
