import type { IDataObject } from 'n8n-workflow';

import type { Page, PageReader } from '../../shared/paging/pages';
import type { RetryPolicy } from '../../shared/transport/retry';
import { apiRequest } from '../../shared/transport/transport';
import type { NodeCall } from '../../shared/execution/call';
import type { ApiDefinition, ApiRequest } from '../../shared/transport/definition';
import { PLATFORM_HOSTS } from './hosts';
import { ID_KINDS } from './vocabulary';
import type { SortOrder } from './vocabulary';

/** The platform API (section B): token in `x-api-token`, paths under `/api/v1`; the page fetch and search on their hosts. */
export const PLATFORM_API: ApiDefinition = {
	credentialType: 'scraperPlatformApi',
	credentialName: 'Scraper Platform API',
	service: 'Scraper Platform',
	hosts: PLATFORM_HOSTS,
};

/** B. Paged list envelope's `meta`. */
export interface PageMeta {
	page: number;
	pageSize: number;
	total: number;
	totalPage: number;
}

interface PlatformEnvelope<T = IDataObject> {
	message?: string;
	data: T;
	meta?: PageMeta;
}

export async function platformRequest<T = IDataObject>(
	call: NodeCall,
	request: ApiRequest,
	itemIndex: number,
	policy?: RetryPolicy,
): Promise<PlatformEnvelope<T>> {
	return (await apiRequest<PlatformEnvelope<T>>(call, PLATFORM_API, request, itemIndex, policy)).body;
}

/** A result record with `data` decoded when the listing sent it as a JSON string. */
export function decodeResult(record: IDataObject): IDataObject {
	return decodeJsonFields(record);
}

/** Reads one result record (a bulk job is read this way: `jobs/job.ts`). */
export async function getResult(
	call: NodeCall,
	id: string,
	itemIndex: number,
	subjectKind: string = ID_KINDS.result,
	budget: { timeoutMs?: number; policy?: RetryPolicy } = {},
): Promise<IDataObject> {
	const response = await platformRequest(
		call,
		{ method: 'GET', path: `/api/v1/results/${encodeURIComponent(id)}`, idempotent: true, subject: { kind: subjectKind, id }, timeoutMs: budget.timeoutMs },
		itemIndex,
		budget.policy,
	);
	return response.data;
}

/** The query of GET /api/v1/results besides `page`: the three other required ones, then the optional filters. */
export interface ResultsQuery extends IDataObject {
	pageSize: number;
	sortField: string;
	sortOrder: SortOrder;
	search?: string;
	dateRangeColumn?: string;
	startAt?: string;
	endAt?: string;
}

/**
 * What a page's `meta` says of pages after it: `meta.totalPage` says so, else `meta.total`; undefined without either.
 * Empty or short pages do not change what it says: the paging guard weighs the two.
 */
export function metaSaysMore(page: number, pageSize: number, count: number, meta: Partial<PageMeta> | undefined): boolean | undefined {
	if (typeof meta?.totalPage === 'number') return page < meta.totalPage;
	if (typeof meta?.total === 'number') return meta.total > (page - 1) * pageSize + count;
	return undefined;
}

/**
 * Whether a page of the results list has a next one for a plain walk (the Platform Trigger's polls): what `meta` says,
 * else a full page may be followed by more. An empty page is the last whatever `meta` says.
 */
export function hasNextPage(page: number, pageSize: number, count: number, meta: Partial<PageMeta> | undefined): boolean {
	if (count === 0) return false;
	return metaSaysMore(page, pageSize, count, meta) ?? count >= pageSize;
}

/** One answered page of the results list, with what it says of the listing for the paging guard. */
export function resultsPage(page: number, pageSize: number, records: IDataObject[], meta: Partial<PageMeta> | undefined): Page<IDataObject> {
	const more = metaSaysMore(page, pageSize, records.length, meta);
	return {
		records,
		next: hasNextPage(page, pageSize, records.length, meta) ? page + 1 : undefined,
		listing: {
			after: page + 1,
			full: records.length >= pageSize,
			meta: more === undefined ? undefined : { more, total: meta?.total, before: (page - 1) * pageSize },
		},
	};
}

/**
 * The one reader of the results list (GET /api/v1/results), page number by page number: the records of a page, with
 * `data` decoded, and the next page while there is one. Result > Get Many, the list pickers and the Platform Trigger
 * read the list through it.
 */
export function resultsPages(call: NodeCall, query: ResultsQuery, itemIndex: number, policy?: RetryPolicy): PageReader<IDataObject> {
	return async (page) => {
		const response = await platformRequest<IDataObject[]>(
			call,
			{ method: 'GET', path: '/api/v1/results', qs: { ...query, page }, idempotent: true },
			itemIndex,
			policy,
		);
		const records = (Array.isArray(response.data) ? response.data : []).map((record) => decodeJsonFields(record));
		return resultsPage(page, query.pageSize, records, response.meta);
	};
}

/**
 * `data` arrives as a JSON-encoded string in listings: turn it into the object it encodes. Text that is
 * not JSON is left as it is. Returns a new record; the input is not changed.
 */
function decodeJsonFields(record: IDataObject, fields: readonly string[] = ['data']): IDataObject {
	let out = record;
	for (const field of fields) {
		const value = record[field];
		if (typeof value !== 'string') continue;
		const trimmed = value.trim();
		if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) continue;
		try {
			out = { ...out, [field]: JSON.parse(trimmed) as IDataObject };
		} catch {
			// Not JSON after all: keep the text the service sent.
		}
	}
	return out;
}
