import type { IDataObject } from 'n8n-workflow';

import type { RunListRecord } from '../../nodes/ScraperMarketplace/transport/vocabulary';
import { collectFinishedRuns, initialState } from '../../nodes/ScraperMarketplace/trigger/collect';
import { PAGE_SIZE } from '../../nodes/ScraperMarketplace/trigger/io';
import type { RunTriggerIO } from '../../nodes/ScraperMarketplace/trigger/io';
import { listedRun, ListingView } from '../../nodes/ScraperMarketplace/trigger/listing';
import { MAX_PAGES_PER_POLL, walkNewRuns } from '../../nodes/ScraperMarketplace/trigger/paging';
import type { RunTriggerParameters } from '../../nodes/ScraperMarketplace/trigger/properties';
import { commitState, EMITTED_KEPT, readState, stateOf } from '../../nodes/ScraperMarketplace/trigger/state';
import { DIRECT_READS_PER_POLL, directReadsDue, RunSorter } from '../../nodes/ScraperMarketplace/trigger/tracking';
import type { Page } from '../../nodes/shared/paging/pages';
import { HOUR, MINUTE, NODE, ResultsModel } from './runModel';

/** The Run Trigger's walk of the results list and its view of what it read, against pages made here. */

const T0 = Date.parse('2026-03-01T12:00:00Z');
let nextResultId = 1;
function record(runId: number, status = 'succeeded', extra: Partial<RunListRecord> = {}): RunListRecord {
	return {
		id: nextResultId++,
		scraper_id: 7,
		scraping_run_id: runId,
		scraper_name: 'Leads',
		scraped_url: 'Default',
		status,
		content: [],
		created_at: new Date(T0).toISOString(),
		updated_at: new Date(T0).toISOString(),
		...extra,
	};
}
const page = (records: RunListRecord[], next?: number): Page<RunListRecord> => ({ records, next });

/** An I/O whose listing is these run ids (one result each, newest first as given); counts what is read. */
function listing(runIds: number[], running: number[] = []) {
	const records = runIds.map((id) => record(id, running.includes(id) ? 'running' : 'succeeded'));
	const read = { pages: [] as number[], runs: [] as number[] };
	const io: RunTriggerIO = {
		node: NODE,
		now: () => T0,
		readPage: async (at) => {
			read.pages.push(at);
			const slice = records.slice((at - 1) * PAGE_SIZE, at * PAGE_SIZE);
			return { records: slice, next: slice.length < PAGE_SIZE ? undefined : at + 1 };
		},
		readRun: async (id) => {
			read.runs.push(id);
			const results = records.filter((r) => r.scraping_run_id === id);
			return results.length > 0 ? { id, scraper_id: 7, status: 'succeeded', results, created_at: results[0].created_at } : undefined;
		},
	};
	return { io, read };
}

/** `count` run ids from `top` down. */
const newestFirst = (top: number, count: number) => Array.from({ length: count }, (_, i) => top - i);
const params = (scrapers: number[] = []): RunTriggerParameters => ({ scrapers: new Set(scrapers), output: 'run', includeFailed: false });
const pendingRun = (id: number, checked = 0) => ({ id, since: T0, checked });

describe('Run Trigger: the view of a walk', () => {
	it('takes each result once, the later read winning, when the listing shifted between two page reads', () => {
		const view = new ListingView();
		const [a, b, c] = [record(9, 'running'), record(9, 'running'), record(9)];
		view.add(page([record(10), a, b], 2));
		// Two results were created at the top meanwhile: the next page starts with a and b again, now finished.
		view.add(page([{ ...a, status: 'succeeded' }, { ...b, status: 'succeeded' }, c, record(8)], 3));
		expect(view.results(9)?.map((r) => [r.id, r.status])).toEqual([
			[a.id, 'succeeded'],
			[b.id, 'succeeded'],
			[c.id, 'succeeded'],
		]);
	});

	it('holds a run whole once a later run follows it on the last page read, or the listing ended', () => {
		const view = new ListingView();
		view.add(page([record(12), record(11), record(11)], 2));
		expect([view.holdsWhole(12), view.holdsWhole(11)]).toEqual([true, false]);
		view.add(page([record(11), record(10)]));
		expect([view.holdsWhole(11), view.holdsWhole(10)]).toEqual([true, true]);
	});

	it("leaves runs created during the walk (above the first page's newest) for the next poll", () => {
		const view = new ListingView();
		view.add(page([record(20), record(19)], 2));
		view.add(page([record(25), record(18)], 3));
		expect(view.newest).toBe(20);
		expect(view.results(25)).toBeUndefined();
		expect(view.holdsWhole(25)).toBe(false);
	});

	it('keeps only what `keep` accepts, and records with a usable run id', () => {
		const view = new ListingView((r) => r.scraper_id === 7);
		view.add(page([record(5), record(4, 'succeeded', { scraper_id: 8 }), record(0), { ...record(3), scraping_run_id: 'x' as unknown as number }]));
		expect(view.runIds()).toEqual([5]);
	});

	it('a run from its results in the order of their ids, the first naming the scraper', () => {
		const [x, y] = [record(3), record(3, 'failed')];
		expect(listedRun(3, [y, x])).toMatchObject({ id: 3, scraper_id: 7, scraper_name: 'Leads', status: 'failed', results: [x, y], read: true });
	});
});

