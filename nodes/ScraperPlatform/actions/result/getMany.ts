import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { BEFORE_OPTIONS, FROM_OPTIONS, optionsCollection, OPTIONS_VERSION } from '../../../shared/descriptions/collections';
import { readListingLimit, returnAllProperties } from '../../../shared/descriptions/listing';
import type { Operation } from '../../../shared/execution/operation';
import { readShaping } from '../../../shared/descriptions/simplify';
import { collectRecords, listingWalk } from '../../../shared/paging/pages';
import { InputValidator } from '../../../shared/input/validation';
import { resultsPages } from '../../transport/api';
import type { ResultsQuery } from '../../transport/api';
import { DATE_RANGE_COLUMNS, RESULT_FIELDS, RESULT_SORT_FIELDS, SORT_ORDERS } from '../../transport/vocabulary';
import { legacySimplifyProperty, readLegacySimplify, resultSimplifyProperties } from '../common';

const sortFieldProperty: INodeProperties = {
	displayName: 'Sort Field',
	name: 'sortField',
	type: 'options',
	default: 'updatedAt',
	options: [
		{ name: 'Created At', value: 'createdAt' },
		{ name: 'Error', value: 'error' },
		{ name: 'ID', value: 'id' },
		{ name: 'Runtime', value: 'runtime' },
		{ name: 'Status', value: 'status' },
		{ name: 'Token Usage', value: 'tokenUsage' },
		{ name: 'Type', value: 'type' },
		{ name: 'Updated At', value: 'updatedAt' },
		{ name: 'URL', value: 'url' },
	],
	description: 'The column the results are sorted by',
};

const sortOrderProperty: INodeProperties = {
	displayName: 'Sort Order',
	name: 'sortOrder',
	type: 'options',
	default: 'DESC',
	options: [
		{ name: 'Ascending', value: 'ASC' },
		{ name: 'Descending', value: 'DESC' },
	],
	description: 'Whether to list the smallest or the largest values first',
};

const pageSizeProperty: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100 },
	default: 100,
	description: 'Results per request, 1 to 100. Smaller pages are slower but avoid time-outs on very large results.',
};

const startPageProperty: INodeProperties = {
	displayName: 'Start Page',
	name: 'startPage',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 1,
	description: 'The first page to read (1 is the first)',
};

/** The listing's order when the user chose none (the service requires one): the fields' defaults. */
const DEFAULT_SORT = { sortField: sortFieldProperty.default as string, sortOrder: sortOrderProperty.default as string };

export const resultGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many results',
	description: 'List result records, page by page',
	properties: [
		...returnAllProperties(),
		// Before version 3 sorting sat in the main panel; from 3 it is the Sort collection below Options.
		{ ...sortFieldProperty, displayOptions: { show: BEFORE_OPTIONS } },
		{ ...sortOrderProperty, displayOptions: { show: BEFORE_OPTIONS } },
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Date Range Column',
					name: 'dateRangeColumn',
					type: 'options',
					default: 'createdAt',
					options: [
						{ name: 'Created At', value: 'createdAt' },
						{ name: 'Updated At', value: 'updatedAt' },
					],
					description: "The date column that 'From' and 'To' filter",
				},
				{
					displayName: 'From',
					name: 'startAt',
					type: 'dateTime',
					default: '',
					description: 'Only results whose date column is at or after this moment',
				},
				{
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Text to look for in any column (URL, status, type, message…)',
				},
				{
					displayName: 'To',
					name: 'endAt',
					type: 'dateTime',
					default: '',
					description: 'Only results whose date column is before this moment',
				},
			],
		},
		...resultSimplifyProperties,
		optionsCollection([pageSizeProperty, legacySimplifyProperty, startPageProperty], { displayOptions: { show: BEFORE_OPTIONS } }),
		optionsCollection([pageSizeProperty, startPageProperty], { displayOptions: { show: FROM_OPTIONS } }),
		{
			displayName: 'Sort',
			name: 'sort',
			type: 'fixedCollection',
			placeholder: 'Add Sort Rule',
			default: {},
			description: 'The order of the results; newest update first when not set',
			options: [{ displayName: 'Rule', name: 'rule', values: [sortFieldProperty, sortOrderProperty] }],
			displayOptions: { show: FROM_OPTIONS },
		},
	],
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const { limit, pageSize } = readListingLimit(this, itemIndex, options.pageSize);
		const startPage = v.integer(options.startPage ?? 1, 'Start Page', { min: 1 });
		const query: ResultsQuery = {
			pageSize,
			...readSort(this, itemIndex),
			...readFilters(this, itemIndex),
		};
		const legacy = this.getNode().typeVersion < OPTIONS_VERSION;
		const shape = legacy ? readLegacySimplify(this, options, itemIndex) : readShaping(this, itemIndex, RESULT_FIELDS);
		const records = await collectRecords(resultsPages(call, query, itemIndex), startPage, limit, listingWalk(this, itemIndex, 'the results list'));
		return records.map((record): INodeExecutionData => ({ json: shape(record) }));
	},
};

/** The sort the user chose: top-level before version 3, the Sort collection's rule from 3 (the API needs one). */
function readSort(ctx: IExecuteFunctions, itemIndex: number): Pick<ResultsQuery, 'sortField' | 'sortOrder'> {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const rule =
		ctx.getNode().typeVersion < OPTIONS_VERSION
			? { sortField: ctx.getNodeParameter('sortField', itemIndex), sortOrder: ctx.getNodeParameter('sortOrder', itemIndex) }
			: ((ctx.getNodeParameter('sort.rule', itemIndex, {}) ?? {}) as IDataObject);
	return {
		sortField: v.oneOf(rule.sortField ?? DEFAULT_SORT.sortField, 'Sort Field', RESULT_SORT_FIELDS),
		sortOrder: v.oneOf(rule.sortOrder ?? DEFAULT_SORT.sortOrder, 'Sort Order', SORT_ORDERS),
	};
}

/** Search and the date range, as the list's query reads them. */
function readFilters(ctx: IExecuteFunctions, itemIndex: number): Partial<ResultsQuery> {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: Partial<ResultsQuery> = {};
	const search = v.optionalString(filters.search, 'Search');
	if (search !== undefined) query.search = search;
	const timezone = ctx.getTimezone();
	// Unset only when empty: anything else a user or an expression put there is read as a date or refused.
	const isSet = (value: unknown) => value !== undefined && value !== null && value !== '';
	const startAt = isSet(filters.startAt) ? v.dateTime(filters.startAt, 'From', timezone) : undefined;
	const endAt = isSet(filters.endAt) ? v.dateTime(filters.endAt, 'To', timezone) : undefined;
	if (startAt && endAt) v.range(startAt, endAt, 'From', 'To');
	if (startAt || endAt) {
		query.dateRangeColumn = v.oneOf(filters.dateRangeColumn ?? 'createdAt', 'Date Range Column', DATE_RANGE_COLUMNS);
		// In UTC with a trailing Z, as the service's own docs write them: the same instant, in the form it documents.
		if (startAt) query.startAt = startAt.toUTC().toISO() ?? undefined;
		if (endAt) query.endAt = endAt.toUTC().toISO() ?? undefined;
	} else if (filters.dateRangeColumn !== undefined) {
		v.fail('Date Range Column', 'it needs a From or To date', 'Add a From or To filter, or remove Date Range Column.');
	}
	return query;
}
