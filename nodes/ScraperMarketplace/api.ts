import { NodeApiError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';

import { waitForCompletion } from '../shared/polling';
import { apiRequest } from '../shared/transport';
import type { RetryPolicy } from '../shared/retry';
import type { ApiDefinition, ApiRequest, RequestContext } from '../shared/transport';

/** The section C API: `Authorization: Bearer <token>`, paths under `/api`. */
export const MARKETPLACE_API: ApiDefinition = {
	credentialType: 'scraperMarketplaceApi',
	credentialName: 'Scraper Marketplace API',
	service: 'Scraper Marketplace',
};

/** API field name -> the parameter's display name, so a 422 from the service names what the user sees. */
export type FieldLabels = Record<string, string>;

/**
 * One authenticated section C request (retry policy of the shared transport). With `fieldLabels`, a 422 naming
 * API fields (e.g. `landsize_minimum`) is reworded with the node's parameter names.
 */
export async function marketplaceRequest<T = IDataObject>(
	ctx: RequestContext,
	request: ApiRequest,
	itemIndex: number,
	fieldLabels?: FieldLabels,
	policy?: RetryPolicy,
): Promise<T> {
	try {
		return await apiRequest<T>(ctx, MARKETPLACE_API, request, itemIndex, policy);
	} catch (error) {
		throw withFieldLabels(error, fieldLabels);
	}
}

/** The error itself; a 422 NodeApiError gets its message reworded with the parameters' display names. */
function withFieldLabels(error: unknown, labels: FieldLabels | undefined): unknown {
	if (labels && error instanceof NodeApiError && error.httpCode === '422') relabelFieldErrors(error, labels);
	return error;
}

function relabelFieldErrors(error: NodeApiError, labels: FieldLabels): void {
	const body = error.errorResponse as JsonObject | undefined;
	const errors = body && Array.isArray(body.errors) ? (body.errors as JsonObject[]) : [];
	const parts = errors
		.filter((e) => e && typeof e === 'object' && typeof e.field === 'string')
		.map((e) => {
			const field = e.field as string;
			const root = /^[A-Za-z_][A-Za-z0-9_]*/.exec(field)?.[0] ?? field;
			const label = labels[root];
			const text = typeof e.message === 'string' ? e.message : 'invalid';
			return label ? `"${label}" (${field}): ${text}` : `${field}: ${text}`;
		});
	if (parts.length > 0) error.message = `${MARKETPLACE_API.service} rejected the input: ${parts.join('; ')}`;
}

/** `status` of a section C run result: `queued`, `running`, then `succeeded` or `failed`. */
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | string;

/** C. Run-list record: one result (one URL, location query or keyword) of a scraping run. */
export interface RunListRecord extends IDataObject {
	id: number;
	scraper_id: number;
	scraping_run_id: number;
	scraper_name: string;
	scraped_url: string;
	status: RunStatus;
	/** Null until the result is done; then the extracted data (or the page HTML on the HTML endpoint). */
	content: IDataObject | IDataObject[] | string | null;
	created_at: string;
	updated_at: string;
}

/** A scraping run with all its results (GET `/api/scraping-runs/{id}` and the HTML endpoint). */
export interface ScrapingRun extends IDataObject {
	id: number;
	scraper_id: number;
	status: RunStatus;
	results: RunListRecord[];
	created_at: string;
}

// `failed` is the documented failure; the others are kept terminal in case the service reports them.
const TERMINAL_STATUSES = ['succeeded', 'failed', 'error', 'canceled', 'cancelled'];

export function isTerminalStatus(status: unknown): boolean {
	return TERMINAL_STATUSES.includes(String(status ?? '').toLowerCase());
}

/** Reads one scraping run with the extracted content of each of its results. */
export async function getScrapingRun(ctx: RequestContext, id: number, itemIndex: number): Promise<ScrapingRun> {
	const response = await marketplaceRequest<{ data: ScrapingRun }>(
		ctx,
		{ method: 'GET', path: `/api/scraping-runs/${id}`, idempotent: true, subject: { kind: 'scraping run', id } },
		itemIndex,
	);
	return response.data;
}

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
				status: 'queued',
				results: [],
				read: false,
			};
			runs.set(id, run);
		}
		// The run-list shape: without the nested scraper configuration and the misspelt twin of scraped_url.
		const record: IDataObject = { content: null, ...result };
		delete record.scraper;
		delete record.scrapped_url;
		run.results.push(record as RunListRecord);
	}
	for (const run of runs.values()) run.status = overallStatus(run.results);
	return [...runs.values()];
}

/** The run's status from its results: succeeded/failed once all are done, else running or queued. */
export function overallStatus(results: RunListRecord[]): RunStatus {
	const statuses = results.map((r) => String(r.status ?? '').toLowerCase());
	if (statuses.length > 0 && statuses.every(isTerminalStatus)) return statuses.every((s) => s === 'succeeded') ? 'succeeded' : 'failed';
	if (statuses.some((s) => s === 'running' || isTerminalStatus(s))) return 'running';
	return 'queued';
}