describe('Run Trigger: the walk of a poll', () => {
	it('an idle poll reads one page', async () => {
		const { io, read } = listing(newestFirst(500, 300));
		expect(await walkNewRuns(io, new ListingView(), 500, [], DIRECT_READS_PER_POLL)).toBe(0);
		expect(read.pages).toEqual([1]);
	});

	it('reads on while a page ends inside new runs, and stops on the first page that passes the newest seen', async () => {
		const { io, read } = listing(newestFirst(500, 400));
		await walkNewRuns(io, new ListingView(), 250, [], DIRECT_READS_PER_POLL);
		// Pages 1 and 2 end at runs 401 and 301 (new), page 3 at 201 (seen): it is the last read.
		expect(read.pages).toEqual([1, 2, 3]);
	});

	it('a page shorter than a full one is the last', async () => {
		const { io, read } = listing(newestFirst(500, 150));
		await walkNewRuns(io, new ListingView(), 0, [], DIRECT_READS_PER_POLL);
		expect(read.pages).toEqual([1, 2]);
	});

	it('past the new runs, reads on only while pages hold remembered runs not yet read whole', async () => {
		const { io, read } = listing(newestFirst(500, 400));
		const extra = await walkNewRuns(io, new ListingView(), 500, [490, 395, 250, 50].map((id) => pendingRun(id)), DIRECT_READS_PER_POLL);
		// Page 1 (500..401) holds 490, page 2 holds 395, page 3 holds 250; page 4 (200..101) none: the walk stops there.
		expect(read.pages).toEqual([1, 2, 3, 4]);
		expect(extra).toBe(3);
	});

	it('a remembered run far behind the new ones costs no page: it is read directly', async () => {
		const { io, read } = listing(newestFirst(25_000, 20_001));
		const view = new ListingView();
		expect(await walkNewRuns(io, view, 25_000, [pendingRun(5_000)], DIRECT_READS_PER_POLL)).toBe(0);
		expect(read.pages).toEqual([1]);
		expect(directReadsDue([pendingRun(5_000)], view, DIRECT_READS_PER_POLL).map((r) => r.id)).toEqual([5_000]);
	});

	it(`refuses a poll of more than ${MAX_PAGES_PER_POLL} pages of new runs without reading one more, and says how to go on`, async () => {
		const { io, read } = listing(newestFirst(MAX_PAGES_PER_POLL * PAGE_SIZE + 10, MAX_PAGES_PER_POLL * PAGE_SIZE + 5));
		const walk = walkNewRuns(io, new ListingView(), 0, [], DIRECT_READS_PER_POLL);
		await expect(walk).rejects.toThrow('More than 100,000 results of new runs since the last check');
		await expect(walkNewRuns(io, new ListingView(), 0, [], 0)).rejects.toMatchObject({ description: expect.stringContaining('rename this trigger node') });
		expect(read.pages).toHaveLength(2 * MAX_PAGES_PER_POLL);
	});
});

