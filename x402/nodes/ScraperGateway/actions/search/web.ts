import type { IDataObject } from 'n8n-workflow';

import { additionalFields } from '../../../../../nodes/shared/descriptions/collections';
import type { Operation } from '../../../../../nodes/shared/execution/operation';
import { field, rules } from '../../../../../nodes/shared/input/fields';
import { collection, readFields, Request } from '../../../../../nodes/shared/input/fieldSets';
import { asRecords, findList, SPLIT_INTO_ITEMS, splitIntoItems } from '../../../../../nodes/shared/output/records';
import { deadlineMs, parallelRequests, paymentOptions, readOption } from '../../descriptions/paymentOptions';
import type { GatewayCall } from '../../payment/call';
import { chargedError } from '../../payment/errors';
import { SEARCH_FIELDS } from '../../../../../nodes/shared/input/webSearch';

const SEARCH_PATH = '/api/service/webSearch';
/** Where a webSearch answer keeps its result list, when `data` is not the list itself. */
const RESULT_LISTS = ['results', 'items', 'organic'];

const QUERY = field({
	displayName: 'Query',
	name: 'query',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. best hiking boots 2025',
	description: 'What to search for',
});

const COUNTRY = field(
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		default: 'us',
		placeholder: 'e.g. us',
		description: 'Two-letter country code the results are localized for. Not added: the gateway default.',
	},
	rules.countryCode,
);

const LANGUAGE = SEARCH_FIELDS.language.with({
	description: 'Language code of the results, e.g. en or pt-BR. Not added: the gateway default.',
});

const PAGE = SEARCH_FIELDS.page.with({
	description: 'Result page, from 1. Each page is a paid request.',
});

const SPLIT = SPLIT_INTO_ITEMS.with({
	default: true,
	description: 'Whether to output one item per search result (for spreadsheets and CRMs) instead of one item holding the list',
});

const ADDITIONAL_FIELDS = collection(additionalFields, [COUNTRY, LANGUAGE, PAGE]);
/** The gateway's search request, in the order it sends the fields, each under its own name. */
const SEARCH_REQUEST = new Request([QUERY, COUNTRY, LANGUAGE, PAGE]);
const OPTIONS = paymentOptions([SPLIT]);

export const searchWeb: Operation<GatewayCall> = {
	value: 'web',
	name: 'Web',
	// An AI Agent's tool is described by this action ("<action> in Scraper Gateway").
	action: 'Search web for titles, links and snippets (0.01 USDC per search, paid from wallet)',
	description: 'Get localized search-engine results for a query; pays 0.01 USDC per search over x402',
	properties: [QUERY.property, ADDITIONAL_FIELDS.property, OPTIONS.property],
	concurrency: parallelRequests,
	async execute(itemIndex, call) {
		const body = SEARCH_REQUEST.body(readFields(this, itemIndex, [QUERY, ADDITIONAL_FIELDS]));
		const split = readOption(this, itemIndex, SPLIT) ?? false;

		const payments = await call.payments(itemIndex);
		const result = await payments.post({ itemIndex, path: SEARCH_PATH, body, deadlineMs: deadlineMs(this, itemIndex, undefined), unit: ['search', 'searches'] });
		const { body: envelope, receipt } = result;
		const answer = (envelope && typeof envelope === 'object' ? envelope : {}) as IDataObject;
		const data = answer.data as unknown;
		// What the gateway searched for, defaults applied (falls back to what was sent), and its error if any.
		const echo = (data && typeof data === 'object' && !Array.isArray(data) ? data : {}) as IDataObject;
		const upstreamError = typeof echo.error === 'string' ? echo.error : null;
		const results = findList(data, RESULT_LISTS);
		if (answer.ok === false || upstreamError || !results) {
			throw chargedError(this.getNode(), itemIndex, result, `the search for "${body.query as string}" upstream`, upstreamError ?? (results ? 'no reason given' : 'the answer had no result list'));
		}
		const records = asRecords(results);
		const context: IDataObject = {
			query: echo.query ?? body.query,
			country: echo.country ?? body.country ?? null,
			language: echo.language ?? body.language ?? null,
			page: echo.page ?? body.page ?? null,
		};
		if (split) return splitIntoItems(records, itemIndex, context, { payment: receipt });
		const totalResults = typeof echo.totalResults === 'number' ? echo.totalResults : null;
		return [{ json: { ...context, totalResults, resultCount: records.length, results: records, payment: receipt } }];
	},
};
