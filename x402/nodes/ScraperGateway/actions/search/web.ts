import type { IDataObject } from 'n8n-workflow';

import { additionalFields } from '../../../../../nodes/shared/descriptions/collections';
import type { Operation } from '../../../../../nodes/shared/execution/operation';
import { asRecords, findList, splitIntoItems } from '../../../../../nodes/shared/output/records';
import { InputValidator } from '../../../../../nodes/shared/input/validation';
import { chargedError, deadlineMs, parallelRequests, paymentOptions } from '../common';
import type { GatewayCall } from '../common';

const SEARCH_PATH = '/api/service/webSearch';
/** Where a webSearch answer keeps its result list, when `data` is not the list itself. */
const RESULT_LISTS = ['results', 'items', 'organic'];

export const searchWeb: Operation<GatewayCall> = {
	value: 'web',
	name: 'Web',
	// An AI Agent's tool is described by this action ("<action> in Scraper Gateway").
	action: 'Search web for titles, links and snippets (0.01 USDC per search, paid from wallet)',
	description: 'Get localized search-engine results for a query; pays 0.01 USDC per search over x402',
	properties: [
		{
			displayName: 'Query',
			name: 'query',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. best hiking boots 2025',
			description: 'What to search for',
		},
		additionalFields([
			{
				displayName: 'Country',
				name: 'country',
				type: 'string',
				default: 'us',
				placeholder: 'e.g. us',
				description: 'Two-letter country code the results are localized for. Not added: the gateway default.',
			},
			{
				displayName: 'Language',
				name: 'language',
				type: 'string',
				default: 'en',
				placeholder: 'e.g. en',
				description: 'Language code of the results, e.g. en or pt-BR. Not added: the gateway default.',
			},
			{
				displayName: 'Page',
				name: 'page',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 1,
				description: 'Result page, from 1. Each page is a paid request.',
			},
		]),
		paymentOptions([
			{
				displayName: 'Split Into Items',
				name: 'split',
				type: 'boolean',
				default: true,
				description: 'Whether to output one item per search result (for spreadsheets and CRMs) instead of one item holding the list',
			},
		]),
	],
	concurrency: parallelRequests,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const body: IDataObject = { query: v.requiredString(this.getNodeParameter('query', itemIndex), 'Query') };
		const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const country = v.countryCode(fields.country, 'Country');
		if (country !== undefined) body.country = country;
		const language = v.languageCode(fields.language, 'Language');
		if (language !== undefined) body.language = language;
		const page = v.optionalInteger(fields.page, 'Page', { min: 1 });
		if (page !== undefined) body.page = page;
		const split = v.boolean((this.getNodeParameter('options', itemIndex, {}) as IDataObject).split ?? false, 'Split Into Items');

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
			throw chargedError(this, itemIndex, result, `the search for "${body.query as string}" upstream`, upstreamError ?? (results ? 'no reason given' : 'the answer had no result list'));
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
