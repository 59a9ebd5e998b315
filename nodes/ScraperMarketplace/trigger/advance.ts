import { isFinished } from '../runs/track';
import type { TrackedRun } from '../runs/track';
import { isTerminalStatus } from '../transport/vocabulary';
import type { RunListRecord } from '../transport/vocabulary';
import type { Page } from '../../shared/paging/pages';
import { createdAtOf, listedRun, ListingView, oldestRunOn, runIdOf } from './listing';
import { wanted } from './properties';
import type { RunTriggerParameters } from './properties';
import { MAX_PENDING, sameEnd, stateOf } from './state';
import type { EndMet, PendingRun, RunTriggerState } from './state';

/**
 * The Marketplace Trigger's memory, one poll at a time. `advance(state, observation, now)` holds every decision about what
 * the trigger remembers and emits; it sends no request and reads no clock, so generated listings can drive it alone
 * (`test/marketplace/trigger/advance.test.ts`). The poll (`collect.ts`) reads the pages `needsMorePages` asks for and
 * the runs `runsToRead` names, then calls `advance`; n8n keeps the state only once every request succeeded.
 *
 * Each finished run triggers exactly once by three locks: a new run (above `newestRunId`) is taken only when every
 * new run was read whole, and the marker then passes them all; a remembered run leaves `pending` when it is emitted;
 * the `emitted` ring never lets a run it holds trigger again (the second lock, e.g. a run listed unfinished again).
 */

/**
 * A run seen still unfinished this long after it started (its `created_at`, else when the trigger first saw it)
 * stops being tracked: a stuck run must never cost later polls anything. The node's notice and the README say so.
 */
export const MAX_UNFINISHED_AGE_MS = 24 * 60 * 60_000;

/**
 * Remembered runs the walk did not read whole are read one by one, at most this many per poll together with the
 * extra pages the walk read for them: a poll's cost is what is new plus this, never the history behind a stuck run.
 */
export const DIRECT_READS_PER_POLL = 20;

/** A poll reads at most this many pages of new runs (100,000 results); more is refused, and nothing is committed. */
export const MAX_PAGES_PER_POLL = 1_000;

/** What one poll read, in the order it read it. */
export interface Observation extends Pick<RunTriggerParameters, 'scrapers'> {
	/** The pages of the results list (newest first, no cursor), from page 1 on. */
	pages: Array<Page<RunListRecord>>;
	/** The remembered runs read directly (`runsToRead`): their results ([] once gone), or 'failed' (a timeout, a 5xx). */
	runs: Map<number, RunListRecord[] | 'failed'>;
}

/** Why a poll is refused: nothing is committed, and the next poll meets the same (the errors say what to do). */
export type Refusal = 'tooManyNewResults' | 'tooManyUnfinished';

/** The state to commit and the finished runs to emit (in run order), or a refusal. */
export type Step = { state: RunTriggerState; emit: TrackedRun[] } | { refused: Refusal };

/** One poll's step; without a state, the first poll of an activation. */
export function advance(state: RunTriggerState | undefined, seen: Observation, now: number): Step {
	return state === undefined ? activate(seen, now) : poll(state, seen, now);
}

/**
 * First activation: the newest run id is where "new" starts, runs finished before never trigger, and the runs of the
 * chosen scrapers still going then are remembered (every run the walk read a going result of), so they trigger when
 * they finish. Nothing is emitted.
 */
function activate(seen: Observation, now: number): Step {
	const view = new ListingView(going(seen, now));
	for (const page of seen.pages) view.add(page);
	const sorting = new Sorting(seen, [], now);
	for (const id of view.runIds()) sorting.saw(id, view.results(id));
	return sorting.settle(view.newest);
}

/** A later poll: each remembered run, then the new ones, sorted into emitted, remembered or let go. */
function poll(state: RunTriggerState, seen: Observation, now: number): Step {
	if (walkOverran(state, seen.pages)) return { refused: 'tooManyNewResults' };
	const view = walkView(seen);
	const end = endAmongNewRuns(state, view);
	const endTaken = sameEnd(end, state.endMet);
	if (endTaken) view.acceptEnd();
	const sorting = new Sorting(seen, state.emitted, now);
	for (const run of state.pending) {
		// Only a direct read may say a remembered run is gone: a walk that ended early says nothing of the runs it missed.
		const read = seen.runs.get(run.id);
		if (view.holdsWhole(run.id) && view.results(run.id) !== undefined) sorting.saw(run.id, view.results(run.id), run);
		else if (read !== undefined && read !== 'failed') sorting.saw(run.id, read, run);
		else sorting.keep(run, read === 'failed');
	}
	// New runs are taken only when every one of them was read whole, and the marker then passes them all. Else none
	// is: the next poll reads them again, and a run emitted now could not be told from a new one then.
	const newRunsWhole = view.newest > state.newestRunId && view.holdsWhole(state.newestRunId + 1);
	if (newRunsWhole) for (const id of view.runIds()) if (id > state.newestRunId) sorting.saw(id, view.results(id));
	return sorting.settle(newRunsWhole ? view.newest : state.newestRunId, endTaken ? undefined : end);
}

