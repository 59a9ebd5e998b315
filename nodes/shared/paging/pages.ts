import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { walkSays } from './words';
import type { WalkEnd, WalkReport } from './words';

/** One page of a listing, and where the next one starts (undefined: this was the last). */
export interface Page<T, P = number> {
	records: T[];
	next: P | undefined;
	/**
	 * What the page says of its listing, for the paging guard of Return All, Limit and the pickers, which weighs it
	 * instead of trusting `next`: a listing's count can lie. Without it a guarded walk follows `next`.
	 */
	listing?: ListingWord<P>;
}

/** Reads the page at one position: a page number, or a keyset (e.g. a date and a page within it). */
export type PageReader<T, P = number> = (at: P) => Promise<Page<T, P>>;

/** What one page says of its listing (see `Page.listing`). */
interface ListingWord<P> {
	/** Where the page after this one starts, also when `next` says there is none: the guard may read on. */
	after: P;
	/** Whether the page held as many records as were asked for: a full page may be followed by more. */
	full: boolean;
	/** The listing's own count (its `meta`), when it keeps one. */
	meta?: ListingCount;
}

interface ListingCount {
	/** Whether it says pages follow this one. */
	more: boolean;
	/** The records it says it holds in all. */
	total?: number;
	/** The records it places before this page (a walk may start past the first page). */
	before?: number;
}

/** A page as the walker hands it out: with its position and its 1-based count in this walk. */
interface WalkedPage<T, P> extends Page<T, P> {
	at: P;
	count: number;
}

/**
 * Every page of a listing from `first` on, in order, one request each, until a page says it is the last or the
 * caller stops (a `break` sends nothing more). The plain walker: the triggers' polls and the editor's samples read
 * their pages through it and bound it themselves; Return All, Limit and the pickers walk through the paging guard.
 */
export async function* walkPages<T, P = number>(read: PageReader<T, P>, first: P): AsyncGenerator<WalkedPage<T, P>> {
	let at: P | undefined = first;
	for (let count = 1; at !== undefined; count++) {
		const page = await read(at);
		yield { ...page, at, count };
		at = page.next;
	}
}

/** How far the paging guard lets a listing go against its own word. */
export const PAGING_BOUNDS = {
	/** Empty pages read in a row while the listing says more follow; the next one ends the walk. */
	emptyInARow: 3,
	/** Full pages read past the end the listing gave: this many, or as many as were read before that end if more. */
	pastEnd: 10,
} as const;

type WalkStep<P> = { read: P } | { end: WalkEnd };

/** A record's identity by default: its `id`, else its content (a record without one is never taken for another). */
function recordKey(record: unknown): unknown {
	if (record === null || typeof record !== 'object') return record;
	const id = (record as { id?: unknown }).id;
	return id === undefined || id === null ? JSON.stringify(record) : id;
}

/**
 * The paging guard: one per walk, it weighs each page and says where to read next or that the walk ends. Its rules:
 * - each record once, by key: a listing that shifts while it is read repeats some, which are dropped;
 * - a page that brings records but none new ends the walk ('stalled'): the listing is not advancing;
 * - an empty page ends the walk unless the listing's count says more follow; then up to
 *   `PAGING_BOUNDS.emptyInARow` empty pages in a row are read past ('emptied' after that);
 * - a short page ends the walk unless the count says more follow;
 * - a full page is followed by the next, also where the count says it was the last (a count can lag behind),
 *   but at most `PAGING_BOUNDS.pastEnd` pages past that end ('overran').
 * So a walk makes at most 4 requests per page that brought a new record, plus 4: it always ends.
 */
class PagingGuard<T, P> {
	readonly report: WalkReport = { pages: 0, pastEnd: 0, endedAt: '' };
	private emptyInARow = 0;
	private allowedPastEnd = 0;
	private firstBefore = 0;

	constructor(
		private readonly keyOf: (record: T) => unknown,
		private readonly seen: Set<unknown> = new Set(),
	) {}

	/** The page's records not read before, and the step after it. */
	accept(page: Page<T, P>, at: P): { fresh: T[]; step: WalkStep<P> } {
		const report = this.report;
		report.pages++;
		report.endedAt = typeof at === 'number' ? `page ${at}` : `page ${report.pages} of this walk`;
		const fresh = page.records.filter((record) => {
			const key = this.keyOf(record);
			if (this.seen.has(key)) return false;
			this.seen.add(key);
			return true;
		});
		this.noteCount(page.listing?.meta);
		if (page.records.length > 0 && fresh.length === 0) return { fresh, step: { end: 'stalled' } };
		return { fresh, step: this.stepAfter(page) };
	}

	/** The most records the listing claimed from the walk's first page on. */
	private noteCount(meta: ListingCount | undefined): void {
		if (this.report.pages === 1) this.firstBefore = finite(meta?.before) ?? 0;
		const total = finite(meta?.total);
		if (total !== undefined) this.report.claimed = Math.max(this.report.claimed ?? 0, total - this.firstBefore);
	}

