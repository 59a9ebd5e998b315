import { listedRun, ListingView } from '../../../nodes/ScraperMarketplace/trigger/listing';
import { page, record } from './pages';

/** The Run Trigger's view of what a walk of the results list read, against pages made here. */

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

	it('an empty page after a full one, or a page that only repeats results read before, cuts the walk there', () => {
		const emptied = new ListingView();
		emptied.add(page([record(12), record(11)], 2));
		emptied.add(page([]));
		expect([emptied.holdsWhole(12), emptied.holdsWhole(11)]).toEqual([true, false]);
		const repeated = new ListingView();
		const first = [record(12), record(11)];
		repeated.add(page(first, 2));
		repeated.add(page(first, 3));
		repeated.add(page([record(9), record(8)]));
		expect([12, 11, 9, 8].map((id) => repeated.holdsWhole(id))).toEqual([true, false, false, false]);
	});

	it('an empty page after a full one that ends the walk is a doubtful end: the runs before it are whole only once it is accepted', () => {
		const view = new ListingView();
		view.add(page([record(12), record(11), record(11)], 2));
		view.add(page([]));
		expect([view.doubtfulEnd, view.resultsRead, view.holdsWhole(11)]).toEqual([11, 3, false]);
		view.acceptEnd();
		expect([view.holdsWhole(12), view.holdsWhole(11)]).toEqual([true, true]);
		// Cut by a repeated page, the walk has no doubtful end: nothing to accept.
		const repeated = new ListingView();
		const first = [record(12), record(11)];
		repeated.add(page(first, 2));
		repeated.add(page(first));
		repeated.acceptEnd();
		expect([repeated.doubtfulEnd, repeated.holdsWhole(11)]).toEqual([undefined, false]);
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
