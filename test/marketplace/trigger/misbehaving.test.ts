import type { RunTriggerIO } from '../../../nodes/ScraperMarketplace/trigger/io';
import type { RunTriggerParameters } from '../../../nodes/ScraperMarketplace/trigger/properties';
import { HOUR, MINUTE, ModelTrigger, ResultsModel } from './resultsModel';

/**
 * The Run Trigger over the in-memory results list (`resultsModel.ts`) when the service misbehaves for a while: one
 * remembered run whose direct read keeps failing, an empty page in the middle of the listing (or at its true end), a
 * page served twice. Whatever happens: the poll goes on for the other runs, no run is lost, emitted cut or emitted twice.
 */

const params: RunTriggerParameters = { scrapers: new Set(), output: 'run', includeFailed: true };

/** A failed request as n8n's HTTP helper gives it: a status in `httpCode`. */
const answered = (httpCode: string) => Object.assign(new Error(`The service answered ${httpCode}`), { httpCode });

/** The model, with hooks on its I/O: a direct read that fails, pages answered otherwise. */
class FlakyModel extends ResultsModel {
	failRead?: (id: number) => Error | undefined;
	servePage?: (page: number, read: RunTriggerIO['readPage']) => ReturnType<RunTriggerIO['readPage']>;

	io(): RunTriggerIO {
		const base = super.io();
		return {
			...base,
			readRun: async (id) => {
				const failed = this.failRead?.(id);
				if (failed) throw failed;
				return await base.readRun(id);
			},
			readPage: async (page) => await (this.servePage ? this.servePage(page, base.readPage) : base.readPage(page)),
		};
	}
}

/** A remembered stuck run pushed off the first page by 150 newer results, so later polls read it directly (3 hours old). */
async function stuckBehindNewer(): Promise<{ model: FlakyModel; trigger: ModelTrigger; stuck: number }> {
	const model = new FlakyModel();
	const stuck = model.create({ scraperId: 1, size: 1, durationMs: Infinity }).id;
	const trigger = new ModelTrigger(model, params);
	await trigger.poll();
	model.create({ scraperId: 1, size: 150, durationMs: 0 });
	model.now += 3 * HOUR;
	await trigger.poll();
	expect(trigger.state()!.pending.map((p) => p.id)).toEqual([stuck]);
	return { model, trigger, stuck };
}

const pendingIds = (trigger: ModelTrigger) => trigger.state()!.pending.map((p) => p.id);

