import type { IDataObject, INode } from 'n8n-workflow';

import { nodeOperationError } from '../../shared/execution/errors';
import { readBudget, stoppableCall, waitForCompletion } from '../../shared/execution/polling';
import { unconfirmedWorkError } from '../../shared/execution/unknownOutcome';
import { WaitFields } from '../../shared/execution/waitFields';
import type { WaitSettings } from '../../shared/execution/waitFields';
import { SCRAPING_RUN_ID } from '../descriptions/ids';
import { MARKETPLACE_VERSIONS } from '../versions';
import { getScrapingRun } from '../transport/api';
import { CREATE_ONLY_FIELDS, idOf, isTerminalStatus, RUN_STATUS } from '../transport/vocabulary';
import type { RunListRecord, RunStatus } from '../transport/vocabulary';
import type { ExecutionCall } from '../../shared/execution/call';

/**
 * Wait for Completion of the operations that start runs, with Max Wait and Poll Interval (in Options from version 3).
 * A queued run carries no data yet: waiting is what most users want, so it is on by default.
 */
export const RUN_WAIT = new WaitFields(
	'run',
	true,
	'every result of the run has succeeded or failed, and output the extracted data',
	MARKETPLACE_VERSIONS.options,
);

/** A run as the node knows it: its results, and whether they were read after the run started. */
export interface TrackedRun {
	id: number;
	scraper_id: number;
	scraper_name: string;
	status: RunStatus;
	results: RunListRecord[];
	created_at?: string;
	/** True once the run was read with GET `/api/scraping-runs/{id}` (create answers carry no content). */
	read: boolean;
}

/**
 * Refuses a start whose answer has results that name no scraping run: the node could neither wait for such a run nor
 * name it (a message would print "NaN"). The work was started, so the message says so and where to find it.
 */
export function refuseUnnamedRuns(node: INode, results: IDataObject[], itemIndex: number): void {
	const unnamed = results.filter((result) => idOf(result.scraping_run_id) === undefined);
	if (unnamed.length === 0) return;
	const scrapers = [...new Set(unnamed.map((result) => idOf(result.scraper_id)).filter((id) => id !== undefined))];
	const of = scrapers.length === 0 ? '' : ` of scraper ${scrapers.join(', ')}`;
	const which = unnamed.length === 1 ? 'a result of its answer names' : `${unnamed.length} results of its answer name`;
	throw nodeOperationError(node, `Scraper Marketplace started the work${of}, but ${which} no scraping run (no scraping_run_id)`, {
		itemIndex,
		description:
			'The node can neither wait for nor name a run without its ID. Do not start it again: it goes on in the service. Find the new run with Scraping Run > Get Latest of the scraper, or start a workflow when it finishes with the Scraper Marketplace Trigger (Scraping Run Finished).',
	});
}

/** Groups result records (from a create or run answer) into their scraping runs, in first-seen order. */
export function trackRuns(results: IDataObject[]): TrackedRun[] {
	const runs = new Map<number, TrackedRun>();
	for (const result of results) {
		const id = Number(result.scraping_run_id);
		let run = runs.get(id);
		if (!run) {
			run = {
				id,
				scraper_id: Number(result.scraper_id),
				scraper_name: String(result.scraper_name ?? ''),
				status: RUN_STATUS.queued,
				results: [],
				read: false,
			};
			if (typeof result.created_at === 'string') run.created_at = result.created_at;
			runs.set(id, run);
		}
		const record: IDataObject = { content: null, ...result };
		for (const field of CREATE_ONLY_FIELDS) delete record[field];
		run.results.push(record as RunListRecord);
	}
	for (const run of runs.values()) run.status = overallStatus(run.results);
	return [...runs.values()];
}

/** The run's status from its results: succeeded/failed once all are done, else running or queued. */
export function overallStatus(results: RunListRecord[]): RunStatus {
	const statuses = results.map((r) => String(r.status ?? '').toLowerCase());
	if (statuses.length > 0 && statuses.every(isTerminalStatus)) {
		return statuses.every((s) => s === RUN_STATUS.succeeded) ? RUN_STATUS.succeeded : RUN_STATUS.failed;
	}
	if (statuses.some((s) => s === RUN_STATUS.running || isTerminalStatus(s))) return RUN_STATUS.running;
	return RUN_STATUS.queued;
}

