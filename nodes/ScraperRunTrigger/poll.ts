import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { getScrapingRun, isTerminalStatus, marketplaceRequest, overallStatus, runItem, runRecordItems } from '../ScraperMarketplace/api';
import type { RunListRecord, TrackedRun } from '../ScraperMarketplace/api';
import { locatorValue } from '../shared/locator';
import { TRIGGER_RETRY_POLICY } from '../shared/retry';
import { InputValidator } from '../shared/validation';

/**
 * Section C's results list is the only listing of runs: newest first (by creation), `page`/`per_page`, no date
 * filter and no sort. Run ids grow with creation, so "new since the last poll" is "run id above the newest one
 * seen", and a run that has started but not finished is remembered until it finishes. A poll reads pages from the
 * newest until it has passed both every new run and the oldest unfinished one it remembers: an idle poll (nothing
 * new, nothing unfinished) costs one request; each 100 results of new or unfinished runs cost one more.
 */
export const PER_PAGE = 100;

/** Unfinished runs remembered at most; a scraper that starts more runs than this at once is beyond the design. */
export const MAX_PENDING = 1_000;

/** A poll reads at most this many pages (100,000 results); more is an error, and the next poll tries again. */
export const MAX_PAGES_PER_POLL = 1_000;

/** The editor's sample looks at this many pages of the newest results. */
const SAMPLE_PAGES = 3;

export interface RunTriggerState {
	version: 1;
	/** The newest run id seen: runs above it are new. */
	newestRunId: number;
	/** Runs seen unfinished (of the chosen scrapers), to emit once they finish. */
	pending: number[];
}

export interface RunTriggerParameters {
	/** Scraper ids to trigger for; empty: every scraper. */
	scrapers: Set<number>;
	output: 'run' | 'records';
	includeFailed: boolean;
}

export function readParameters(ctx: IPollFunctions): RunTriggerParameters {
	const v = new InputValidator(ctx.getNode(), 0);
	const chosen = ctx.getNodeParameter('scrapers', {}) as { scraper?: Array<{ scraperId?: unknown }> };
	const scrapers = new Set<number>();
	for (const entry of chosen.scraper ?? []) scrapers.add(v.integer(locatorValue(entry.scraperId), 'Scraper ID', { min: 1 }));
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	return {
		scrapers,
		output: v.oneOf(ctx.getNodeParameter('output', 'run'), 'Output', ['run', 'records'] as const),
		includeFailed: options.includeFailed === undefined ? false : v.boolean(options.includeFailed, 'Include Failed Runs'),
	};
}

export function readState(staticData: IDataObject): RunTriggerState | undefined {
	if (staticData.version !== 1 || typeof staticData.newestRunId !== 'number') return undefined;
	const pending = Array.isArray(staticData.pending) ? staticData.pending.filter((id): id is number => typeof id === 'number') : [];
	return { version: 1, newestRunId: staticData.newestRunId, pending };
}

/** Written whole, and only after every request of the poll succeeded: a failed poll changes nothing. */
function commitState(staticData: IDataObject, state: RunTriggerState): void {
	staticData.version = 1;
	staticData.newestRunId = state.newestRunId;
	staticData.pending = state.pending;
}

async function resultsPage(ctx: IPollFunctions, page: number): Promise<RunListRecord[]> {
	const response = await marketplaceRequest<{ data?: RunListRecord[] }>(
		ctx,
		{ method: 'GET', path: '/api/results', qs: { page, per_page: PER_PAGE }, idempotent: true },
		0,
		undefined,
		TRIGGER_RETRY_POLICY,
	);
	return Array.isArray(response.data) ? response.data : [];
}

