import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { readErrorBody } from '../../shared/execution/errors';
import type { BodyIssue } from '../../shared/execution/errors';
import type { PageReader } from '../../shared/paging/pages';
import type { RetryPolicy } from '../../shared/transport/retry';
import { apiRequest } from '../../shared/transport/transport';
import type { NodeCall } from '../../shared/execution/call';
import type { ApiDefinition, ApiRequest } from '../../shared/transport/definition';
import { RESULT_ID, SCRAPER_ID, SCRAPING_RUN_ID } from '../descriptions/ids';
import { SUBJECT } from './vocabulary';
import type { DeleteAnswer, RunListRecord, ScraperRecord, ScrapingRun } from './vocabulary';

/** The section C API: `Authorization: Bearer <token>`, paths under `/api`. */
const MARKETPLACE_API: ApiDefinition = {
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
	call: NodeCall,
	request: ApiRequest,
	itemIndex: number,
	fieldLabels?: FieldLabels,
	policy?: RetryPolicy,
): Promise<T> {
	try {
		return (await apiRequest<T>(call, MARKETPLACE_API, request, itemIndex, policy)).body;
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
	const parts = readErrorBody(error.errorResponse)
		.issues.filter((issue): issue is BodyIssue & { field: string } => issue.field !== undefined)
		.map(({ field, message }) => {
			const label = labels[/^[A-Za-z_][A-Za-z0-9_]*/.exec(field)?.[0] ?? field];
			return label ? `'${label}' (${field}): ${message ?? 'invalid'}` : `${field}: ${message ?? 'invalid'}`;
		});
	if (parts.length > 0) error.message = `${MARKETPLACE_API.service} rejected the input: ${parts.join('; ')}`;
}

/** Reads one scraping run with the extracted content of each of its results. */
export async function getScrapingRun(call: NodeCall, id: number, itemIndex: number, policy?: RetryPolicy, timeoutMs?: number): Promise<ScrapingRun> {
	const response = await marketplaceRequest<{ data: ScrapingRun }>(
		call,
		{ method: 'GET', path: `/api/scraping-runs/${id}`, idempotent: true, subject: { kind: SUBJECT.scrapingRun, id }, timeoutMs },
		itemIndex,
		undefined,
		policy,
	);
	return response.data;
}

/** Reads one scraper of the account (its scraper object). */
export async function getScraper(call: NodeCall, id: number, itemIndex: number): Promise<ScraperRecord> {
	const response = await marketplaceRequest<{ data: ScraperRecord }>(
		call,
		{ method: 'GET', path: `/api/scrapers/${id}`, idempotent: true, subject: { kind: SUBJECT.scraper, id } },
		itemIndex,
	);
	return response.data;
}

/** Reads one result (run-list record) with its extracted content. */
export async function getResult(call: NodeCall, id: number, itemIndex: number): Promise<RunListRecord> {
	const response = await marketplaceRequest<{ data: RunListRecord }>(
		call,
		{ method: 'GET', path: `/api/results/${id}`, idempotent: true, subject: { kind: SUBJECT.result, id } },
		itemIndex,
	);
	return response.data;
}

/** The newest scraping run of a scraper (GET /api/scraping-runs/latest/{scraper_id}), with its results. */
export async function getLatestScrapingRun(call: NodeCall, scraperId: number, itemIndex: number): Promise<ScrapingRun> {
	const response = await latestRead<{ data: ScrapingRun }>(call, `/api/scraping-runs/latest/${scraperId}`, scraperId, itemIndex);
	return response.data;
}

/** The results of a scraper's newest scraping run (GET /api/results/latest/{scraper_id}). */
export async function getLatestResults(call: NodeCall, scraperId: number, itemIndex: number): Promise<RunListRecord[]> {
	const response = await latestRead<{ data?: RunListRecord[] }>(call, `/api/results/latest/${scraperId}`, scraperId, itemIndex);
	return Array.isArray(response.data) ? response.data : [];
}

/** A `latest` read: its 404 also means a scraper that has no scraping run (yet, or any more), so the message says so. */
async function latestRead<T>(call: NodeCall, path: string, scraperId: number, itemIndex: number): Promise<T> {
	try {
		return await marketplaceRequest<T>(call, { method: 'GET', path, idempotent: true, subject: { kind: SUBJECT.scraper, id: scraperId } }, itemIndex, {
			scraper_id: SCRAPER_ID.label,
		});
	} catch (error) {
		throw reworded404(
			error,
			`The scraper "${scraperId}" was not found, or has no scraping run (404)`,
			`Check the '${SCRAPER_ID.label}': the scraper must belong to the account of the '${MARKETPLACE_API.credentialName}' credential and have run at least once. Its runs may also have been deleted.`,
		);
	}
}

/**
 * Deletes a scraping run (with its results) or a result. DELETE is idempotent, so a connection lost before the answer
 * is sent again; a 404 then, or on any delete, says the record may be gone already.
 */
export async function deleteRecord(
	call: NodeCall,
	kind: typeof SUBJECT.scrapingRun | typeof SUBJECT.result,
	id: number,
	itemIndex: number,
): Promise<DeleteAnswer> {
	const path = kind === SUBJECT.scrapingRun ? `/api/scraping-runs/${id}` : `/api/results/${id}`;
	const { label } = kind === SUBJECT.scrapingRun ? SCRAPING_RUN_ID : RESULT_ID;
	try {
		return await marketplaceRequest<DeleteAnswer>(call, { method: 'DELETE', path, idempotent: true, subject: { kind, id } }, itemIndex, { id: label });
	} catch (error) {
		throw reworded404(
			error,
			`The ${kind} "${id}" was not found (404): it may already be deleted`,
			`Nothing was deleted. Check the '${label}': a ${kind} deleted before, by this node or in the service dashboard, is gone for good, and it must belong to the account of the '${MARKETPLACE_API.credentialName}' credential.`,
		);
	}
}

/** The error itself; a 404 gets the message and description of the operation that knows what it means. */
function reworded404(error: unknown, message: string, description: string): unknown {
	if (error instanceof NodeApiError && error.httpCode === '404') {
		error.message = message;
		error.description = description;
	}
	return error;
}

export interface ListReaderOptions {
	itemIndex?: number;
	fieldLabels?: FieldLabels;
	policy?: RetryPolicy;
}

/**
 * The reader of the results list (GET /api/results, newest first), for the shared page walker: page numbers from 1,
 * `pageSize` records a page. The section C API lists no runs by themselves, so this is also how runs are found.
 */
export function resultsPageReader(call: NodeCall, pageSize: number, options: ListReaderOptions = {}): PageReader<RunListRecord> {
	return listPageReader<RunListRecord>(call, '/api/results', pageSize, options);
}

/** The reader of the scrapers list (GET /api/scrapers, newest first), paged as the results list is. */
export function scrapersPageReader(call: NodeCall, pageSize: number, options: ListReaderOptions = {}): PageReader<ScraperRecord> {
	return listPageReader<ScraperRecord>(call, '/api/scrapers', pageSize, options);
}

/** A section C listing (`page`, `per_page`, answered `{data: [...]}`) page by page. */
function listPageReader<T>(call: NodeCall, path: string, pageSize: number, options: ListReaderOptions): PageReader<T> {
	return async (page) => {
		const response = await marketplaceRequest<{ data?: T[] }>(
			call,
			{ method: 'GET', path, qs: { page, per_page: pageSize }, idempotent: true },
			options.itemIndex ?? 0,
			options.fieldLabels,
			options.policy,
		);
		const records = Array.isArray(response.data) ? response.data : [];
		// The listing carries no total: a page shorter than asked for is the last, a full one may be followed by more.
		const full = records.length >= pageSize;
		return { records, next: full ? page + 1 : undefined, listing: { after: page + 1, full } };
	};
}