/** Results listed and every one of them done: a finished run (no results is not a run to read yet). */
export function isFinished(results: RunListRecord[]): boolean {
	return results.length > 0 && results.every((r) => isTerminalStatus(r.status));
}

export function isRunDone(run: TrackedRun): boolean {
	return run.read && isFinished(run.results);
}

/** The run as it stands now: read again unless it is done (one request). */
async function reread(call: ExecutionCall, run: TrackedRun, itemIndex: number, budgetMs: number, expired: AbortSignal): Promise<TrackedRun> {
	if (isRunDone(run)) return run;
	// Within the wait's budget, and no retry once the wait gave up on the read (see readBudget).
	const { timeoutMs, policy } = readBudget(budgetMs);
	const fresh = await getScrapingRun(stoppableCall(call, expired), run.id, itemIndex, policy, timeoutMs);
	const results = Array.isArray(fresh.results) ? fresh.results : [];
	return {
		id: run.id,
		scraper_id: Number(fresh.scraper_id ?? run.scraper_id),
		scraper_name: String(results[0]?.scraper_name ?? run.scraper_name),
		status: typeof fresh.status === 'string' ? fresh.status : overallStatus(results),
		results,
		created_at: fresh.created_at,
		read: true,
	};
}

/** How to read runs later, for every message about runs the node started or waited for. */
export function readRunsLater(runIds: number[]): string {
	const ids = runIds.join(', ');
	return `Read ${runIds.length === 1 ? 'it' : 'them'} later with Scraping Run > Get ('${SCRAPING_RUN_ID.label}' ${ids}), or start a workflow when ${runIds.length === 1 ? 'it finishes' : 'they finish'} with the Scraper Marketplace Trigger (Scraping Run Finished).`;
}

/**
 * Polls each unfinished run with GET `/api/scraping-runs/{id}` (one request per run per poll, the cheapest read
 * that returns a run's results with their content) until all are succeeded or failed, or `wait.maxWaitMs` passes.
 * The first state is the one the create or run answer gave, so no request is spent on runs that just started.
 * Reads that keep failing until Max Wait, or a stopped execution, end in an error naming the runs, which go on in
 * the service: never in one that invites starting them again.
 */
export async function waitForRuns(call: ExecutionCall, initial: TrackedRun[], itemIndex: number, wait: WaitSettings): Promise<TrackedRun[]> {
	let current = initial;
	const outcome = await waitForCompletion<TrackedRun[]>({
		read: async (budgetMs, expired) => {
			const next: TrackedRun[] = [];
			for (const run of current) next.push(await reread(call, run, itemIndex, budgetMs, expired));
			current = next;
			return current;
		},
		isDone: (runs) => runs.every(isRunDone),
		initial,
		maxWaitMs: wait.maxWaitMs,
		initialDelayMs: wait.pollIntervalMs,
		maxDelayMs: Math.max(wait.pollIntervalMs, 30_000),
		signal: call.cancelSignal,
	});
	if (outcome.unconfirmed) {
		const runIds = initial.map((run) => run.id);
		// A run whose answer named no scraper is named by itself: never "of scraper NaN".
		const scraperIds = [...new Set(initial.map((run) => idOf(run.scraper_id)).filter((id) => id !== undefined))];
		const of = scraperIds.length === 0 ? '' : ` of scraper ${scraperIds.join(', ')}`;
		throw unconfirmedWorkError(call.ctx.getNode(), {
			work: `${runIds.length === 1 ? 'Scraping run' : 'Scraping runs'} ${runIds.join(', ')}${of}`,
			unconfirmed: outcome.unconfirmed,
			readLater: readRunsLater(runIds),
			carried: { scraperIds, scrapingRunIds: runIds, latestState: (outcome.state ?? current).map(({ id, status, results }) => ({ scraping_run_id: id, status, results })) },
			itemIndex,
		});
	}
	return outcome.state;
}
