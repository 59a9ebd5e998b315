import { parseIsoTimestamp, requireQueryEnum, requireQueryInteger } from './query';
import type { LiveResult } from './store';
import { RESULT_SORT_FIELDS, type ResultSortField } from './types';
import type { Issues } from './validation';

export interface ResultsQuery {
	page: number;
	pageSize: number;
	sortField: ResultSortField;
	sortOrder: 'ASC' | 'DESC';
	search?: string;
	dateRangeColumn?: 'createdAt' | 'updatedAt';
	startAt?: number;
	endAt?: number;
	/** `filters[scraperId]`, the vendor's n8n node's filter (public facts, "Latest results of a scraper"). */
	scraperId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DATE_RANGE_COLUMNS = ['createdAt', 'updatedAt'] as const;

/** Reads the list query; any problem is a 422 naming the parameter. */
export function parseResultsQuery(query: URLSearchParams, issues: Issues): ResultsQuery | undefined {
	const page = requireQueryInteger(issues, query, 'page', 1);
	// The interface only recommends 100 as a maximum (to avoid timeouts), so larger pages are served.
	const pageSize = requireQueryInteger(issues, query, 'pageSize', 1);
	const sortField = requireQueryEnum(issues, query, 'sortField', RESULT_SORT_FIELDS);
	const sortOrder = requireQueryEnum(issues, query, 'sortOrder', ['ASC', 'DESC'] as const);

	const rawColumn = query.get('dateRangeColumn');
	let dateRangeColumn: ResultsQuery['dateRangeColumn'];
	if (rawColumn !== null && rawColumn !== '') {
		if ((DATE_RANGE_COLUMNS as readonly string[]).includes(rawColumn)) dateRangeColumn = rawColumn as ResultsQuery['dateRangeColumn'];
		else issues.add('dateRangeColumn', 'isIn', `dateRangeColumn must be one of: ${DATE_RANGE_COLUMNS.join(', ')}`);
	}
	const bound = (field: 'startAt' | 'endAt'): number | undefined => {
		const raw = query.get(field);
		if (raw === null || raw === '') return undefined;
		const ms = parseIsoTimestamp(raw);
		if (ms === undefined) issues.add(field, 'isDateString', `${field} must be an ISO 8601 timestamp`);
		else if (rawColumn === null || rawColumn === '') issues.add('dateRangeColumn', 'required', `dateRangeColumn is required with ${field}`);
		return ms;
	};
	const startAt = bound('startAt');
	const endAt = bound('endAt');

	const search = query.get('search') ?? '';
	const scraperId = query.get('filters[scraperId]') ?? undefined;
	if (scraperId !== undefined && !UUID.test(scraperId)) issues.add('filters[scraperId]', 'isUuid', 'filters[scraperId] must be a UUID');
	if (!issues.ok || page === undefined || pageSize === undefined || !sortField || !sortOrder) return undefined;
	return {
		page,
		pageSize,
		sortField,
		sortOrder,
		search: search === '' ? undefined : search,
		dateRangeColumn,
		startAt,
		endAt,
		scraperId,
	};
}

/** The scalar columns `search` looks in (not `data`, which may be large). */
function searchableText(result: LiveResult): string[] {
	return [
		result.id,
		result.scraperId,
		result.type,
		result.url,
		result.status,
		result.error ?? '',
		String(result.tokenUsage),
		String(result.runtime),
		new Date(result.createdAt).toISOString(),
		new Date(result.updatedAt).toISOString(),
	];
}

function sortValue(result: LiveResult, field: ResultSortField): string | number | null {
	return result[field];
}

/** Nulls sort after every value in ASC and before in DESC (as in PostgreSQL); ties break by id ascending. */
function compare(a: LiveResult, b: LiveResult, field: ResultSortField, order: 'ASC' | 'DESC'): number {
	const va = sortValue(a, field);
	const vb = sortValue(b, field);
	let c = 0;
	if (va === null && vb !== null) c = 1;
	else if (va !== null && vb === null) c = -1;
	else if (va !== null && vb !== null) c = va < vb ? -1 : va > vb ? 1 : 0;
	if (order === 'DESC') c = -c;
	if (c !== 0) return c;
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Filters (search, date range: start inclusive, end exclusive), sorts and cuts one page. */
export function queryResults(results: LiveResult[], q: ResultsQuery): { page: LiveResult[]; total: number } {
	const needle = q.search?.toLowerCase();
	const filtered = results.filter((r) => {
		if (needle && !searchableText(r).some((text) => text.toLowerCase().includes(needle))) return false;
		if (q.scraperId !== undefined && r.scraperId !== q.scraperId) return false;
		if (q.dateRangeColumn) {
			const at = r[q.dateRangeColumn];
			if (q.startAt !== undefined && at < q.startAt) return false;
			if (q.endAt !== undefined && at >= q.endAt) return false;
		}
		return true;
	});
	filtered.sort((a, b) => compare(a, b, q.sortField, q.sortOrder));
	const from = (q.page - 1) * q.pageSize;
	return { page: filtered.slice(from, from + q.pageSize), total: filtered.length };
}
