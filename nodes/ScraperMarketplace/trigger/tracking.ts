import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { isFinished } from '../runs/track';
import type { TrackedRun } from '../runs/track';
import type { RunListRecord } from '../transport/vocabulary';
import { createdAtOf, listedRun } from './listing';
import type { ListingView } from './listing';
import { wanted } from './properties';
import type { RunTriggerParameters } from './properties';
import { MAX_PENDING, stateOf } from './state';
import type { PendingRun, RunTriggerState } from './state';

/**
 * A run seen still unfinished this long after it started (its `created_at`, else when the trigger first saw it)
 * stops being tracked: a stuck run must never cost later polls anything. The node's notice and the README say so.
 */
export const MAX_UNFINISHED_AGE_MS = 24 * 60 * 60_000;

/**
 * Remembered runs the walk did not read whole are read one by one (GET /api/scraping-runs/{id}), at most this many
 * per poll together with the extra pages the walk read for them: a poll's cost is what is new plus this, never the
 * history behind a stuck run.
 */
export const DIRECT_READS_PER_POLL = 20;

/** Whether a run that started at `since` (ms) is past the age limit at `now`. */
export function pastAgeLimit(since: number, now: number): boolean {
	return now - since > MAX_UNFINISHED_AGE_MS;
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

export interface RunPollOutcome {
	/** Finished runs of the chosen scrapers, in the order they were started. */
	runs: TrackedRun[];
	state: RunTriggerState;
}

/** Sorts what one poll saw of each run into runs to emit and runs to remember, and makes the state to commit. */
export class RunSorter {
	private readonly finished: TrackedRun[] = [];
	private readonly pending: PendingRun[] = [];
	private readonly emitted: Set<number>;
	/** Runs already sorted this poll: a run is taken once, however often a malformed state names it. */
	private readonly sorted = new Set<number>();

	constructor(
		private readonly params: Pick<RunTriggerParameters, 'scrapers'>,
		private readonly emittedBefore: number[],
		private readonly now: number,
	) {
		this.emitted = new Set(emittedBefore);
	}

	/** A run seen whole: its results, none when it is gone. `previous` is what was remembered of it. */
	saw(id: number, results: RunListRecord[] | undefined, previous?: PendingRun): void {
		if (!this.first(id)) return;
		// Gone (deleted), or of a scraper no longer chosen: nothing to wait for.
		if (!results || results.length === 0 || !wanted(this.params, results[0].scraper_id)) return;
		if (isFinished(results)) {
			if (!this.emitted.has(id)) this.finished.push(listedRun(id, results));
			return;
		}
		const since = createdAtOf(results) ?? previous?.since ?? this.now;
		if (!pastAgeLimit(since, this.now)) this.pending.push({ id, since, checked: this.now });
	}

	/**
	 * A remembered run this poll did not read: kept as it was (its age starts now if it had none). One whose read
	 * failed is dropped past the age limit, else it could be tracked forever; one not read yet (the per-poll bound)
	 * is kept, as it may have finished in time.
	 */
	keep(run: PendingRun, readFailed = false): void {
		if (!this.first(run.id)) return;
		const since = run.since ?? this.now;
		if (!(readFailed && pastAgeLimit(since, this.now))) this.pending.push({ ...run, since });
	}

	private first(id: number): boolean {
		if (this.sorted.has(id)) return false;
		this.sorted.add(id);
		return true;
	}

	/** The runs to emit and the state to commit once the poll has fully succeeded. */
	outcome(newestRunId: number, node: INode, doubtfulEnd?: number): RunPollOutcome {
		if (this.pending.length > MAX_PENDING) throw tooManyPending(node);
		const runs = [...this.finished].sort((a, b) => a.id - b.id);
		const emitted = [...this.emittedBefore, ...runs.map((run) => run.id)];
		return { runs, state: stateOf(newestRunId, this.pending, emitted, doubtfulEnd) };
	}
}

function tooManyPending(node: INode): NodeOperationError {
	return new NodeOperationError(node, `More than ${MAX_PENDING} runs are unfinished at once`, {
		description:
			`The trigger remembers at most ${MAX_PENDING} unfinished runs, to start the workflow when each finishes. Choose fewer scrapers in 'Scrapers', ` +
			'or wait until some runs finish (a run unfinished for more than 24 hours stops being tracked): the next poll tries again and nothing is skipped until then.',
	});
}
