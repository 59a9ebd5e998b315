import { isTerminalStatus } from '../transport/vocabulary';
import type { RunListRecord } from '../transport/vocabulary';
import { refusesAccount, resultsOf } from './io';
import type { RunTriggerIO } from './io';
import { createdAtOf, ListingView } from './listing';
import { walkNewRuns, walkRecentRuns } from './paging';
import { wanted } from './properties';
import type { RunTriggerParameters } from './properties';
import type { PendingRun, RunTriggerState } from './state';
import { DIRECT_READS_PER_POLL, directReadsDue, pastAgeLimit, RunSorter } from './tracking';
import type { RunPollOutcome } from './tracking';

/**
 * One poll: the new runs from the results list (`walkNewRuns`), the remembered unfinished ones it did not read whole
 * read directly (`directReadsDue`), each sorted into emitted or remembered (`RunSorter`). Nothing is written here:
 * `nodes/shared/execution/trigger.ts` commits the returned state only once the poll has fully succeeded.
 */
export async function collectFinishedRuns(io: RunTriggerIO, state: RunTriggerState, params: RunTriggerParameters): Promise<RunPollOutcome> {
	const now = io.now();
	const view = new ListingView((record) => wanted(params, record.scraper_id));
	const extraPages = await walkNewRuns(io, view, state.newestRunId, state.pending, DIRECT_READS_PER_POLL);
	// An empty page after a full one met at the same place two polls running is the listing's end, not a page lost.
	const doubtfulEnd = view.doubtfulEnd;
	if (doubtfulEnd !== undefined && doubtfulEnd === state.doubtfulEnd) view.acceptEnd();
	const direct = await readDirectly(io, directReadsDue(state.pending, view, DIRECT_READS_PER_POLL - extraPages));
	const sorter = new RunSorter(params, state.emitted, now);
	for (const run of state.pending) {
		// Only a direct read may say a remembered run is gone: a walk that ended early says nothing of the runs it missed.
		if (view.holdsWhole(run.id) && view.results(run.id) !== undefined) sorter.saw(run.id, view.results(run.id), run);
		else if (direct.read.has(run.id)) sorter.saw(run.id, direct.read.get(run.id), run);
		else sorter.keep(run, direct.failed.has(run.id));
	}
	// New runs are taken only when every one of them was read whole, and the marker then passes them all. Else none
	// is: the next poll reads them again, and a run emitted now could not be told from a new one then.
	const newRunsWhole = view.newest > state.newestRunId && view.holdsWhole(state.newestRunId + 1);
	if (newRunsWhole) for (const id of view.runIds()) if (id > state.newestRunId) sorter.saw(id, view.results(id));
	return sorter.outcome(newRunsWhole ? view.newest : state.newestRunId, io.node, doubtfulEnd);
}

interface DirectReads {
	read: Map<number, RunListRecord[]>;
	/** Runs whose read failed: they stay remembered, and the next poll tries again. */
	failed: Set<number>;
}

/**
 * Each run read whole, one request each, in turn (a handful per poll: no need to press the account's limit). One run
 * that cannot be read (a timeout, a 5xx) must not hold up the others forever; an account refused fails the poll.
 */
async function readDirectly(io: RunTriggerIO, runs: PendingRun[]): Promise<DirectReads> {
	const reads: DirectReads = { read: new Map(), failed: new Set() };
	for (const run of runs) {
		const results = await io.readRun(run.id).then(resultsOf, setAsideUnlessRefused);
		if (results === undefined) reads.failed.add(run.id);
		else reads.read.set(run.id, results);
	}
	return reads;
}

/** A failed direct read sets its run aside (undefined), unless the account was refused: then the poll fails as it came. */
function setAsideUnlessRefused(cause: unknown): undefined {
	if (refusesAccount(cause)) throw cause;
	return undefined;
}

/**
 * First activation: the newest run id is where "new" starts, runs finished before never trigger, and the runs of
 * the chosen scrapers still going then are remembered, so they trigger when they finish: pages are read back through
 * the runs started within the age limit (`walkRecentRuns`), keeping only the unfinished results of chosen scrapers.
 */
export async function initialState(io: RunTriggerIO, params: RunTriggerParameters): Promise<RunTriggerState> {
	const now = io.now();
	const going = (record: RunListRecord) => wanted(params, record.scraper_id) && !isTerminalStatus(record.status) && !pastAgeLimit(createdAtOf([record]) ?? now, now);
	const recent = (record: RunListRecord) => !pastAgeLimit(createdAtOf([record]) ?? -Infinity, now);
	const view = new ListingView(going);
	await walkRecentRuns(io, view, (record) => recent(record) || going(record));
	const sorter = new RunSorter(params, [], now);
	for (const id of view.runIds()) sorter.saw(id, view.results(id));
	return sorter.outcome(view.newest, io.node).state;
}
