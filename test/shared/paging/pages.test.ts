// The paging guard (nodes/shared/paging/pages.ts) over generated listings: true counts of 0 to 2,000 records, page sizes of
// 1 to 100, a count (`meta`) that is absent, true, too high, too low or a billion pages, pages that repeat, empty
// pages in the middle, and records added or removed between two page reads. Pages are made by the Platform's own
// page function (`resultsPage`), so what a page says of its listing is what the node reads from the service.
//
// The bound checked: a walk makes at most 4 requests per page that brought a record not read before, plus 4 (each
// such page may follow up to 3 empty pages, and one more request ends the walk), so it always ends.
import fc from 'fast-check';
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';

import { nextListToken, readListToken } from '../../../nodes/shared/descriptions/locator';
import { collectRecords, PAGING_BOUNDS, readPickerPage } from '../../../nodes/shared/paging/pages';
import type { ListingWalk, Page } from '../../../nodes/shared/paging/pages';
import { resultsPage } from '../../../nodes/ScraperPlatform/transport/api';
import type { PageMeta } from '../../../nodes/ScraperPlatform/transport/api';

const node: INode = { id: '1', name: 'Scraper Platform', type: 'scraperPlatform', typeVersion: 3, position: [0, 0], parameters: {} };
const BANNED = /\b(errors?|problems?|failures?|failed to|mistakes?)\b/i;

type MetaKind = 'absent' | 'true' | 'high' | 'low' | 'huge';

interface Listing {
	count: number;
	pageSize: number;
	meta: MetaKind;
	/** For 'high' (x 1.5 to 10, plus one) and 'low' (x 0 to 0.9). */
	factor: number;
	/** Pages answered empty: their records are never sent. */
	empty: number[];
	/** Empty pages inside the listing: the records move one page on for each, and `totalPage` counts them. */
	gaps: number[];
	/** From this page on, every answer repeats page `repeatOf` (as read now). */
	repeatFrom?: number;
	repeatOf: number;
	/** Before the nth read: records added at the top (> 0) or removed from it (< 0). */
	shifts: number[];
	startPage: number;
	limit: number;
}

/** A listing the test controls, newest first: what it served, and what its counts claimed. */
class ModelListing {
	readonly served = new Set<string>();
	requests = 0;
	/** The most records any page's `meta` claimed from the walk's first page on. */
	claimed: number | undefined;
	private ids: string[];
	private added = 0;

	constructor(readonly spec: Listing) {
		this.ids = Array.from({ length: spec.count }, (_, i) => `r${i}`);
	}

	/** What a consistent listing holds from `startPage` on, in order. */
	truth(): string[] {
		return this.ids.slice((this.spec.startPage - 1) * this.spec.pageSize);
	}

	read = async (page: number): Promise<Page<IDataObject>> => {
		const { spec } = this;
		const shift = spec.shifts[this.requests] ?? 0;
		// Far above the bound: a walk that gets here would never end, and fails the property instead of hanging it.
		if (++this.requests > 50_000) throw new Error('the walk did not end: 50,000 requests');
		if (shift > 0) this.ids.unshift(...Array.from({ length: shift }, () => `n${this.added++}`));
		if (shift < 0) this.ids.splice(0, -shift);
		const shown = (spec.repeatFrom !== undefined && page >= spec.repeatFrom ? spec.repeatOf : page) - spec.gaps.filter((gap) => gap < page).length;
		const hidden = spec.empty.includes(page) || spec.gaps.includes(page);
		const slice = hidden ? [] : this.ids.slice((shown - 1) * spec.pageSize, shown * spec.pageSize);
		for (const id of slice) this.served.add(id);
		const meta = this.meta(page);
		if (meta?.total !== undefined) this.claimed = Math.max(this.claimed ?? 0, meta.total - (spec.startPage - 1) * spec.pageSize);
		return resultsPage(page, spec.pageSize, slice.map((id) => ({ id })), meta);
	};

