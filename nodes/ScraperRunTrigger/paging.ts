import { NodeOperationError } from 'n8n-workflow';
import type { IPollFunctions } from 'n8n-workflow';

import { resultsPageReader } from '../ScraperMarketplace/api';
import { isFinished, overallStatus } from '../ScraperMarketplace/runs';
import type { TrackedRun } from '../ScraperMarketplace/runs';
import { LARGEST_RESULTS_PAGE } from '../ScraperMarketplace/vocabulary';
import type { RunListRecord } from '../ScraperMarketplace/vocabulary';
import { walkPages } from '../shared/pages';
import type { PageReader } from '../shared/pages';
import { TRIGGER_RETRY_POLICY } from '../shared/retry';
import { wanted } from './properties';
import type { RunTriggerParameters } from './properties';
import { MAX_PENDING, stateOf } from './state';
import type { RunTriggerState } from './state';

/**
 * Section C's results list is the only listing of runs: newest first (by creation), `page`/`per_page`, no date
 * filter and no sort. A poll reads pages from the newest until it has passed both every new run and the oldest
 * unfinished one it remembers: an idle poll (nothing new, nothing unfinished) costs one request; each 100 results of
 * new or unfinished runs cost one more.
 */
export const PAGE_SIZE = LARGEST_RESULTS_PAGE;

/** A poll reads at most this many pages (100,000 results); more is an error, and the next poll tries again. */
export const MAX_PAGES_PER_POLL = 1_000;

/** The results list as the trigger reads it: full pages, with the trigger's retry policy. */
export function triggerResultsReader(ctx: IPollFunctions): PageReader<RunListRecord> {
	return resultsPageReader(ctx, PAGE_SIZE, { policy: TRIGGER_RETRY_POLICY });
}

/** Records grouped by their run, in listing order; records without a run id, or that `keep` refuses, are left out. */
export function groupByRun(
	records: RunListRecord[],
	runs = new Map<number, RunListRecord[]>(),
	keep: (record: RunListRecord) => boolean = () => true,
): Map<number, RunListRecord[]> {
	for (const record of records) {
		const id = Number(record.scraping_run_id);
		if (!Number.isInteger(id) || !keep(record)) continue;
		const results = runs.get(id);
		if (results) results.push(record);
		else runs.set(id, [record]);
	}
	return runs;
}

/** A run from its results as listed (the listing carries their content). */
export function listedRun(id: number, results: RunListRecord[]): TrackedRun {
	const first = results[0];
	return {
		id,
		scraper_id: Number(first?.scraper_id),
		scraper_name: String(first?.scraper_name ?? ''),
		status: overallStatus(results),
		results,
		created_at: first?.created_at,
		read: true,
	};
}

/** The oldest run on a page (runs are listed newest first); Infinity for a page without runs. */
function oldestRunOn(records: RunListRecord[]): number {
	return Math.min(...records.map((record) => Number(record.scraping_run_id)).filter(Number.isInteger));
}

/**
 * Reads newest first until every new run and every remembered unfinished run has been read whole, grouping results
 * by run. A run's results are listed together; a page that ends inside a run we need is followed by the next one.
 */
export async function readRuns(
	ctx: IPollFunctions,
	state: RunTriggerState,
	read: PageReader<RunListRecord> = triggerResultsReader(ctx),
): Promise<Map<number, RunListRecord[]>> {
	const runs = new Map<number, RunListRecord[]>();
	const oldestPending = state.pending.length > 0 ? Math.min(...state.pending) : Infinity;
	// A short page is the last: the walk ends there by itself.
	for await (const page of walkPages(read, 1)) {
		groupByRun(page.records, runs);
		// Read on while the page's oldest run may still continue on the next page and is one we need: new (above the
		// newest seen) or remembered unfinished (at or above the oldest of them).
		const oldest = oldestRunOn(page.records);
		if (oldest <= state.newestRunId && oldest < oldestPending) break;
		if (page.next !== undefined && page.count >= MAX_PAGES_PER_POLL) {
			throw new NodeOperationError(ctx.getNode(), `More than ${MAX_PAGES_PER_POLL * PAGE_SIZE} new or unfinished results since the last check`, {
				description: 'The trigger will try again at the next poll. If this persists, deactivate and activate the workflow to start from now.',
			});
		}
	}
	return runs;
}

export interface RunPollOutcome {
	/** Finished runs of the chosen scrapers, in the order they were started. */
	runs: TrackedRun[];
	state: RunTriggerState;
}

/** The runs that finished since the last poll, and the state to commit. */
export async function collectFinishedRuns(ctx: IPollFunctions, state: RunTriggerState, params: RunTriggerParameters): Promise<RunPollOutcome> {
	const listed = await readRuns(ctx, state);
	const finished: TrackedRun[] = [];
	const pending: number[] = [];
	let newest = state.newestRunId;
	const consider = (id: number, results: RunListRecord[] | undefined) => {
		if (!results) return; // no longer listed (deleted): nothing to wait for
		if (!wanted(params, results[0]?.scraper_id)) return;
		if (isFinished(results)) finished.push(listedRun(id, results));
		else pending.push(id);
	};
	for (const id of state.pending) consider(id, listed.get(id));
	for (const [id, results] of listed) {
		newest = Math.max(newest, id);
		if (id > state.newestRunId) consider(id, results);
	}
	if (pending.length > MAX_PENDING) {
		throw new NodeOperationError(ctx.getNode(), `More than ${MAX_PENDING} runs are unfinished at once`, {
			description: 'Choose fewer scrapers in Scrapers, or wait until some runs finish; the trigger tries again at the next poll.',
		});
	}
	return { runs: finished.sort((a, b) => a.id - b.id), state: stateOf(newest, pending) };
}

/**
 * First activation: the newest run id is where "new" starts, and runs of the chosen scrapers still going then are
 * remembered, so they trigger when they finish. One request.
 */
export async function initialState(ctx: IPollFunctions, params: RunTriggerParameters): Promise<RunTriggerState> {
	const { records } = await triggerResultsReader(ctx)(1);
	const runs = groupByRun(records);
	const pending = [...runs].filter(([, results]) => wanted(params, results[0]?.scraper_id) && !isFinished(results)).map(([id]) => id);
	return stateOf(Math.max(0, ...runs.keys()), pending);
}
