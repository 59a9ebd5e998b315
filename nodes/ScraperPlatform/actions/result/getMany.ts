import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/collections';
import { readListingLimit, returnAllProperties } from '../../../shared/descriptions/listing';
import type { Operation } from '../../../shared/execution/operation';
import { readShaping } from '../../../shared/descriptions/simplify';
import { field, rules, validatorFor } from '../../../shared/input/fields';
import { collection, Moved, readFields, Request } from '../../../shared/input/fieldSets';
import type { Values } from '../../../shared/input/fieldSets';
import { collectRecords, listingWalk } from '../../../shared/paging/pages';
import { resultsPages } from '../../transport/api';
import type { ResultsQuery } from '../../transport/api';
import { DATE_RANGE_COLUMNS, RESULT_FIELDS, RESULT_SORT_FIELDS, SORT_ORDERS } from '../../transport/vocabulary';
import type { SortOrder } from '../../transport/vocabulary';
import { BEFORE_OPTIONS, FROM_OPTIONS, PLATFORM_VERSIONS } from '../../versions';
import { LEGACY_SIMPLIFY, legacyShaping, resultSimplifyProperties } from '../common';

/** Sorting: in the main panel before version 3, the Sort collection's rule (`sort.rule`) from 3. */
const SORT_FIELD = new Moved(
	field(
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
		rules.oneOf(RESULT_SORT_FIELDS),
	),
	PLATFORM_VERSIONS.options,
	undefined,
	'sort.rule',
);

const SORT_ORDER = new Moved(
	field(
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
		rules.oneOf(SORT_ORDERS),
	),
	PLATFORM_VERSIONS.options,
	undefined,
	'sort.rule',
);

const FROM = field(
	{
		displayName: 'From',
		name: 'startAt',
		type: 'dateTime',
		default: '',
		description: 'Only results whose date column is at or after this moment',
	},
	rules.dateTime,
);

const TO = field(
	{
		displayName: 'To',
		name: 'endAt',
		type: 'dateTime',
		default: '',
		description: 'Only results whose date column is before this moment',
	},
	rules.dateTime,
);

const DATE_RANGE_COLUMN = field(
	{
		displayName: 'Date Range Column',
		name: 'dateRangeColumn',
		type: 'options',
		default: 'createdAt',
		options: [
			{ name: 'Created At', value: 'createdAt' },
			{ name: 'Updated At', value: 'updatedAt' },
		],
		description: `The date column that '${FROM.label}' and '${TO.label}' filter`,
	},
	rules.oneOf(DATE_RANGE_COLUMNS),
);

const SEARCH = field({
	displayName: 'Search',
	name: 'search',
	type: 'string',
	default: '',
	description: 'Text to look for in any column (URL, status, type, message…)',
});

const SCRAPER = field(
	{
		displayName: 'Scraper ID',
		name: 'scraperId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b',
		description: "Only this scraper's results, e.g. the 'scraperId' of a Create and Run output",
	},
	rules.uuid,
	// Added but empty (say an expression that found no ID), it would list every scraper's results: refused instead.
).refusingBlank();

/** Read in this order: Search, the scraper, the dates, then the column they filter. */
const FILTERS = collection(
	(options) => ({ displayName: 'Filters', name: 'filters', type: 'collection', placeholder: 'Add Filter', default: {}, options }),
	[SEARCH, SCRAPER, FROM, TO, DATE_RANGE_COLUMN],
);

/** The filters sent as they are: the scraper as the service's own n8n node sends it (no API documents the key). */
const FILTER_QUERY = new Request([SEARCH, SCRAPER], { scraperId: 'filters[scraperId]' });

const PAGE_SIZE = field({
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
	default: 100,
	description: 'Results per request, 1 to 100. Smaller pages are slower but avoid time-outs on very large results.',
});

const START_PAGE = field({
	displayName: 'Start Page',
	name: 'startPage',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 1,
	description: 'The first page to read (1 is the first)',
});

/** Options before version 3 (Simplify among them) and from 3. */
const LEGACY_OPTIONS = collection((o) => optionsCollection(o, { displayOptions: { show: BEFORE_OPTIONS } }), [PAGE_SIZE, LEGACY_SIMPLIFY, START_PAGE]);
const OPTIONS = collection((o) => optionsCollection(o, { displayOptions: { show: FROM_OPTIONS } }), [PAGE_SIZE, START_PAGE]);

