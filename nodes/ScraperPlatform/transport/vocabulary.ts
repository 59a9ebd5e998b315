import type { RecordFields } from '../../shared/descriptions/simplify';

/**
 * The platform API's words (section B of the service interface), declared once: the node, its list pickers and the
 * Platform Trigger read records with them.
 */

/** `type` of a result record: what made it. `Rerun-Manual` is not documented; it is the simulator's word. */
export const RESULT_TYPES = {
	ai: 'AI',
	aiRerun: 'Rerun-AI',
	bulk: 'Bulk-AI',
	manualRerun: 'Rerun-Manual',
} as const;

/** Result types only an AI scraper makes (its creation, its reruns). */
export const AI_RESULT_TYPES: readonly string[] = [RESULT_TYPES.ai, RESULT_TYPES.aiRerun];

/** Result types only a manual scraper makes (bulk jobs are `Bulk-AI` for both kinds). */
export const MANUAL_RESULT_TYPES: readonly string[] = [RESULT_TYPES.manualRerun];

/**
 * Statuses of a result and of a bulk URL, lowercased (the service writes `Finished`, `Running`…). Only `Finished` and
 * `Running` are documented; the other ended words are accepted too, so a job that reports them still ends.
 */
const FINISHED_STATUSES: readonly string[] = ['finished', 'completed'];
const FAILED_STATUSES: readonly string[] = ['failed', 'error'];
const CANCELED_STATUSES: readonly string[] = ['canceled', 'cancelled'];
export const TERMINAL_STATUSES: readonly string[] = [...FINISHED_STATUSES, ...FAILED_STATUSES, ...CANCELED_STATUSES];

function statusIn(statuses: readonly string[]) {
	return (status: unknown): boolean => statuses.includes(String(status ?? '').toLowerCase());
}

/** Finished, failed or canceled: nothing more will happen to it. */
export const isTerminalStatus = statusIn(TERMINAL_STATUSES);
export const isFailedStatus = statusIn(FAILED_STATUSES);
export const isCanceledStatus = statusIn(CANCELED_STATUSES);

/** What an id names, in error messages ("The bulk job "…" was not found"). */
export const ID_KINDS = {
	result: 'result',
	bulkJob: 'bulk job',
	scraper: 'scraper',
} as const;

/** Where a result's `data` keeps its list of records, looked for in this order (a bulk job's is `mergedData`). */
export const RESULT_LIST_KEYS: readonly string[] = ['records', 'items', 'results', 'mergedData', 'pages', 'urls', 'data'];

/** The AI agents a scraper is created with. */
export const AI_AGENTS = ['general', 'map', 'listing'] as const;

/** The results list's `sortField` values (any column of a result record), `sortOrder` values and date columns. */
export const RESULT_SORT_FIELDS = ['createdAt', 'updatedAt', 'id', 'type', 'url', 'status', 'error', 'tokenUsage', 'runtime'] as const;
export const SORT_ORDERS = ['ASC', 'DESC'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const DATE_RANGE_COLUMNS = ['createdAt', 'updatedAt'] as const;

/**
 * A bulk job as Bulk > Start and Get output it (One Item per Job): Simplify keeps its status and the summary's
 * counts, flat, and the wait's note when the wait ended first, never more than ten; the per-URL details and merged
 * records stay in the full job.
 */
export const BULK_JOB_FIELDS: RecordFields = {
	id: 'id',
	simplified: ['id', 'scraperId', 'status', 'completed', 'totalUrls', 'successfulUrls', 'failedUrls', 'totalTokenUsage', 'waitTimedOut', 'waitMessage'],
	all: [
		'id',
		'scraperId',
		'status',
		'completed',
		'totalUrls',
		'successfulUrls',
		'failedUrls',
		'scrapedCount',
		'totalTokenUsage',
		'estimatedFinishAt',
		'summary',
		'urlDetails',
		'mergedData',
		'createdAt',
		'updatedAt',
		'waitTimedOut',
		'waitMessage',
	],
};

/** A result record's fields (bulk jobs are result records too): Simplify keeps the ten a sheet or an agent reads most. */
export const RESULT_FIELDS: RecordFields = {
	id: 'id',
	simplified: ['id', 'scraperId', 'url', 'status', 'type', 'data', 'error', 'tokenUsage', 'runtime', 'createdAt'],
	all: [
		'id',
		'scraperId',
		'userId',
		'type',
		'url',
		'status',
		'error',
		'tokenUsage',
		'runtime',
		'data',
		'htmlContent',
		'htmlPath',
		'screenshotPath',
		'recordingPath',
		'dataPath',
		'createdAt',
		'updatedAt',
	],
};