	private meta(page: number): PageMeta | undefined {
		const { spec } = this;
		const base = { page, pageSize: spec.pageSize };
		if (spec.meta === 'absent') return undefined;
		if (spec.meta === 'huge') return { ...base, total: 1e11, totalPage: 1e9 };
		const length = this.ids.length;
		const total = spec.meta === 'true' ? length : spec.meta === 'high' ? Math.floor(length * spec.factor) + 1 : Math.floor(length * spec.factor);
		return { ...base, total, totalPage: Math.ceil(total / spec.pageSize) + spec.gaps.length };
	}
}

const listings = (overrides: Partial<Record<keyof Listing, fc.Arbitrary<unknown>>> = {}): fc.Arbitrary<Listing> =>
	fc.record({
		count: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 60 })),
		pageSize: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(1, 10, 100)),
		meta: fc.constantFrom<MetaKind>('absent', 'true', 'high', 'low', 'huge'),
		factor: fc.double({ min: 0, max: 10, noNaN: true }),
		empty: fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 4 }),
		gaps: fc.constant([]),
		repeatFrom: fc.option(fc.integer({ min: 2, max: 30 }), { nil: undefined }),
		repeatOf: fc.integer({ min: 1, max: 29 }),
		shifts: fc.array(fc.integer({ min: -5, max: 20 }), { maxLength: 10 }),
		startPage: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 5 })),
		limit: fc.oneof(fc.constant(Infinity), fc.integer({ min: 1, max: 2_500 })),
		...overrides,
	} as Record<keyof Listing, fc.Arbitrary<unknown>>) as fc.Arbitrary<Listing>;

/** A listing that keeps its word: a true count or none, no empty or repeated pages, nothing added or removed. */
const consistent = listings({ meta: fc.constantFrom('absent', 'true'), empty: fc.constant([]), repeatFrom: fc.constant(undefined), shifts: fc.constant([]) });

/**
 * Runs of empty pages as listing pages: each run starts at a page of records (numbered without gaps) and is kept
 * apart from the others, so no more than `length` empty pages come in a row.
 */
function gapPages(runs: Array<{ from: number; length: number }>): number[] {
	const starts = [...new Map(runs.map((run) => [run.from, run.length])).entries()].sort(([a], [b]) => a - b);
	const gaps: number[] = [];
	for (const [from, length] of starts) {
		const at = from + gaps.length;
		for (let i = 0; i < length; i++) gaps.push(at + i);
	}
	return gaps;
}

interface Outcome {
	records?: IDataObject[];
	stop?: NodeOperationError;
	hints: string[];
}

async function walk(model: ModelListing): Promise<Outcome> {
	const hints: string[] = [];
	const context: ListingWalk<IDataObject> = { node, itemIndex: 2, listing: 'the results list', hint: (message) => hints.push(message) };
	return await collectRecords(model.read, model.spec.startPage, model.spec.limit, context).then(
		(records): Outcome => ({ records, hints }),
		(error: unknown): Outcome => {
			// A walk ends with the node's stop or not at all: anything else (the model's "did not end") fails here.
			expect(error).toBeInstanceOf(NodeOperationError);
			return { stop: error as NodeOperationError, hints };
		},
	);
}

const withinBound = (model: ModelListing) => model.requests <= 4 * model.served.size + 4;