describe('Run Trigger: remembered runs', () => {
	it('direct reads go to the runs checked longest ago, at most the constant per poll', () => {
		const pending = Array.from({ length: 30 }, (_, i) => pendingRun(100 + i, 1_000 - i));
		const due = directReadsDue(pending, new ListingView(), DIRECT_READS_PER_POLL);
		expect(due).toHaveLength(DIRECT_READS_PER_POLL);
		expect(due[0].id).toBe(129);
		expect(directReadsDue(pending, new ListingView(), -3)).toEqual([]);
	});

	it('one stuck run with 20,000 newer results: each poll reads one page and the run itself', async () => {
		const model = new ResultsModel();
		model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		for (let i = 0; i < 5_000; i++) model.create({ scraperId: 2, size: 4, durationMs: 0 }, model.now + i);
		model.now += HOUR;
		const state = stateOf(model.runs.size + 5000, [pendingRun(5001, T0)]);
		model.startPoll();
		const outcome = await collectFinishedRuns(model.io(), state, params());
		expect([model.pollRequests, model.pollRunReads]).toEqual([2, 1]);
		expect(outcome.state.pending.map((p) => p.id)).toEqual([5001]);
	});

	it('a remembered run that is gone (404) is no longer tracked', async () => {
		const model = new ResultsModel();
		const run = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		model.create({ scraperId: 1, size: 200, durationMs: 0 });
		model.delete(run.id);
		const outcome = await collectFinishedRuns(model.io(), stateOf(run.id + 1, [pendingRun(run.id)]), params());
		expect(outcome.state.pending).toEqual([]);
	});

	it('a run seen unfinished 24 hours after its created_at stops being tracked; a later run still triggers', async () => {
		const model = new ResultsModel();
		const stuck = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		const state = await initialState(model.io(), params());
		expect(state.pending.map((p) => p.id)).toEqual([stuck.id]);
		model.now += 24 * HOUR + MINUTE;
		const later = model.create({ scraperId: 1, size: 2, durationMs: 0 });
		model.now += 2 * MINUTE;
		const outcome = await collectFinishedRuns(model.io(), state, params());
		expect(outcome.runs.map((r) => r.id)).toEqual([later.id]);
		expect(outcome.state.pending).toEqual([]);
	});

	it('without a readable created_at, the age counts from when the trigger first saw the run', async () => {
		const model = new ResultsModel();
		const stuck = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		const io = model.io();
		const readPage = io.readPage;
		io.readPage = async (at) => {
			const answer = await readPage(at);
			return { ...answer, records: answer.records.map((r) => ({ ...r, created_at: 'not a date' })) };
		};
		const firstSeen = model.now + 3 * HOUR;
		model.now = firstSeen;
		let state = await initialState(io, params());
		expect(state.pending).toEqual([{ id: stuck.id, since: firstSeen, checked: firstSeen }]);
		model.now = firstSeen + 23 * HOUR;
		state = (await collectFinishedRuns(io, state, params())).state;
		expect(state.pending.map((p) => p.id)).toEqual([stuck.id]);
		model.now = firstSeen + 25 * HOUR;
		expect((await collectFinishedRuns(io, state, params())).state.pending).toEqual([]);
	});

	it('a run among the emitted ones never triggers again, even when it is remembered or listed as new', async () => {
		const { io } = listing([12, 11, 10]);
		const outcome = await collectFinishedRuns(io, stateOf(10, [pendingRun(11)], [11, 12]), params());
		expect(outcome.runs).toEqual([]);
		expect(outcome.state).toMatchObject({ newestRunId: 12, pending: [], emitted: [11, 12] });
	});

	it('a run named twice (a remembered run also listed as new, from a malformed state) is emitted once', async () => {
		const { io } = listing([12, 11, 10]);
		const outcome = await collectFinishedRuns(io, stateOf(10, [pendingRun(12), pendingRun(11)]), params());
		expect(outcome.runs.map((r) => r.id)).toEqual([11, 12]);
	});

	it('more than 1,000 unfinished runs at once: the poll is refused with what to do, and nothing is committed', async () => {
		const { io } = listing(newestFirst(2_000, 1_001), newestFirst(2_000, 1_001));
		await expect(collectFinishedRuns(io, stateOf(999, []), params())).rejects.toMatchObject({
			message: 'More than 1000 runs are unfinished at once',
			description: expect.stringContaining("Choose fewer scrapers in 'Scrapers'"),
		});
	});
});