/** Where to look for a result the node may have started: the results list, newest first, narrowed by its filters. */
export function lookForResults(filter: { search?: string; scraperId?: string } = {}): string {
	const narrowed = [
		filter.scraperId === undefined ? undefined : `'${SCRAPER.label}' ${filter.scraperId}`,
		filter.search === undefined ? undefined : `'${SEARCH.label}' ${filter.search}`,
	].filter((part) => part !== undefined);
	if (narrowed.length === 0) return 'Result > Get Many (newest first)';
	return `Result > Get Many (newest first, ${FILTERS.property.displayName} > ${narrowed.join(' and ')})`;
}

export const resultGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many results',
	description: 'List result records, page by page',
	properties: [
		...returnAllProperties(),
		SORT_FIELD.legacy,
		SORT_ORDER.legacy,
		FILTERS.property,
		...resultSimplifyProperties,
		LEGACY_OPTIONS.property,
		OPTIONS.property,
		{
			displayName: 'Sort',
			name: 'sort',
			type: 'fixedCollection',
			placeholder: 'Add Sort Rule',
			default: {},
			description: 'The order of the results; newest update first when not set',
			options: [{ displayName: 'Rule', name: 'rule', values: [SORT_FIELD.option, SORT_ORDER.option] }],
			displayOptions: { show: FROM_OPTIONS },
		},
	],
	async execute(itemIndex, call) {
		const legacy = this.getNode().typeVersion < PLATFORM_VERSIONS.options;
		const options = readFields(this, itemIndex, [legacy ? LEGACY_OPTIONS : OPTIONS]);
		const { limit, pageSize } = readListingLimit(this, itemIndex, options.of(PAGE_SIZE));
		const filters = readFields(this, itemIndex, [FILTERS]);
		const query: ResultsQuery = { pageSize, ...readSort(this, itemIndex), ...filterQuery(this, itemIndex, filters) };
		const shape = legacy ? legacyShaping(options.of(LEGACY_SIMPLIFY)) : readShaping(this, itemIndex, RESULT_FIELDS);
		const scraper = filters.of(SCRAPER);
		// Only that scraper's records, whatever the service does with a filter it does not document.
		const keep = scraper === undefined ? undefined : (record: IDataObject) => record.scraperId === scraper;
		const walk = { ...listingWalk<IDataObject>(this, itemIndex, 'the results list'), keep };
		const records = await collectRecords(resultsPages(call, query, itemIndex), options.of(START_PAGE) ?? 1, limit, walk);
		return records.map((record): INodeExecutionData => ({ json: shape(record) }));
	},
};

/** The sort the user chose, where the workflow's version keeps it; the fields' defaults when none (the API needs one). */
function readSort(ctx: IExecuteFunctions, itemIndex: number): Pick<ResultsQuery, 'sortField' | 'sortOrder'> {
	return {
		sortField: SORT_FIELD.read(ctx, itemIndex) ?? (SORT_FIELD.field.property.default as string),
		sortOrder: SORT_ORDER.read(ctx, itemIndex) ?? (SORT_ORDER.field.property.default as SortOrder),
	};
}

/** Search, the scraper and the date range, as the list's query reads them. */
function filterQuery(ctx: IExecuteFunctions, itemIndex: number, values: Values): Partial<ResultsQuery> {
	const [startAt, endAt, column] = [values.of(FROM), values.of(TO), values.of(DATE_RANGE_COLUMN)];
	const v = validatorFor(ctx, itemIndex);
	if (startAt && endAt) v.range(startAt, endAt, FROM.label, TO.label);
	const query: Partial<ResultsQuery> = FILTER_QUERY.body(values);
	if (startAt || endAt) {
		query.dateRangeColumn = column ?? (DATE_RANGE_COLUMN.property.default as string);
		// In UTC with a trailing Z, as the service's own docs write them: the same instant, in the form it documents.
		if (startAt) query.startAt = startAt.toUTC().toISO() ?? undefined;
		if (endAt) query.endAt = endAt.toUTC().toISO() ?? undefined;
	} else if (column !== undefined) {
		v.fail(DATE_RANGE_COLUMN.label, `it needs a ${FROM.label} or ${TO.label} date`, `Add a ${FROM.label} or ${TO.label} filter, or remove ${DATE_RANGE_COLUMN.label}.`);
	}
	return query;
}