/**
 * An empty page after a full one is the listing's end (100 x k results) or a page lost, often the last: then the pages
 * after it are empty too, and no read of the poll tells which. Met past the new runs, it is never the end: they lie
 * above it, whole, and remembered runs below it are read directly. Met while every run read was new, it is returned,
 * and taken only by the next poll that meets the same (a page is not lost two polls running). Kept only by a poll that
 * emits nothing, which n8n never saves, it cannot come back after a restart (the former `doubtfulEnd` could: cut runs).
 */
function endAmongNewRuns(state: RunTriggerState, view: ListingView): EndMet | undefined {
	const oldest = view.doubtfulEnd;
	if (oldest === undefined || oldest <= state.newestRunId) return undefined;
	return { newest: view.newest, oldest, results: view.resultsRead };
}

/** One poll's decisions, run by run: each run once, however often a malformed state names it. */
class Sorting {
	private readonly emit: TrackedRun[] = [];
	private readonly pending: PendingRun[] = [];
	private readonly emitted: Set<number>;
	private readonly decided = new Set<number>();

	constructor(
		private readonly seen: Observation,
		private readonly emittedBefore: number[],
		private readonly now: number,
	) {
		this.emitted = new Set(emittedBefore);
	}

	/** A run seen whole: its results, none when it is gone. `previous` is what was remembered of it. */
	saw(id: number, results: RunListRecord[] | undefined, previous?: PendingRun): void {
		if (!this.first(id)) return;
		// Gone (deleted), or of a scraper no longer chosen: nothing to wait for.
		if (!results || results.length === 0 || !wanted(this.seen, results[0].scraper_id)) return;
		if (isFinished(results)) {
			if (!this.emitted.has(id)) this.emit.push(listedRun(id, results));
			return;
		}
		const since = createdAtOf(results) ?? previous?.since ?? this.now;
		if (!pastAgeLimit(since, this.now)) this.pending.push({ id, since, checked: this.now });
	}

	/**
	 * A remembered run this poll did not read: kept as it was (its age starts now if it had none, as for a run kept
	 * by state version 1). One whose read failed is dropped past the age limit, else it could be tracked forever; one
	 * not read yet (the per-poll bound) is kept, as it may have finished in time.
	 */
	keep(run: PendingRun, readFailed: boolean): void {
		if (!this.first(run.id)) return;
		const since = run.since ?? this.now;
		if (!(readFailed && pastAgeLimit(since, this.now))) this.pending.push({ ...run, since });
	}

	/** The step: the runs to emit, added to the emitted ring; the end met, kept only if none is (`endAmongNewRuns`). */
	settle(newestRunId: number, endMet?: EndMet): Step {
		if (this.pending.length > MAX_PENDING) return { refused: 'tooManyUnfinished' };
		const emit = [...this.emit].sort((a, b) => a.id - b.id);
		const emitted = [...this.emittedBefore, ...emit.map((run) => run.id)];
		return { state: stateOf(newestRunId, this.pending, emitted, emit.length === 0 ? endMet : undefined), emit };
	}

	private first(id: number): boolean {
		if (this.decided.has(id)) return false;
		this.decided.add(id);
		return true;
	}
}

/** Whether a run that started at `since` (ms) is past the age limit at `now`. */
function pastAgeLimit(since: number, now: number): boolean {
	return now - since > MAX_UNFINISHED_AGE_MS;
}

/** A result activation remembers: of a chosen scraper, unfinished, started within the age limit (or of unknown age). */
function going(seen: Observation, now: number): (record: RunListRecord) => boolean {
	return (record) => wanted(seen, record.scraper_id) && !isTerminalStatus(record.status) && !pastAgeLimit(createdAtOf([record]) ?? now, now);
}

