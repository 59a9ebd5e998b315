import { PAGE_SIZE } from '../../../nodes/ScraperMarketplace/trigger/io';
import { ListingView } from '../../../nodes/ScraperMarketplace/trigger/listing';
import { MAX_PAGES_PER_POLL, walkNewRuns } from '../../../nodes/ScraperMarketplace/trigger/paging';
import { DIRECT_READS_PER_POLL, directReadsDue } from '../../../nodes/ScraperMarketplace/trigger/tracking';
import { listing, newestFirst, pendingRun } from './pages';

/** The Run Trigger's walk of the results list in one poll, against pages made here. */

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