export function isRunDone(run: TrackedRun): boolean {
	return run.read && run.results.length > 0 && run.results.every((r) => isTerminalStatus(r.status));
}

export interface RunWaitOutcome {
	runs: TrackedRun[];
	done: boolean;
	waitedMs: number;
}

/**
 * Polls each unfinished run with GET `/api/scraping-runs/{id}` (one request per run per poll, the cheapest read
 * that returns a run's results with their content) until all are succeeded or failed, or `maxWaitMs` passes.
 * The first state is the one the create or run answer gave, so no request is spent on runs that just started.
 */
export async function waitForRuns(
	ctx: IExecuteFunctions,
	initial: TrackedRun[],
	itemIndex: number,
	options: { maxWaitMs: number; pollIntervalMs: number },
): Promise<RunWaitOutcome> {
	let first = true;
	let current = initial;
	const outcome = await waitForCompletion<TrackedRun[]>({
		read: async () => {
			if (first) {
				first = false;
				return initial;
			}
			const next: TrackedRun[] = [];
			for (const run of current) {
				if (isRunDone(run)) {
					next.push(run);
					continue;
				}
				const fresh = await getScrapingRun(ctx, run.id, itemIndex);
				const results = Array.isArray(fresh.results) ? fresh.results : [];
				next.push({
					id: run.id,
					scraper_id: Number(fresh.scraper_id ?? run.scraper_id),
					scraper_name: String(results[0]?.scraper_name ?? run.scraper_name),
					status: typeof fresh.status === 'string' ? fresh.status : overallStatus(results),
					results,
					created_at: fresh.created_at,
					read: true,
				});
			}
			current = next;
			return next;
		},
		isDone: (runs) => runs.every(isRunDone),
		maxWaitMs: options.maxWaitMs,
		initialDelayMs: options.pollIntervalMs,
		maxDelayMs: Math.max(options.pollIntervalMs, 30_000),
		signal: ctx.getExecutionCancelSignal(),
	});
	return { runs: outcome.state, done: outcome.done, waitedMs: outcome.waitedMs };
}

const LIST_KEYS = ['records', 'items', 'results', 'data', 'listings', 'leads', 'pdfs', 'jobs'];

/** The extracted records of one result's `content`: a list as is, a list inside an object, else one record. */
export function contentRecords(content: unknown): IDataObject[] {
	if (content === undefined || content === null || content === '') return [];
	let list: unknown[];
	if (Array.isArray(content)) {
		list = content;
	} else if (typeof content === 'object') {
		const inner = LIST_KEYS.map((key) => (content as IDataObject)[key]).find(Array.isArray);
		list = inner ?? [content];
	} else {
		list = [content];
	}
	return list.map((entry) =>
		entry !== null && typeof entry === 'object' && !Array.isArray(entry)
			? (entry as IDataObject)
			: { value: entry as IDataObject[keyof IDataObject] },
	);
}

function countDone(run: TrackedRun): number {
	return run.results.filter((r) => isTerminalStatus(r.status)).length;
}

/**
 * A run as one item: status, counts and every result with its content. `maxWaitSeconds` is the wait that ended
 * before the run did (Wait for Completion); the item then says so and what to do.
 */
export function runItem(run: TrackedRun, completed: boolean, maxWaitSeconds?: number): IDataObject {
	const item: IDataObject = {
		scraper_id: run.scraper_id,
		scraper_name: run.scraper_name,
		scraping_run_id: run.id,
		status: run.status,
		completed,
		results_total: run.results.length,
		results_succeeded: run.results.filter((r) => r.status === 'succeeded').length,
		results_failed: run.results.filter((r) => r.status === 'failed').length,
		results: run.results,
	};
	if (run.created_at) item.created_at = run.created_at;
	if (!completed && maxWaitSeconds !== undefined) {
		item.waitTimedOut = true;
		item.waitMessage = `The run is still ${run.status} after ${maxWaitSeconds} s: ${countDone(run)} of ${run.results.length} results done. Read them later with Result > Get Many, or raise Max Wait.`;
	}
	return item;
}

/** One item per extracted record, with the scraper, run and result ids; a result without records gives its status. */
export function runRecordItems(run: TrackedRun, maxWaitSeconds?: number): IDataObject[] {
	const out: IDataObject[] = [];
	for (const result of run.results) {
		const context: IDataObject = { scraper_id: run.scraper_id, scraping_run_id: run.id, result_id: result.id, scraped_url: result.scraped_url };
		if (result.status === 'succeeded') {
			for (const record of contentRecords(result.content)) out.push({ ...context, ...record });
			continue;
		}
		const message = isTerminalStatus(result.status)
			? `The service could not scrape this ${result.scraped_url === 'Default' ? 'query' : 'target'} (status ${result.status}). Check the input (URL, location or keyword) and run the scraper again.`
			: `Still ${result.status}${maxWaitSeconds === undefined ? '' : ` after ${maxWaitSeconds} s`}. Read it later with Result > Get Many${maxWaitSeconds === undefined ? '' : ', or raise Max Wait'}.`;
		out.push({ ...context, status: result.status, message });
	}
	return out;
}
