import { overallStatus } from '../runs/track';
import type { TrackedRun } from '../runs/track';
import { idOf } from '../transport/vocabulary';
import type { RunListRecord } from '../transport/vocabulary';
import type { Page } from '../../shared/paging/pages';

/** A record's run id; undefined when it has none the trigger can use. */
export function runIdOf(record: RunListRecord): number | undefined {
	return idOf(record.scraping_run_id);
}

/** Run ids of a page's records, in listing order. */
function runIdsOn(records: RunListRecord[]): number[] {
	return records.map(runIdOf).filter((id): id is number => id !== undefined);
}

/** The oldest run on a page (runs are listed newest first); Infinity for a page without runs. */
export function oldestRunOn(records: RunListRecord[]): number {
	return Math.min(...runIdsOn(records));
}

/** A result's identity: its id (a record without one is only ever itself). */
const resultKey = (record: RunListRecord): unknown => record.id ?? JSON.stringify(record);

/**
 * What one walk of the results list has read, by run, each result once: the listing has no cursor, so when runs are
 * created between two page reads the later page repeats the end of the earlier one, and that result is taken once
 * (the later read, the fresher status, wins).
 *
 * It also knows which runs it holds whole. New runs enter at the top only, so between page reads every record moves
 * down, never up: a record above the oldest run of the last page read was on one of the pages read, at the time it
 * was read. Hence a run listed when the first page was read is whole once a later run follows it on the last page
 * read, or once that page was the last of the listing. (A result deleted between page reads moves the rest up and
 * may be skipped: the listing says nothing of deletions.)
 *
 * A page that only repeats results already read (besides runs created during the walk) hid a page: the walk is cut
 * there, and only runs above the oldest run read before it count as whole, whatever the walk read after. An empty
 * page after a full one is the listing's end when it holds a multiple of 100 results, or a page lost: the walk is cut
 * there too (a doubtful end, `doubtfulEnd`) unless `acceptEnd` takes it as the end (`advance.ts` says when).
 */
export class ListingView {
	private readonly runs = new Map<number, Map<unknown, RunListRecord>>();
	/** The newest run on the first page: runs above it were created during the walk and are left for the next poll. */
	private top = 0;
	private lastOldest = Infinity;
	private ended = false;
	/** Where a misbehaving page cut the walk: runs at or below it are not known whole. */
	private cut: number | undefined;
	/** The cut came from an empty page after a full one (see `doubtfulEnd`). */
	private cutByEmptyPage = false;
	/** That end was taken as the listing's true end (`acceptEnd`): the cut no longer holds. */
	private endAccepted = false;
	/** Every result read in this walk, to tell a page that only repeats earlier ones. */
	private readonly seen = new Set<unknown>();
	pages = 0;

	/** `keep` leaves out records that will never be emitted (other scrapers'), so a walk holds only what it needs. */
	constructor(private readonly keep: (record: RunListRecord) => boolean = () => true) {}

	add(page: Page<RunListRecord>): void {
		this.pages++;
		const ids = runIdsOn(page.records);
		if (this.pages === 1) this.top = Math.max(0, ...ids);
		// A page after the first has a full page before it: empty, it may not be the listing's end; nothing but repeats
		// and runs created during the walk, it hid a page (or its read came after a full page of new results).
		const repeats = page.records.length > 0 && page.records.every((record) => this.seen.has(resultKey(record)) || (runIdOf(record) ?? 0) > this.top);
		if (this.cut === undefined && this.pages > 1 && (page.records.length === 0 || repeats)) {
			this.cut = this.lastOldest;
			this.cutByEmptyPage = page.records.length === 0;
		}
		if (ids.length > 0) this.lastOldest = Math.min(...ids);
		this.ended = page.next === undefined;
		for (const record of page.records) {
			this.seen.add(resultKey(record));
			const id = runIdOf(record);
			if (id === undefined || id > this.top || !this.keep(record)) continue;
			const results = this.runs.get(id) ?? new Map<unknown, RunListRecord>();
			this.runs.set(id, results);
			results.set(resultKey(record), record);
		}
	}

	/** The newest run id on the first page (0 for an empty listing). */
	get newest(): number {
		return this.top;
	}

	/** Results read, each once (of every scraper): with `newest` and `doubtfulEnd`, what tells one walk's end from another's. */
	get resultsRead(): number {
		return this.seen.size;
	}

	/**
	 * The oldest run read before an empty page that followed a full one, when such a page ended the walk: the listing
	 * ends there, or a page was lost. Undefined when the walk ended without doubt.
	 */
	get doubtfulEnd(): number | undefined {
		return this.cutByEmptyPage && this.ended ? this.cut : undefined;
	}

	/** Takes the doubtful end as the listing's true end, once every page is added. */
	acceptEnd(): void {
		if (this.doubtfulEnd !== undefined) this.endAccepted = true;
	}

	/** Whether every result the run had when the walk began has been read (see the class comment). */
	holdsWhole(id: number): boolean {
		if (this.pages === 0 || id > this.top) return false;
		if (this.cut !== undefined && !this.endAccepted) return id > this.cut;
		return this.ended || id > this.lastOldest;
	}

	/** The run's results as read (only those `keep` kept); undefined when none was. */
	results(id: number): RunListRecord[] | undefined {
		const results = this.runs.get(id);
		return results ? [...results.values()] : undefined;
	}

	/** The runs read (only those with a result `keep` kept), newest first. */
	runIds(): number[] {
		return [...this.runs.keys()].sort((a, b) => b - a);
	}
}

/** When the run was created (ms), from its results; undefined when none says so readably. */
export function createdAtOf(results: RunListRecord[]): number | undefined {
	for (const result of results) {
		const ms = typeof result.created_at === 'string' ? Date.parse(result.created_at) : NaN;
		if (Number.isFinite(ms)) return ms;
	}
	return undefined;
}

/** A run from its results, in the order of their ids (the order the run lists its targets). */
export function listedRun(id: number, results: RunListRecord[]): TrackedRun {
	const ordered = [...results].sort((a, b) => Number(a.id) - Number(b.id));
	const first = ordered[0];
	return {
		id,
		scraper_id: Number(first?.scraper_id),
		scraper_name: String(first?.scraper_name ?? ''),
		status: overallStatus(ordered),
		results: ordered,
		created_at: first?.created_at,
		read: true,
	};
}
