import { NodeApiError } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { readErrorBody } from '../shared/errors';
import type { BodyIssue } from '../shared/errors';
import type { PageReader } from '../shared/pages';
import type { RetryPolicy } from '../shared/retry';
import { apiRequest } from '../shared/transport';
import type { ApiDefinition, ApiRequest, RequestContext } from '../shared/transport';
import { SUBJECT } from './vocabulary';
import type { RunListRecord, ScrapingRun } from './vocabulary';

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
	const parts = readErrorBody(error.errorResponse)
		.issues.filter((issue): issue is BodyIssue & { field: string } => issue.field !== undefined)
		.map(({ field, message }) => {
			const label = labels[/^[A-Za-z_][A-Za-z0-9_]*/.exec(field)?.[0] ?? field];
			return label ? `"${label}" (${field}): ${message ?? 'invalid'}` : `${field}: ${message ?? 'invalid'}`;
		});
	if (parts.length > 0) error.message = `${MARKETPLACE_API.service} rejected the input: ${parts.join('; ')}`;
}

/** Reads one scraping run with the extracted content of each of its results. */
export async function getScrapingRun(ctx: RequestContext, id: number, itemIndex: number): Promise<ScrapingRun> {
	const response = await marketplaceRequest<{ data: ScrapingRun }>(
		ctx,
		{ method: 'GET', path: `/api/scraping-runs/${id}`, idempotent: true, subject: { kind: SUBJECT.scrapingRun, id } },
		itemIndex,
	);
	return response.data;
}

export interface ResultsReaderOptions {
	itemIndex?: number;
	fieldLabels?: FieldLabels;
	policy?: RetryPolicy;
}

/**
 * The reader of the results list (GET /api/results, newest first), for the shared page walker: page numbers from 1,
 * `pageSize` records a page. The section C API lists neither scrapers nor runs by themselves, so this is also how
 * they are found.
 */
export function resultsPageReader(ctx: RequestContext, pageSize: number, options: ResultsReaderOptions = {}): PageReader<RunListRecord> {
	return async (page) => {
		const response = await marketplaceRequest<{ data?: RunListRecord[] }>(
			ctx,
			{ method: 'GET', path: '/api/results', qs: { page, per_page: pageSize }, idempotent: true },
			options.itemIndex ?? 0,
			options.fieldLabels,
			options.policy,
		);
		const records = Array.isArray(response.data) ? response.data : [];
		// The listing carries no total: a page shorter than asked for is the last.
		return { records, next: records.length < pageSize ? undefined : page + 1 };
	};
}
