import { pollRuns } from '../../../nodes/ScraperMarketplace/trigger/collect';
import { activate, params } from './pages';
import { HOUR, MINUTE, ResultsModel } from './resultsModel';

/** The Run Trigger's first activation (`advance` without a state), against the in-memory results list. */

describe('Run Trigger: activation', () => {
	it('remembers every run of the chosen scrapers still going, reading back through the last 24 hours', async () => {
		const model = new ResultsModel();
		for (let i = 0; i < 3_000; i++) model.create({ scraperId: 1, size: 1, durationMs: 0 }, model.now - 30 * HOUR + i);
		const behind = model.create({ scraperId: 1, size: 1, durationMs: 9 * HOUR }, model.now - 5 * HOUR);
		for (let i = 0; i < 320; i++) model.create({ scraperId: i % 2 === 0 ? 1 : 2, size: 1, durationMs: 0 }, model.now - 4 * HOUR + i);
		const going = Array.from({ length: 250 }, (_, i) => model.create({ scraperId: 1 + (i % 2), size: 1, durationMs: HOUR }));
		model.startPoll();
		const state = await activate(model.io(), params([1]));
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
		const state = await activate(model.io(), params());
		expect(state.pending.map((p) => p.id)).toEqual([cut.id]);
	});

	it('an idle account with a long history costs the pages of the last day, then one request a poll', async () => {
		const model = new ResultsModel();
		for (let i = 0; i < 10_000; i++) model.create({ scraperId: 1, size: 1, durationMs: 0 }, model.now - 100_000_000 + i * 10_000);
		model.startPoll();
		const state = await activate(model.io(), params());
		expect(state.pending).toEqual([]);
		// 10,000 runs 10 s apart up to now: those of the last 24 hours (8,640) fill 87 pages, the 88th holds older ones.
		expect(model.pollRequests).toBe(88);
		model.startPoll();
		await pollRuns(model.io(), state, params());
		expect(model.pollRequests).toBe(1);
	});

	it('runs older than the age limit are not remembered, and an empty listing starts from 0', async () => {
		const model = new ResultsModel();
		expect(await activate(model.io(), params())).toEqual({ version: 2, newestRunId: 0, pending: [], emitted: [] });
		model.create({ scraperId: 1, size: 1, durationMs: Infinity }, model.now - 25 * HOUR);
		expect((await activate(model.io(), params())).pending).toEqual([]);
	});
});