describe('Run Trigger: activation', () => {
	it('remembers every run of the chosen scrapers still going, reading back through the last 24 hours', async () => {
		const model = new ResultsModel();
		for (let i = 0; i < 3_000; i++) model.create({ scraperId: 1, size: 1, durationMs: 0 }, model.now - 30 * HOUR + i);
		const behind = model.create({ scraperId: 1, size: 1, durationMs: 9 * HOUR }, model.now - 5 * HOUR);
		for (let i = 0; i < 320; i++) model.create({ scraperId: i % 2 === 0 ? 1 : 2, size: 1, durationMs: 0 }, model.now - 4 * HOUR + i);
		const going = Array.from({ length: 250 }, (_, i) => model.create({ scraperId: 1 + (i % 2), size: 1, durationMs: HOUR }));
		model.startPoll();
		const state = await initialState(model.io(), params([1]));
		// The run behind 320 finished ones is remembered too; runs of scraper 2 are not.
		expect(state.pending.map((p) => p.id)).toEqual([behind, ...going.filter((r) => r.scraperId === 1)].map((r) => r.id));
		expect(state.pending[0]).toEqual({ id: behind.id, since: behind.createdAt, checked: model.now });
		// 571 results of the last 24 hours: pages 1-6; page 7 holds only older ones, and is the last read.
		expect([model.pollRequests, model.pollRunReads]).toEqual([7, 0]);
		expect(state.newestRunId).toBe(going[249].id);
	});

	it('a run cut by a page boundary, ended on the first page but still going on the next, is remembered', async () => {
		const model = new ResultsModel();
		for (let i = 0; i < 150; i++) model.create({ scraperId: 1, size: 1, durationMs: 0 }, model.now - HOUR + i);
		// 60 results ending from the last one back: the 50 on page 1 have ended, 5 of the 10 on page 2 have not.
		const cut = model.create({ scraperId: 1, size: 60, durationMs: -55 * MINUTE, lastFirst: true });
		for (let i = 0; i < 50; i++) model.create({ scraperId: 1, size: 1, durationMs: 0 });
		const state = await initialState(model.io(), params());
		expect(state.pending.map((p) => p.id)).toEqual([cut.id]);
	});

	it('an idle account with a long history costs the pages of the last day, then one request a poll', async () => {
		const model = new ResultsModel();
		for (let i = 0; i < 10_000; i++) model.create({ scraperId: 1, size: 1, durationMs: 0 }, model.now - 100_000_000 + i * 10_000);
		model.startPoll();
		const state = await initialState(model.io(), params());
		expect(state.pending).toEqual([]);
		// 10,000 runs 10 s apart up to now: those of the last 24 hours (8,640) fill 87 pages, the 88th holds older ones.
		expect(model.pollRequests).toBe(88);
		model.startPoll();
		await collectFinishedRuns(model.io(), state, params());
		expect(model.pollRequests).toBe(1);
	});

	it('runs older than the age limit are not remembered, and an empty listing starts from 0', async () => {
		const model = new ResultsModel();
		expect(await initialState(model.io(), params())).toEqual({ version: 2, newestRunId: 0, pending: [], emitted: [] });
		model.create({ scraperId: 1, size: 1, durationMs: Infinity }, model.now - 25 * HOUR);
		expect((await initialState(model.io(), params())).pending).toEqual([]);
	});
});

describe('Run Trigger: state', () => {
	it('reads its own shapes only: version 2, and version 1 migrated with its pending runs kept', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ version: 3, newestRunId: 5, pending: [] })).toBeUndefined();
		expect(readState({ version: 1, newestRunId: 5, pending: [4, 'x', 2, 4] })).toEqual({
			version: 2,
			newestRunId: 5,
			pending: [
				{ id: 2, checked: 0 },
				{ id: 4, checked: 0 },
			],
			emitted: [],
		});
	});

	it('is written whole as JSON and read back the same; pending in run order, the newest 1,000 emitted ids', () => {
		const emitted = Array.from({ length: EMITTED_KEPT + 5 }, (_, i) => 1 + i);
		const state = stateOf(900, [pendingRun(8, 5), { id: 3, checked: 0 }], emitted);
		expect(state.pending.map((p) => p.id)).toEqual([3, 8]);
		expect(state.emitted).toEqual(emitted.slice(5));
		const staticData: IDataObject = {};
		commitState(staticData, state);
		expect(readState(JSON.parse(JSON.stringify(staticData)) as IDataObject)).toEqual(state);
		expect(JSON.stringify(staticData)).not.toContain('null');
	});

	it('a run remembered by version 1 stays tracked: its age from its created_at once read, else from the first poll that keeps it', async () => {
		const model = new ResultsModel();
		const run = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		model.create({ scraperId: 1, size: 150, durationMs: 0 });
		model.now += HOUR;
		const migrated = readState({ version: 1, newestRunId: run.id + 1, pending: [run.id] })!;
		const outcome = await collectFinishedRuns(model.io(), migrated, params());
		expect(outcome.state.pending).toEqual([{ id: run.id, since: run.createdAt, checked: model.now }]);
		const sorter = new RunSorter(params(), [], 42_000);
		sorter.keep({ id: 9, checked: 0 });
		expect(sorter.outcome(10, NODE).state.pending).toEqual([{ id: 9, since: 42_000, checked: 0 }]);
	});
});
