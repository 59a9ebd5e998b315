import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/collections';
import { readListingLimit, returnAllProperties } from '../../../shared/listing';
import type { Operation } from '../../../shared/operation';
import { simplifyRecord } from '../../../shared/output';
import { collectRecords } from '../../../shared/pages';
import { InputValidator } from '../../../shared/validation';
import { resultsPages } from '../../api';
import type { ResultsQuery } from '../../api';
import { DATE_RANGE_COLUMNS, RESULT_SORT_FIELDS, SORT_ORDERS } from '../../vocabulary';
import { readSimplify, simplifyProperty } from '../common';

export const resultGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many results with their IDs and status',
	description: 'List result records, page by page',
	properties: [
		...returnAllProperties(),
		{
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
		},
		{
			displayName: 'Sort Order',
			name: 'sortOrder',
			type: 'options',
			default: 'DESC',
			options: [
				{ name: 'Ascending', value: 'ASC' },
				{ name: 'Descending', value: 'DESC' },
			],
			description: 'Whether to list the smallest or the largest values first',
		},
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
					description: 'The date column that From and To filter',
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
					description: 'Text to look for in any column (URL, status, type, error…)',
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
		optionsCollection([
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 100 },
				default: 100,
				description: 'Results per request, 1 to 100. Smaller pages are slower but avoid time-outs on very large results.',
			},
			// Under Options here, where workflows saved it; the same property as under Output elsewhere.
			simplifyProperty,
			{
				displayName: 'Start Page',
				name: 'startPage',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1,
				description: 'The first page to read (1 is the first)',
			},
		]),
	],
	async execute(itemIndex) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const { limit, pageSize } = readListingLimit(this, itemIndex, options.pageSize);
		const startPage = v.integer(options.startPage ?? 1, 'Start Page', { min: 1 });
		const query: ResultsQuery = {
			pageSize,
			sortField: v.oneOf(this.getNodeParameter('sortField', itemIndex), 'Sort Field', RESULT_SORT_FIELDS),
			sortOrder: v.oneOf(this.getNodeParameter('sortOrder', itemIndex), 'Sort Order', SORT_ORDERS),
			...readFilters(this, itemIndex),
		};
		const simplify = readSimplify(this, options, itemIndex);
		const records = await collectRecords(resultsPages(this, query, itemIndex), startPage, limit);
		return records.map((record): INodeExecutionData => ({ json: simplify ? simplifyRecord(record) : record }));
	},
};

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
