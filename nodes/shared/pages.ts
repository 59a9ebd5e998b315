/** One page of a listing, and where the next one starts (undefined: this was the last). */
export interface Page<T, P = number> {
	records: T[];
	next: P | undefined;
}

/** Reads the page at one position: a page number, or a keyset (e.g. a date and a page within it). */
export type PageReader<T, P = number> = (at: P) => Promise<Page<T, P>>;

/** A page as the walker hands it out: with its position and its 1-based count in this walk. */
export interface WalkedPage<T, P> extends Page<T, P> {
	at: P;
	count: number;
}

/**
 * Every page of a listing from `first` on, in order, one request each, until a page says it is the last or the
 * caller stops (a `break` sends nothing more). The one page walker of the pack: listings, the triggers' polls and
 * the editor's samples read their pages through it, each API saying through its reader where a next page starts.
 */
export async function* walkPages<T, P = number>(read: PageReader<T, P>, first: P): AsyncGenerator<WalkedPage<T, P>> {
	let at: P | undefined = first;
	for (let count = 1; at !== undefined; count++) {
		const page = await read(at);
		yield { ...page, at, count };
		at = page.next;
	}
}

/** Up to `limit` records from `first` on (Infinity: all of them), reading no page more than needed. */
export async function collectRecords<T, P = number>(read: PageReader<T, P>, first: P, limit: number): Promise<T[]> {
	const out: T[] = [];
	if (limit <= 0) return out;
	for await (const page of walkPages(read, first)) {
		for (const record of page.records) {
			out.push(record);
			if (out.length >= limit) return out;
		}
	}
	return out;
}