	private stepAfter(page: Page<T, P>): WalkStep<P> {
		const word = page.listing;
		if (!word) return page.next === undefined ? { end: 'last' } : { read: page.next };
		const more = word.meta?.more === true;
		if (page.records.length === 0) return more ? this.pastEmpty(word.after) : { end: 'last' };
		this.emptyInARow = 0;
		if (more || (word.full && word.meta === undefined)) {
			this.report.pastEnd = 0;
			return { read: word.after };
		}
		return word.full ? this.pastTheEnd(word.after) : { end: 'last' };
	}

	private pastEmpty(after: P): WalkStep<P> {
		this.report.emptyAt ??= this.report.endedAt;
		this.emptyInARow++;
		return this.emptyInARow > PAGING_BOUNDS.emptyInARow ? { end: 'emptied' } : { read: after };
	}

	private pastTheEnd(after: P): WalkStep<P> {
		if (this.report.pastEnd === 0) this.allowedPastEnd = Math.max(PAGING_BOUNDS.pastEnd, this.report.pages);
		if (this.report.pastEnd >= this.allowedPastEnd) return { end: 'overran' };
		this.report.pastEnd++;
		return { read: after };
	}
}

function finite(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Who a guarded walk answers to: the node and input item its messages name, and the listing by name. */
export interface ListingWalk<T> {
	node: INode;
	itemIndex: number;
	/** The listing as messages name it, e.g. "the results list". */
	listing: string;
	/** A record's identity: its `id` unless given. */
	key?: (record: T) => unknown;
	/** Where the walk says it read fewer records than the listing claimed. */
	hint?: (message: string) => void;
	/**
	 * The records to output, all unless given: the others are read and count toward the listing's end (its pages
	 * and its count are the listing's), but not toward Limit.
	 */
	keep?: (record: T) => boolean;
}

/** The walk of an operation: its node and item, and hints above the output pane, where n8n shows its own. */
export function listingWalk<T>(ctx: IExecuteFunctions, itemIndex: number, listing: string, key?: (record: T) => unknown): ListingWalk<T> {
	return {
		node: ctx.getNode(),
		itemIndex,
		listing,
		key,
		hint: (message) => ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' }),
	};
}

/**
 * Up to `limit` records from `first` on (Infinity: all of them), reading no page more than needed, through the
 * paging guard: each record once, and an end however the listing behaves (`PagingGuard`).
 *
 * A listing that stops advancing, or runs on far past the end it gave, ends the walk with a NodeOperationError and
 * not with the records read so far: Return All asked for the whole listing, and items cut short at a point nobody
 * can name would pass downstream as if whole (a hint shows in the editor only). The message says how many records
 * were read, so 'Limit' can take exactly those. A listing that simply ends short of its own count is output as far
 * as it goes, with a hint saying so: those records are all it had to give.
 */
export async function collectRecords<T, P = number>(read: PageReader<T, P>, first: P, limit: number, walk?: ListingWalk<T>): Promise<T[]> {
	const out: T[] = [];
	if (limit <= 0) return out;
	const guard = new PagingGuard<T, P>(walk?.key ?? recordKey);
	// Records of the listing read, kept or not: what its own count is weighed against.
	let seen = 0;
	for (let at = first; ; ) {
		const page = await read(at);
		const { fresh, step } = guard.accept(page, at);
		for (const record of fresh) {
			seen++;
			if (walk?.keep && !walk.keep(record)) continue;
			out.push(record);
			if (out.length >= limit) return out;
		}
		if ('read' in step) {
			at = step.read;
			continue;
		}
		const says = walkSays(guard.report, step.end, { listing: walk?.listing ?? 'the listing', read: seen, kept: out.length, limit });
		if (says?.stop) {
			const { message, description } = says.stop;
			throw walk ? new NodeOperationError(walk.node, message, { itemIndex: walk.itemIndex, description }) : new Error(`${message}. ${description}`);
		}
		if (says?.hint) walk?.hint?.(says.hint);
		return out;
	}
}

/**
 * One scroll of a `From list` picker through the paging guard: from page `at`, the records no earlier scroll met
 * (`met` keeps their keys, marked `#key` apart from the entries a picker remembers there, and this adds them),
 * reading past an empty page while the listing says more follow; `page` is the last page read. `more` is false once
 * the list ends, also when a page brought nothing new: the editor asks for the next page by itself while the list
 * does not fill its box, so a listing that repeats itself would otherwise be read without end.
 */
export async function readPickerPage<T>(
	read: PageReader<T>,
	at: number,
	met: Set<string>,
	key: (record: T) => unknown = recordKey,
): Promise<{ records: T[]; page: number; more: boolean }> {
	const guard = new PagingGuard<T, number>((record) => `#${String(key(record))}`, met);
	for (let page = at; ; ) {
		const answer = await read(page);
		const { fresh, step } = guard.accept(answer, page);
		if (!('read' in step)) return { records: fresh, page, more: false };
		if (answer.records.length > 0) return { records: fresh, page, more: true };
		page = step.read;
	}
}