describe('Run Trigger: a service that misbehaves for a while', () => {
	it.each(['504', '500'])('a remembered run whose direct read fails (%s) does not fail the poll: it stays remembered, new runs still trigger', async (code) => {
		const { model, trigger, stuck } = await stuckBehindNewer();
		model.failRead = (id) => (id === stuck ? answered(code) : undefined);
		for (let poll = 0; poll < 3; poll++) {
			const later = model.create({ scraperId: 1, size: 2, durationMs: 0 });
			model.now += HOUR;
			expect((await trigger.poll()).runs.map((r) => r.id)).toEqual([later.id]);
			expect(pendingIds(trigger)).toEqual([stuck]);
		}
		// Readable again: it is read directly, as before.
		model.failRead = undefined;
		await trigger.poll();
		expect(model.pollRunReads).toBe(1);
	});

	it('one remembered run that cannot be read does not hold up another: that one triggers when it finishes', async () => {
		const model = new FlakyModel();
		const stuck = model.create({ scraperId: 1, size: 1, durationMs: Infinity }).id;
		const slow = model.create({ scraperId: 1, size: 1, durationMs: 5 * HOUR }).id;
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		model.create({ scraperId: 1, size: 150, durationMs: 0 });
		model.now += 3 * HOUR;
		await trigger.poll();
		expect(pendingIds(trigger)).toEqual([stuck, slow]);
		model.failRead = (id) => (id === stuck ? answered('504') : undefined);
		model.now += 3 * HOUR;
		expect((await trigger.poll()).runs.map((r) => r.id)).toEqual([slow]);
		expect(pendingIds(trigger)).toEqual([stuck]);
	});

	it('a remembered run that cannot be read stops being tracked once past the age limit (its time was stored when remembered)', async () => {
		const { model, trigger, stuck } = await stuckBehindNewer();
		model.failRead = (id) => (id === stuck ? new Error('socket hang up') : undefined);
		model.now += 20 * HOUR;
		await trigger.poll();
		expect(pendingIds(trigger)).toEqual([stuck]);
		model.now += 2 * HOUR;
		await trigger.poll();
		expect(trigger.state()!.pending).toEqual([]);
		// Nothing is read for it any more.
		await trigger.poll();
		expect(model.pollRunReads).toBe(0);
	});

	it('a run carried over from state version 1 (no time kept) that cannot be read: its age counts from that poll', async () => {
		const { model, trigger, stuck } = await stuckBehindNewer();
		trigger.downgradeToVersion1();
		model.failRead = (id) => (id === stuck ? answered('503') : undefined);
		await trigger.poll();
		expect(trigger.state()!.pending).toEqual([{ id: stuck, since: model.now, checked: expect.any(Number) }]);
		model.now += 25 * HOUR;
		await trigger.poll();
		expect(trigger.state()!.pending).toEqual([]);
	});

	it.each(['401', '403'])('an account refused (%s) on a direct read still fails the poll, and nothing is committed', async (code) => {
		const { model, trigger, stuck } = await stuckBehindNewer();
		model.failRead = () => answered(code);
		const before = trigger.state();
		await expect(trigger.poll()).rejects.toMatchObject({ httpCode: code });
		expect(trigger.state()).toEqual(before);
		expect(pendingIds(trigger)).toEqual([stuck]);
	});

	it('an empty page after a full one: no remembered run is dropped, no new run is emitted or passed, the next poll emits them all whole', async () => {
		const model = new FlakyModel();
		const going = model.create({ scraperId: 1, size: 1, durationMs: 2 * HOUR }).id;
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		const top = trigger.state()!.newestRunId;
		const news = Array.from({ length: 75 }, () => model.create({ scraperId: 1, size: 2, durationMs: MINUTE }).id);
		model.now += 5 * MINUTE;
		model.servePage = async (page, read) => (page === 2 ? { records: [], next: undefined } : await read(page));
		// Runs 26-75 fill page 1 (100 results): page 2 may be the end or a page lost, so none is taken yet.
		expect((await trigger.poll()).runs).toEqual([]);
		expect(trigger.state()).toMatchObject({ newestRunId: top, pending: [{ id: going }] });

		model.servePage = undefined;
		model.now += 3 * HOUR;
		const second = (await trigger.poll()).runs;
		expect(second.map((r) => r.id)).toEqual([going, ...news]);
		expect(second.every((r) => r.results.length === (r.id === going ? 1 : 2))).toBe(true);
		expect(trigger.state()).toMatchObject({ newestRunId: news[news.length - 1], pending: [] });
	});

	it('a listing of exactly 100 new results ends on an empty page: the next poll that meets that end takes it, each run once', async () => {
		const model = new FlakyModel();
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		expect(trigger.state()!.newestRunId).toBe(0);
		const news = Array.from({ length: 25 }, () => model.create({ scraperId: 1, size: 4, durationMs: 0 }).id);
		model.now += 5 * MINUTE;
		expect((await trigger.poll()).runs).toEqual([]);
		expect(model.pollRequests).toBe(2);
		expect(trigger.state()).toMatchObject({ newestRunId: 0, endMet: { newest: news[24], oldest: news[0], results: 100 } });
		// Kept by a poll that emitted nothing, so n8n did not save it: a restart forgets it, and two polls meet it again.
		trigger.restart();
		expect(trigger.state()).toEqual({ version: 2, newestRunId: 0, pending: [], emitted: [] });
		expect((await trigger.poll()).runs).toEqual([]);

		expect((await trigger.poll()).runs.map((r) => r.id)).toEqual(news);
		expect(trigger.state()!.endMet).toBeUndefined();
		expect(trigger.state()!.newestRunId).toBe(news[news.length - 1]);
		// The marker passed them: without the emitted ring (a state saved by version 1 has none), none comes again.
		trigger.downgradeToVersion1();
		expect((await trigger.poll()).runs).toEqual([]);
	});

	it('an end met once, then a listing that grew: the end was a page lost, and the runs behind it are emitted too', async () => {
		const model = new FlakyModel();
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		const news = Array.from({ length: 50 }, () => model.create({ scraperId: 1, size: 4, durationMs: 0 }).id);
		model.now += 5 * MINUTE;
		model.servePage = async (page, read) => (page === 2 ? { records: [], next: undefined } : await read(page));
		expect((await trigger.poll()).runs).toEqual([]);
		model.servePage = undefined;
		const later = model.create({ scraperId: 1, size: 1, durationMs: 0 }).id;
		model.now += MINUTE;
		expect((await trigger.poll()).runs.map((r) => r.id)).toEqual([...news, later]);
		expect(trigger.state()).toMatchObject({ newestRunId: later });
		expect(trigger.state()!.endMet).toBeUndefined();
	});

	it('an end met, then a page lost at the same place while the listing shifted under the walk: not the same end, no run is cut', async () => {
		const model = new FlakyModel(3);
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		const older = model.create({ scraperId: 1, size: 2, durationMs: 0 });
		const newer = model.create({ scraperId: 1, size: 4, durationMs: 0 });
		model.now += HOUR;
		// Six results, two full pages and an empty one: the end, or a last page lost.
		expect((await trigger.poll()).runs).toEqual([]);
		expect(trigger.state()!.endMet).toEqual({ newest: newer.id, oldest: older.id, results: 6 });
		// A run created after page 1 was read pushes one result of `older` onto page 3, which is lost: the walk meets
		// the same newest and oldest runs, but read a result twice.
		let created: number | undefined;
		model.beforeRequest = (n) => void (n === 2 && (created = model.create({ scraperId: 1, size: 1, durationMs: 0 }).id));
		model.lie = { atPage: 3, kind: 'empty' };
		expect((await trigger.poll()).runs).toEqual([]);
		expect(trigger.state()!.endMet).toMatchObject({ newest: newer.id, oldest: older.id, results: 5 });
		[model.beforeRequest, model.lie] = [undefined, undefined];
		const emitted = (await trigger.poll()).runs;
		expect(emitted.map((run) => [run.id, run.results.length])).toEqual([
			[older.id, 2],
			[newer.id, 4],
			[created, 1],
		]);
	});

	it('an end met among new runs by a poll that emits is not kept: n8n saves that poll, and a restart must not bring the end back', async () => {
		const model = new FlakyModel(3);
		const remembered = model.create({ scraperId: 1, size: 1, durationMs: 30 * MINUTE });
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		// Page 1 holds only new runs, `across` straddles onto page 2 with the remembered run, and page 2 is lost.
		const across = model.create({ scraperId: 1, size: 2, durationMs: 3 * HOUR });
		const top = model.create({ scraperId: 1, size: 2, durationMs: 3 * HOUR });
		model.now += HOUR;
		model.lie = { atPage: 2, kind: 'empty' };
		expect((await trigger.poll()).runs.map((run) => run.id)).toEqual([remembered.id]);
		expect(trigger.state()!.endMet).toBeUndefined();
		// Read whole, the new runs are still going: remembered, nothing emitted, and n8n does not save that poll.
		model.lie = undefined;
		model.now += MINUTE;
		expect((await trigger.poll()).runs).toEqual([]);
		trigger.restart();
		model.now += 4 * HOUR;
		model.lie = { atPage: 2, kind: 'empty' };
		expect((await trigger.poll()).runs).toEqual([]);
		model.lie = undefined;
		const emitted = (await trigger.poll()).runs;
		expect(emitted.map((run) => [run.id, run.results.length])).toEqual([
			[across.id, 2],
			[top.id, 2],
		]);
	});

	it('a page lost where a poll n8n did not save met one: a restart brings the state back, and the run across the lost page is still emitted whole', async () => {
		const model = new ResultsModel(3);
		model.create({ scraperId: 1, size: 3, durationMs: 0 }, model.now - HOUR);
		const running = model.create({ scraperId: 1, size: 5, durationMs: HOUR });
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		model.create({ scraperId: 1, size: 1, durationMs: 0 });
		model.now += MINUTE;
		model.lie = { atPage: 2, kind: 'empty' };
		// Past the new runs, the empty page is never the end: the run across it is left to a direct read (still going).
		expect((await trigger.poll()).runs).toHaveLength(1);
		expect(trigger.state()).toEqual(expect.objectContaining({ pending: [expect.objectContaining({ id: running.id })] }));
		expect(trigger.state()).not.toHaveProperty('endMet');
		model.lie = undefined;
		model.now += MINUTE;
		expect((await trigger.poll()).runs).toEqual([]);
		trigger.restart();
		model.create({ scraperId: 1, size: 1, durationMs: 0 });
		model.now += 2 * HOUR;
		model.lie = { atPage: 2, kind: 'empty' };
		const emitted = (await trigger.poll()).runs.find((run) => run.id === running.id);
		expect(emitted?.results.map((result) => result.id)).toEqual(running.resultIds);
		model.lie = undefined;
		expect((await trigger.poll()).runs).toEqual([]);
	});

	it('a page served twice (page 2 repeats page 1): no run is emitted cut or passed, and the next poll emits them all whole', async () => {
		const model = new FlakyModel();
		model.create({ scraperId: 1, size: 1, durationMs: 0 });
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		const news = Array.from({ length: 60 }, () => model.create({ scraperId: 1, size: 4, durationMs: MINUTE }).id);
		model.now += 10 * MINUTE;
		model.servePage = async (page, read) => ({ ...(await read(page === 2 ? 1 : page)), next: page < 3 ? page + 1 : undefined });
		// Page 2 hid a page: runs 37-60 were read whole, 1-36 not, so none is taken and the marker stays.
		const top = trigger.state()!.newestRunId;
		expect((await trigger.poll()).runs).toEqual([]);
		expect(trigger.state()!.newestRunId).toBe(top);

		model.servePage = undefined;
		const second = (await trigger.poll()).runs;
		expect(second.map((r) => r.id)).toEqual(news);
		expect(second.every((r) => r.results.length === 4)).toBe(true);
		expect(trigger.state()!.newestRunId).toBe(news[news.length - 1]);
	});

	it('a page served twice while a run is created between the reads: the new run does not hide the repeat, no run is emitted cut', async () => {
		const model = new FlakyModel();
		model.create({ scraperId: 1, size: 1, durationMs: 0 });
		const trigger = new ModelTrigger(model, params);
		await trigger.poll();
		const news = Array.from({ length: 100 }, () => model.create({ scraperId: 1, size: 3, durationMs: 0 }).id);
		model.now += 10 * MINUTE;
		let created: number | undefined;
		// Page 2 is page 1 again, read after one more run was created: 99 results read before and the new one; page 3
		// then holds results 200-299 of the old listing, and those of 100-198 are never read.
		model.servePage = async (page, read) => {
			if (page !== 2) return await read(page);
			created = model.create({ scraperId: 1, size: 1, durationMs: 0 }).id;
			return { ...(await read(1)), next: 3 };
		};
		expect((await trigger.poll()).runs).toEqual([]);
		model.servePage = undefined;
		model.now += MINUTE;
		const second = (await trigger.poll()).runs;
		expect(second.map((r) => r.id)).toEqual([...news, created]);
		expect(second.every((r) => r.results.length === (r.id === created ? 1 : 3))).toBe(true);
	});
});