/** A result activation reads back to: of a run started within the age limit, or one it remembers. */
function recentOrGoing(seen: Observation, now: number): (record: RunListRecord) => boolean {
	const remembered = going(seen, now);
	return (record) => !pastAgeLimit(createdAtOf([record]) ?? -Infinity, now) || remembered(record);
}

/** What the walk read, each run's results once (only the chosen scrapers'). */
function walkView(seen: Observation): ListingView {
	const view = new ListingView((record) => wanted(seen, record.scraper_id));
	for (const page of seen.pages) view.add(page);
	return view;
}

/**
 * Whether the poll reads the page after the last one read. Activation reads back while a page holds a run started
 * within the age limit or one going (a run going may sit behind any number of finished ones; older ones are never
 * tracked). A later poll reads until the oldest run on a page is one seen before: every new run lies above it, whole
 * (a page per 100 new results, plus one). Past that, on only while it pays: the page held a remembered run and some
 * are not read whole yet (runs going at activation sit together near the top: a page covers many of them, a direct
 * read one), within the direct reads' budget.
 */
export function needsMorePages(state: RunTriggerState | undefined, seen: Observation, now: number): boolean {
	const last = seen.pages[seen.pages.length - 1];
	if (last === undefined) return true;
	if (last.next === undefined) return false;
	if (state === undefined) return seen.pages.length < MAX_PAGES_PER_POLL && last.records.some(recentOrGoing(seen, now));
	// Asked after each page, so no need to look at every page each time: past the new runs the walk read on only
	// after a page holding a remembered run, for at most the budget; after any other page, only the last can pass.
	const before = seen.pages[seen.pages.length - 2];
	const from = before !== undefined && holdsPending(state, before) ? seen.pages.length - 1 - DIRECT_READS_PER_POLL : seen.pages.length - 1;
	const passedAt = passedNewRunsAt(state, seen.pages, from);
	// Still among new runs at the bound: the step refuses the poll (`walkOverran`).
	if (passedAt === undefined) return seen.pages.length < MAX_PAGES_PER_POLL;
	if (seen.pages.length - 1 - passedAt >= DIRECT_READS_PER_POLL || !holdsPending(state, last)) return false;
	const view = walkView(seen);
	return state.pending.some((run) => !view.holdsWhole(run.id));
}

/** Whether the page holds a remembered run. */
function holdsPending(state: RunTriggerState, page: Page<RunListRecord>): boolean {
	const onPage = new Set(page.records.map(runIdOf));
	return state.pending.some((run) => onPage.has(run.id));
}

/**
 * The remembered runs to read directly after the walk (GET /api/scraping-runs/{id}), within the budget its extra
 * pages left; none when the walk overran (the poll is refused).
 */
export function runsToRead(state: RunTriggerState | undefined, seen: Observation): number[] {
	if (state === undefined || walkOverran(state, seen.pages)) return [];
	const budget = DIRECT_READS_PER_POLL - extraPages(state, seen.pages);
	return directReadsDue(state.pending, walkView(seen), budget).map((run) => run.id);
}

/**
 * The remembered runs to read directly: those the walk did not read whole, or where it read none of their results
 * (deleted, or the walk ended early: only the run itself can say which), least recently checked first.
 */
export function directReadsDue(pending: PendingRun[], view: ListingView, count: number): PendingRun[] {
	return pending
		.filter((run) => !view.holdsWhole(run.id) || view.results(run.id) === undefined)
		.sort((a, b) => a.checked - b.checked || a.id - b.id)
		.slice(0, Math.max(0, count));
}

/** The first page (from `from` on) whose oldest run is one seen before (`newestRunId` or older); undefined while all were new. */
function passedNewRunsAt(state: RunTriggerState, pages: Array<Page<RunListRecord>>, from = 0): number | undefined {
	for (let at = Math.max(0, from); at < pages.length; at++) if (oldestRunOn(pages[at].records) <= state.newestRunId) return at;
	return undefined;
}

/** Pages read past the new runs, for remembered ones. */
export function extraPages(state: RunTriggerState, pages: Array<Page<RunListRecord>>): number {
	const at = passedNewRunsAt(state, pages);
	return at === undefined ? 0 : pages.length - 1 - at;
}

/** The walk met the page bound with new runs still going on: more new results than a poll may read. */
function walkOverran(state: RunTriggerState, pages: Array<Page<RunListRecord>>): boolean {
	const last = pages[pages.length - 1];
	return last?.next !== undefined && pages.length >= MAX_PAGES_PER_POLL && passedNewRunsAt(state, pages) === undefined;
}
