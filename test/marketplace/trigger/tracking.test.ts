import { DIRECT_READS_PER_POLL, directReadsDue } from '../../../nodes/ScraperMarketplace/trigger/advance';
import { pollRuns } from '../../../nodes/ScraperMarketplace/trigger/collect';
import { ListingView } from '../../../nodes/ScraperMarketplace/trigger/listing';
import { stateOf } from '../../../nodes/ScraperMarketplace/trigger/state';
import { activate, listing, newestFirst, params, pendingRun, T0 } from './pages';
import { HOUR, MINUTE, ResultsModel } from './resultsModel';

/** The runs the Run Trigger remembers between polls, against pages made here and the in-memory results list. */

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
		const outcome = await pollRuns(model.io(), state, params());
		expect([model.pollRequests, model.pollRunReads]).toEqual([2, 1]);
		expect(outcome.state.pending.map((p) => p.id)).toEqual([5001]);
	});

	it('a remembered run that is gone (404) is no longer tracked', async () => {
		const model = new ResultsModel();
		const run = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		model.create({ scraperId: 1, size: 200, durationMs: 0 });
		model.delete(run.id);
		const outcome = await pollRuns(model.io(), stateOf(run.id + 1, [pendingRun(run.id)]), params());
		expect(outcome.state.pending).toEqual([]);
	});

	it('a run seen unfinished 24 hours after its created_at stops being tracked; a later run still triggers', async () => {
		const model = new ResultsModel();
		const stuck = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		const state = await activate(model.io(), params());
		expect(state.pending.map((p) => p.id)).toEqual([stuck.id]);
		model.now += 24 * HOUR + MINUTE;
		const later = model.create({ scraperId: 1, size: 2, durationMs: 0 });
		model.now += 2 * MINUTE;
		const outcome = await pollRuns(model.io(), state, params());
		expect(outcome.emit.map((r) => r.id)).toEqual([later.id]);
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
		let state = await activate(io, params());
		expect(state.pending).toEqual([{ id: stuck.id, since: firstSeen, checked: firstSeen }]);
		model.now = firstSeen + 23 * HOUR;
		state = (await pollRuns(io, state, params())).state;
		expect(state.pending.map((p) => p.id)).toEqual([stuck.id]);
		model.now = firstSeen + 25 * HOUR;
		expect((await pollRuns(io, state, params())).state.pending).toEqual([]);
	});

	it('a run among the emitted ones never triggers again, even when it is remembered or listed as new', async () => {
		const { io } = listing([12, 11, 10]);
		const outcome = await pollRuns(io, stateOf(10, [pendingRun(11)], [11, 12]), params());
		expect(outcome.emit).toEqual([]);
		expect(outcome.state).toMatchObject({ newestRunId: 12, pending: [], emitted: [11, 12] });
	});

	it('a run named twice (a remembered run also listed as new, from a malformed state) is emitted once', async () => {
		const { io } = listing([12, 11, 10]);
		const outcome = await pollRuns(io, stateOf(10, [pendingRun(12), pendingRun(11)]), params());
		expect(outcome.emit.map((r) => r.id)).toEqual([11, 12]);
	});

	it('more than 1,000 unfinished runs at once: the poll is refused with what to do, and nothing is committed', async () => {
		const { io } = listing(newestFirst(2_000, 1_001), newestFirst(2_000, 1_001));
		await expect(pollRuns(io, stateOf(999, []), params())).rejects.toMatchObject({
			message: 'More than 1000 runs are unfinished at once',
			description: expect.stringContaining("Choose fewer scrapers in 'Scrapers'"),
		});
	});
});