function toRun(id: number, results: RunListRecord[]): TrackedRun {
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

const isFinished = (results: RunListRecord[]) => results.length > 0 && results.every((r) => isTerminalStatus(r.status));

function wanted(params: RunTriggerParameters, scraperId: unknown): boolean {
	return params.scrapers.size === 0 || params.scrapers.has(Number(scraperId));
}

function passes(run: TrackedRun, params: RunTriggerParameters): boolean {
	const everyResultFailed = run.results.every((r) => String(r.status).toLowerCase() !== 'succeeded');
	return params.includeFailed || !everyResultFailed;
}

function runItems(run: TrackedRun, params: RunTriggerParameters): IDataObject[] {
	return params.output === 'records' ? runRecordItems(run) : [runItem(run, true)];
}

/**
 * Reads newest first until every new run and every remembered unfinished run has been read whole, grouping results
 * by run. A run's results are listed together; a page that ends inside a run we need is followed by the next one.
 */
async function readRuns(ctx: IPollFunctions, state: RunTriggerState): Promise<Map<number, RunListRecord[]>> {
	const runs = new Map<number, RunListRecord[]>();
	const oldestPending = state.pending.length > 0 ? Math.min(...state.pending) : Infinity;
	for (let page = 1; ; page++) {
		if (page > MAX_PAGES_PER_POLL) {
			throw new NodeOperationError(ctx.getNode(), `More than ${MAX_PAGES_PER_POLL * PER_PAGE} new or unfinished results since the last check`, {
				description: 'The trigger will try again at the next poll. If this persists, deactivate and activate the workflow to start from now.',
			});
		}
		const records = await resultsPage(ctx, page);
		let lowest = Infinity;
		for (const record of records) {
			const id = Number(record.scraping_run_id);
			if (!Number.isInteger(id)) continue;
			lowest = Math.min(lowest, id);
			const list = runs.get(id) ?? [];
			list.push(record);
			runs.set(id, list);
		}
		// A short page is the last. Otherwise read on while the page's oldest run may still continue on the next page
		// and is one we need: new (above the newest seen) or remembered unfinished (at or above the oldest of them).
		if (records.length < PER_PAGE) break;
		if (lowest <= state.newestRunId && lowest < oldestPending) break;
	}
	return runs;
}

export interface RunPollOutcome {
	runs: TrackedRun[];
	state: RunTriggerState;
}

/** The runs that finished since the last poll (in the order they were started), and the state to commit. */
export async function collectFinishedRuns(ctx: IPollFunctions, state: RunTriggerState, params: RunTriggerParameters): Promise<RunPollOutcome> {
	const listed = await readRuns(ctx, state);
	const finished: TrackedRun[] = [];
	const pending: number[] = [];
	let newest = state.newestRunId;
	const consider = (id: number, results: RunListRecord[] | undefined) => {
		if (!results) return; // no longer listed (deleted): nothing to wait for
		if (!wanted(params, results[0]?.scraper_id)) return;
		if (isFinished(results)) finished.push(toRun(id, results));
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
	finished.sort((a, b) => a.id - b.id);
	const emitted = finished.filter((run) => passes(run, params));
	return { runs: emitted, state: { version: 1, newestRunId: newest, pending: pending.sort((a, b) => a - b) } };
}

/**
 * First activation: the newest run id is where "new" starts, and runs of the chosen scrapers still going then are
 * remembered, so they trigger when they finish. One request.
 */
async function initialState(ctx: IPollFunctions, params: RunTriggerParameters): Promise<RunTriggerState> {
	const records = await resultsPage(ctx, 1);
	const runs = new Map<number, RunListRecord[]>();
	for (const record of records) {
		const id = Number(record.scraping_run_id);
		if (Number.isInteger(id)) runs.set(id, [...(runs.get(id) ?? []), record]);
	}
	const newestRunId = Math.max(0, ...runs.keys());
	const pending = [...runs].filter(([, results]) => wanted(params, results[0]?.scraper_id) && !isFinished(results)).map(([id]) => id);
	return { version: 1, newestRunId, pending: pending.sort((a, b) => a - b) };
}

/** The editor's "Fetch Test Event": the newest finished run that passes the filters, read whole; no state changes. */
async function sampleItems(ctx: IPollFunctions, params: RunTriggerParameters): Promise<INodeExecutionData[]> {
	for (let page = 1; page <= SAMPLE_PAGES; page++) {
		const records = await resultsPage(ctx, page);
		const candidates = new Map<number, RunListRecord[]>();
		for (const record of records) {
			const id = Number(record.scraping_run_id);
			if (Number.isInteger(id) && wanted(params, record.scraper_id)) candidates.set(id, [...(candidates.get(id) ?? []), record]);
		}
		for (const [id, results] of candidates) {
			if (!isFinished(results)) continue;
			// Read whole: the page may have cut its results.
			const full = await getScrapingRun(ctx, id, 0);
			const run = toRun(id, Array.isArray(full.results) ? full.results : results);
			if (!isFinished(run.results) || !passes(run, params)) continue;
			const items = runItems(run, params);
			if (items.length > 0) return items.map((json) => ({ json }));
		}
		if (records.length < PER_PAGE) break;
	}
	throw new NodeOperationError(ctx.getNode(), `No finished scraping run${params.scrapers.size > 0 ? ' of the chosen scrapers' : ''} found yet`, {
		description:
			`Run a scraper (Scraper Marketplace node > Scraper > Run, or a scheduled scraper) and fetch again once its run has finished. ` +
			`The sample is the newest finished run among the ${SAMPLE_PAGES * PER_PAGE} newest results` +
			(params.includeFailed ? '' : '; runs in which every result failed are skipped unless enabled in Options') +
			'. Check that the credential belongs to the account that runs the scrapers.',
	});
}

/** One poll: in the editor a sample; when active, the runs that finished since the last successful poll. */
export async function pollRunTrigger(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const params = readParameters(ctx);
	if (ctx.getMode() === 'manual') return [await sampleItems(ctx, params)];
	const staticData = ctx.getWorkflowStaticData('node');
	const state = readState(staticData);
	if (state === undefined) {
		commitState(staticData, await initialState(ctx, params));
		return null;
	}
	const outcome = await collectFinishedRuns(ctx, state, params);
	commitState(staticData, outcome.state);
	const items = outcome.runs.flatMap((run) => runItems(run, params)).map((json): INodeExecutionData => ({ json }));
	return items.length > 0 ? [items] : null;
}