describe('the paging guard: Return All and Limit over generated listings', () => {
	it('always ends within the bound, outputs each record once, and says so whenever it output fewer than the count claimed', async () => {
		await fc.assert(
			fc.asyncProperty(listings(), async (spec) => {
				const model = new ModelListing(spec);
				const { records, stop, hints } = await walk(model);
				expect(withinBound(model)).toBe(true);
				if (stop) return;
				const ids = records!.map((r) => r.id);
				expect(new Set(ids).size).toBe(ids.length);
				expect(ids.length).toBeLessThanOrEqual(spec.limit);
				expect(hints.length).toBeLessThanOrEqual(1);
				if (ids.length < Math.min(spec.limit, model.claimed ?? 0)) expect(hints).toHaveLength(1);
			}),
			{ numRuns: 300 },
		);
	});

	it('outputs every record of a consistent listing, in order, with no hint, in as few requests as its pages', async () => {
		await fc.assert(
			fc.asyncProperty(consistent, async (spec) => {
				const model = new ModelListing(spec);
				const truth = model.truth().slice(0, spec.limit);
				const { records, stop, hints } = await walk(model);
				expect(stop).toBeUndefined();
				expect(records!.map((r) => r.id)).toEqual(truth);
				expect(hints).toEqual([]);
				// Every page of records, and one more only when the last was full (the count may lag behind it).
				expect(model.requests).toBeLessThanOrEqual(Math.floor(truth.length / spec.pageSize) + 1);
			}),
			{ numRuns: 200 },
		);
	});

	it('a count too high, or a billion pages, still gives every record, and a hint says the count was higher', async () => {
		const high = listings({ meta: fc.constantFrom('high', 'huge'), factor: fc.double({ min: 1.5, max: 10, noNaN: true }), empty: fc.constant([]), repeatFrom: fc.constant(undefined), shifts: fc.constant([]), limit: fc.constant(Infinity), startPage: fc.constant(1), count: fc.integer({ min: 1, max: 2_000 }) });
		await fc.assert(
			fc.asyncProperty(high, async (spec) => {
				const model = new ModelListing(spec);
				const { records, hints } = await walk(model);
				expect(records!.map((r) => r.id)).toEqual(model.truth());
				expect(hints).toHaveLength(1);
				expect(hints[0]).toMatch(/^The results list said it holds \d+ records, but \d+ records? could be read/);
				// Past the last record: the empty pages the guard reads while the count says more, and the one that ends it.
				expect(model.requests).toBeLessThanOrEqual(Math.ceil(model.truth().length / spec.pageSize) + PAGING_BOUNDS.emptyInARow + 1);
			}),
			{ numRuns: 100 },
		);
	});

	it('empty pages inside a listing whose count says more follow are read past: every record, no hint', async () => {
		// Up to 3 empty pages in a row, anywhere inside the listing (pages 2 to the last but one).
		const gapped = listings({ meta: fc.constant('true'), empty: fc.constant([]), repeatFrom: fc.constant(undefined), shifts: fc.constant([]), limit: fc.constant(Infinity), startPage: fc.constant(1), count: fc.integer({ min: 2, max: 2_000 }) })
			.chain((spec) => {
				const pages = Math.ceil(spec.count / spec.pageSize);
				const run = fc.record({ from: fc.integer({ min: 2, max: Math.max(2, pages) }), length: fc.integer({ min: 1, max: PAGING_BOUNDS.emptyInARow }) });
				return fc.array(run, { minLength: 1, maxLength: 3 }).map((runs) => ({ ...spec, gaps: gapPages(runs) }));
			});
		await fc.assert(
			fc.asyncProperty(gapped, async (spec) => {
				const model = new ModelListing(spec);
				const { records, stop, hints } = await walk(model);
				expect(stop).toBeUndefined();
				expect(records!.map((r) => r.id)).toEqual(model.truth());
				expect(hints).toEqual([]);
			}),
			{ numRuns: 150 },
		);
	});

	it('a count too low does not cut the listing short: every record, or a stop naming the end it gave', async () => {
		const low = listings({ meta: fc.constant('low'), factor: fc.double({ min: 0, max: 0.9, noNaN: true }), empty: fc.constant([]), repeatFrom: fc.constant(undefined), shifts: fc.constant([]), limit: fc.constant(Infinity) });
		await fc.assert(
			fc.asyncProperty(low, async (spec) => {
				const model = new ModelListing(spec);
				const { records, stop } = await walk(model);
				if (stop) {
					expect(stop.message).toBe('The results list kept sending full pages past the end it gave');
					return;
				}
				expect(records!.map((r) => r.id)).toEqual(model.truth());
			}),
			{ numRuns: 150 },
		);
	});

	it('a page that repeats earlier ones ends the walk at that page, with a stop that says what to do', async () => {
		const repeating = listings({ meta: fc.constantFrom('absent', 'true', 'huge'), empty: fc.constant([]), shifts: fc.constant([]), repeatFrom: fc.integer({ min: 2, max: 20 }), limit: fc.constant(Infinity), startPage: fc.constant(1), count: fc.integer({ min: 0, max: 2_000 }) });
		await fc.assert(
			fc.asyncProperty(repeating, async (spec) => {
				const repeatOf = ((spec.repeatOf - 1) % (spec.repeatFrom! - 1)) + 1;
				const model = new ModelListing({ ...spec, repeatOf });
				const pagesBefore = Math.ceil(spec.count / spec.pageSize);
				const { stop } = await walk(model);
				// The repeat is met only when the repeated page held records and the walk had not ended before it: it reads
				// one page past the last page of records when that was full, and empty pages while the count says more.
				const lastFull = spec.count % spec.pageSize === 0;
				const reach = spec.meta === 'huge' ? pagesBefore + 1 + PAGING_BOUNDS.emptyInARow : lastFull ? pagesBefore + 1 : pagesBefore;
				if (repeatOf > pagesBefore || spec.repeatFrom! > reach) {
					expect(stop).toBeUndefined();
					return;
				}
				expect(stop).toBeDefined();
				expect(model.requests).toBe(spec.repeatFrom);
				expect(stop!.message).toBe(`The results list is not advancing: page ${spec.repeatFrom} held only records already read`);
				expect(stop!.description).toContain(`Turn off 'Return All' and set 'Limit' to ${Math.min(spec.count, (spec.repeatFrom! - 1) * spec.pageSize)} or fewer`);
				expect(stop!.context.itemIndex).toBe(2);
			}),
			{ numRuns: 150 },
		);
	});

	it('no stop or hint says error, problem, failure or mistake', async () => {
		await fc.assert(
			fc.asyncProperty(listings(), async (spec) => {
				const { stop, hints } = await walk(new ModelListing(spec));
				for (const text of [stop?.message, stop?.description, ...hints]) if (text) expect(text).not.toMatch(BANNED);
			}),
			{ numRuns: 200 },
		);
	});
});

