import { extraPages, MAX_PAGES_PER_POLL, runsToRead } from '../../../nodes/ScraperMarketplace/trigger/advance';
import type { Observation } from '../../../nodes/ScraperMarketplace/trigger/advance';
import { pollRuns, readPages } from '../../../nodes/ScraperMarketplace/trigger/collect';
import { PAGE_SIZE } from '../../../nodes/ScraperMarketplace/trigger/io';
import type { RunTriggerIO } from '../../../nodes/ScraperMarketplace/trigger/io';
import { stateOf } from '../../../nodes/ScraperMarketplace/trigger/state';
import type { PendingRun } from '../../../nodes/ScraperMarketplace/trigger/state';
import { listing, newestFirst, params, pendingRun, T0 } from './pages';

/** The Run Trigger's walk of the results list in one poll (`needsMorePages`), against pages made here. */

/** The walk of a later poll alone: what it read, and how many pages past the new runs. */
async function walk(io: RunTriggerIO, newestRunId: number, pending: PendingRun[]): Promise<{ seen: Observation; extra: number }> {
	const state = stateOf(newestRunId, pending);
	const seen: Observation = { ...params(), pages: [], runs: new Map() };
	await readPages(io, state, seen, T0);
	return { seen, extra: extraPages(state, seen.pages) };
}

describe('Run Trigger: the walk of a poll', () => {
	it('an idle poll reads one page', async () => {
		const { io, read } = listing(newestFirst(500, 300));
		expect((await walk(io, 500, [])).extra).toBe(0);
		expect(read.pages).toEqual([1]);
	});

	it('reads on while a page ends inside new runs, and stops on the first page that passes the newest seen', async () => {
		const { io, read } = listing(newestFirst(500, 400));
		await walk(io, 250, []);
		// Pages 1 and 2 end at runs 401 and 301 (new), page 3 at 201 (seen): it is the last read.
		expect(read.pages).toEqual([1, 2, 3]);
	});

	it('a page shorter than a full one is the last', async () => {
		const { io, read } = listing(newestFirst(500, 150));
		await walk(io, 0, []);
		expect(read.pages).toEqual([1, 2]);
	});

	it('past the new runs, reads on only while pages hold remembered runs not yet read whole', async () => {
		const { io, read } = listing(newestFirst(500, 400));
		const { extra } = await walk(io, 500, [490, 395, 250, 50].map((id) => pendingRun(id)));
		// Page 1 (500..401) holds 490, page 2 holds 395, page 3 holds 250; page 4 (200..101) none: the walk stops there.
		expect(read.pages).toEqual([1, 2, 3, 4]);
		expect(extra).toBe(3);
	});

	it('a remembered run far behind the new ones costs no page: it is read directly', async () => {
		const { io, read } = listing(newestFirst(25_000, 20_001));
		const { seen, extra } = await walk(io, 25_000, [pendingRun(5_000)]);
		expect(extra).toBe(0);
		expect(read.pages).toEqual([1]);
		expect(runsToRead(stateOf(25_000, [pendingRun(5_000)]), seen)).toEqual([5_000]);
	});

	it(`refuses a poll of more than ${MAX_PAGES_PER_POLL} pages of new runs without reading one more, and says how to go on`, async () => {
		const { io, read } = listing(newestFirst(MAX_PAGES_PER_POLL * PAGE_SIZE + 10, MAX_PAGES_PER_POLL * PAGE_SIZE + 5));
		const poll = pollRuns(io, stateOf(0, []), params());
		await expect(poll).rejects.toThrow('More than 100,000 results of new runs since the last check');
		await expect(pollRuns(io, stateOf(0, []), params())).rejects.toMatchObject({ description: expect.stringContaining('rename this trigger node') });
		expect(read.pages).toHaveLength(2 * MAX_PAGES_PER_POLL);
		expect(read.runs).toEqual([]);
	});
});