describe('the paging guard: the pickers over generated listings', () => {
	/** The pickers read 100 records a page; smaller pages make more scrolls of the same kind. */
	const pickerListings = listings({ startPage: fc.constant(1), limit: fc.constant(Infinity), pageSize: fc.constantFrom(10, 37, 100) });

	/** Scrolls as the editor does (it asks again while `more`), through the token's round trip or not; at most 1,000. */
	async function scrollAll(model: ModelListing, withToken: boolean): Promise<{ ids: string[]; scrolls: number }> {
		const ids: string[] = [];
		let position = readListToken(undefined);
		for (let scrolls = 1; scrolls <= 1_000; scrolls++) {
			const { records, page, more } = await readPickerPage(model.read, position.page, position.shown);
			ids.push(...records.map((r) => String(r.id)));
			if (!more) return { ids, scrolls };
			position = withToken ? readListToken(nextListToken(page, more, position.shown)) : { page: page + 1, shown: position.shown };
		}
		throw new Error('the picker scrolled 1,000 times');
	}

	it('lists each record once and ends, however the listing behaves; a consistent listing entirely', async () => {
		await fc.assert(
			fc.asyncProperty(pickerListings, async (spec) => {
				const model = new ModelListing(spec);
				const { ids } = await scrollAll(model, false);
				expect(new Set(ids).size).toBe(ids.length);
				expect(withinBound(model)).toBe(true);
			}),
			{ numRuns: 200 },
		);
		await fc.assert(
			fc.asyncProperty(consistent.map((spec) => ({ ...spec, startPage: 1, pageSize: Math.max(10, spec.pageSize) })), async (spec) => {
				const model = new ModelListing(spec);
				expect((await scrollAll(model, true)).ids).toEqual(model.truth());
			}),
			{ numRuns: 100 },
		);
	});

	it('ends with the token as the editor sends it back, whose memory is bounded', async () => {
		await fc.assert(
			fc.asyncProperty(pickerListings, async (spec) => {
				// Past its 1,000 remembered keys a token may take a repeated record for a new one: the list still ends.
				const { scrolls } = await scrollAll(new ModelListing(spec), true);
				expect(scrolls).toBeLessThan(1_000);
			}),
			{ numRuns: 200 },
		);
	});
});
