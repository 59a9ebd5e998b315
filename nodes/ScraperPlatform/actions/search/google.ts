import type { IDataObject, INodeExecutionData, INodeProperties, JsonObject } from 'n8n-workflow';

import { optionsCollection, shownFrom } from '../../../shared/descriptions/collections';
import { nodeApiError } from '../../../shared/execution/errors';
import { LIMIT, readListingLimit, RETURN_ALL, returnAllProperties } from '../../../shared/descriptions/listing';
import type { Operation } from '../../../shared/execution/operation';
import { field, rules } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import { collectRecords, listingWalk } from '../../../shared/paging/pages';
import type { PageReader } from '../../../shared/paging/pages';
import { readShaping, simplifyProperties } from '../../../shared/descriptions/simplify';
import type { RecordFields } from '../../../shared/descriptions/simplify';
import { apiRequest, headerText } from '../../../shared/transport/transport';
import { decodePage } from '../../transport/pageBody';
import type { ApiRequest } from '../../../shared/transport/definition';
import { PLATFORM_API } from '../../transport/api';
import { SEARCH_HOST } from '../../transport/hosts';
import { FROM_OPTIONS, PLATFORM_VERSIONS } from '../../versions';
import { isLastPage, OUTPUT_AS, resultsOf, searchBody, searchQueryRule } from './googleQuery';
import type { SearchRequest } from './googleQuery';
import type { ExecutionCall } from '../../../shared/execution/call';
import { SEARCH_FIELDS } from '../../../shared/input/webSearch';

const SEARCH_PATH = '/api/google/serp/v2/sync';
/** The vendor's clients give a search two minutes. */
const SEARCH_DEADLINE_MS = 120_000;

/** One Google result as an item: the fields the service lists, with the query and the page it came from. */
const RESULT_FIELDS: RecordFields = {
	id: 'url',
	simplified: ['rank', 'title', 'url', 'siteName', 'displayUrl', 'snippet'],
	all: ['query', 'page', 'rank', 'title', 'url', 'siteName', 'displayUrl', 'snippet'],
	agent: ['rank', 'title', 'url', 'snippet'],
};

const QUERY = field(
	{
		displayName: 'Query',
		name: 'query',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. best hiking boots 2025',
		description: 'What to search for, or a Google search URL (https://www.google.com/search?q=…) whose q, gl, hl and start are read',
	},
	searchQueryRule,
);

const REGION = field(
	{
		displayName: 'Region',
		name: 'region',
		type: 'string',
		default: 'us',
		placeholder: 'e.g. us',
		description: `Two-letter country code the results are for. Wins over the gl of a Google search URL in '${QUERY.label}'.`,
	},
	rules.countryCode,
);

const LANGUAGE = SEARCH_FIELDS.language.with({
	description: `Language code of the results, e.g. en, pt-BR, es-419 or zh-Hant. Wins over the hl of a Google search URL in '${QUERY.label}'.`,
});

const PAGE = SEARCH_FIELDS.page.with({
	description: `The first result page to read (1 is the first; ten results a page). Wins over the start of a Google search URL in '${QUERY.label}'.`,
});

const RENDER_JS = field({
	displayName: 'Render JavaScript',
	name: 'renderJs',
	type: 'boolean',
	default: true,
	description: "Whether Google's page is rendered in a browser first, for results only scripts show (e.g. an AI overview). Not added: not sent.",
});

const OUTPUT = field(
	{
		displayName: 'Output As',
		name: 'outputAs',
		type: 'options',
		default: 'results',
		options: [
			{ name: 'One Item per Record', value: 'results', description: 'Each search result as its own item: rank, title, URL, site and snippet' },
			{ name: 'Result Page HTML', value: 'html', description: `Google's result page as HTML, one page ('${RETURN_ALL.label}' and '${LIMIT.label}' do not apply)` },
			{ name: 'Whole Answer', value: 'answer', description: "One item per page read: the service's answer as it is (an answer that is only a list of results comes under 'results')" },
		],
		description: 'What each search outputs',
	},
	rules.oneOf(OUTPUT_AS),
);

/** Checked in this order; each wins over what a Google search URL in Query says. */
const OPTIONS = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), [REGION, LANGUAGE, PAGE, RENDER_JS, OUTPUT]);

/** The options a search sends, each under its field's name (the search's own words: `SearchRequest`). */
const SEARCH_OPTIONS = new Request([REGION, LANGUAGE, PAGE, RENDER_JS]);

/** Return All and Limit, the limit starting at one page of results: every page read uses plan tokens. */
const limitProperties: INodeProperties[] = returnAllProperties(10);

/** Return All's ceiling, from the version that brought it; earlier workflows read until the end, as they did. */
const MAX_PAGES = field({
	displayName: 'Max Pages',
	name: 'maxPages',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
	default: 10,
	description: 'With Return All, the most result pages to read (ten results each). Each page uses plan tokens; raise it for more.',
	hint: 'Each page read uses plan tokens. A notice says so when more pages were left unread.',
	displayOptions: { show: { ...shownFrom(PLATFORM_VERSIONS.searchCeiling), returnAll: [true] } },
});

/** One request of the search: never repeated after a 5xx or a lost connection (it uses plan tokens); 429 is retried. */
function searchRequest(request: SearchRequest, page: number | undefined, format: 'json' | 'html'): ApiRequest {
	const which = page === undefined ? '' : ` (page ${page})`;
	return {
		method: 'POST',
		host: SEARCH_HOST,
		path: SEARCH_PATH,
		body: searchBody(request, page, format),
		answer: format === 'html' ? 'bytes' : undefined,
		idempotent: false,
		started: { what: `the Google search for "${request.query}"${which}`, happened: 'run and used tokens', check: "Check the account's token usage (Account > Get)" },
		timeoutMs: SEARCH_DEADLINE_MS,
	};
}

/** The result page's HTML, for the page the user chose. */
async function resultPageHtml(call: ExecutionCall, request: SearchRequest, itemIndex: number): Promise<INodeExecutionData[]> {
	const { body, headers } = await apiRequest<Buffer>(call, PLATFORM_API, searchRequest(request, request.page, 'html'), itemIndex);
	const { text } = decodePage(body, headerText(headers, 'content-type'));
	return [{ json: { query: request.query, page: request.page ?? 1, html: text } }];
}

/** How far a search's pages are read: Return All's ceiling (the last page it may read), and whether it cut the walk. */
interface SearchWalk {
	answers: unknown[];
	wholeAnswer: boolean;
	lastPage: number;
	/** Set when the ceiling stopped a walk the answers said (or did not say) had more pages. */
	cut?: boolean;
	seen: number;
}

/**
 * The pages of one search from the first asked for, as a page reader: each page's results with the query and page,
 * the next page until an empty page or an answer that says it was the last (`isLastPage`), and never past the walk's
 * last page. `walk.answers` keeps every answer read, for Whole Answer, which also takes an answer without a result
 * list as it is (and reads no further); One Item per Record cannot, and says so.
 */
function searchPages(call: ExecutionCall, request: SearchRequest, itemIndex: number, walk: SearchWalk): PageReader<IDataObject> {
	const { ctx } = call;
	const { answers, wholeAnswer } = walk;
	return async (page) => {
		// Unset, the first page is the service's own: `page` is sent from the second page on.
		const sent = request.page === undefined && page === 1 ? undefined : page;
		const { body } = await apiRequest<unknown>(call, PLATFORM_API, searchRequest(request, sent, 'json'), itemIndex);
		const results = resultsOf(body);
		if (!results && wholeAnswer) {
			answers.push(body ?? {});
			return { records: [], next: undefined };
		}
		if (!results) {
			const json = answerJson(body);
			const said = typeof json.message === 'string' ? `: ${json.message}` : '';
			throw nodeApiError(ctx.getNode(), json as JsonObject, {
				message: `The Google search for "${request.query}" was answered without a result list${said}`,
				description: `The node reads results from the JSON answer. Run it again later, or set '${OUTPUT.label}' to 'Whole Answer' to see what the service sent.`,
				itemIndex,
			});
		}
		answers.push(body ?? {});
		const records = results.map((record) => ({ query: request.query, page, ...record }));
		walk.seen += records.length;
		const more = records.length > 0 && isLastPage(body, page, walk.seen) !== true;
		if (more && page >= walk.lastPage) walk.cut = true;
		return { records, next: more && page < walk.lastPage ? page + 1 : undefined };
	};
}

/**
 * A page's answer as an item's json, which n8n needs to be an object: the public facts show the answer may be only
 * the result list (`[{rank, ...}]`), which comes under `results`, the name the node reads results from.
 */
function answerJson(answer: unknown): IDataObject {
	if (Array.isArray(answer)) return { results: answer };
	return answer !== null && typeof answer === 'object' ? (answer as IDataObject) : {};
}

/** A result's identity across pages: a page that repeats an earlier one brings nothing new, and the walk stops. */
const resultKey = (record: IDataObject): string => `${String(record.rank)}|${String(record.url)}|${String(record.title)}`;

export const searchGoogle: Operation = {
	value: 'google',
	name: 'Google',
	// An AI Agent's tool is described by this action ("<action> in Scraper Platform"): what it returns and costs.
	action: 'Search Google for titles, links and snippets (uses plan tokens)',
	description: 'Get Google results for search terms or a Google search URL, page by page, with the API token',
	properties: [QUERY.property, ...limitProperties, MAX_PAGES.property, ...simplifyProperties(RESULT_FIELDS, FROM_OPTIONS), OPTIONS.property],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [QUERY, OPTIONS]);
		const request = { ...values.get(QUERY), ...SEARCH_OPTIONS.body(values) } as SearchRequest;
		const outputAs = values.of(OUTPUT) ?? 'results';
		const { limit } = readListingLimit(this, itemIndex, undefined);
		const shape = readShaping(this, itemIndex, RESULT_FIELDS);
		if (outputAs === 'html') return await resultPageHtml(call, request, itemIndex);
		const first = request.page ?? 1;
		const ceiling = limit === Infinity && this.getNode().typeVersion >= PLATFORM_VERSIONS.searchCeiling ? MAX_PAGES.read(this, itemIndex) : Infinity;
		const search: SearchWalk = { answers: [], wholeAnswer: outputAs !== 'results', lastPage: first + ceiling - 1, seen: 0 };
		const walk = listingWalk(this, itemIndex, `the Google result list for "${request.query}"`, resultKey);
		const records = await collectRecords(searchPages(call, request, itemIndex, search), first, limit, walk);
		if (search.cut) {
			const message = `Read ${ceiling} result pages of "${request.query}", its '${MAX_PAGES.label}': more pages may follow. Raise '${MAX_PAGES.label}' to read them (each page uses plan tokens).`;
			this.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
		}
		if (outputAs === 'results') return records.map((record) => ({ json: shape(record) }));
		// Whole Answer: the pages that brought results (the first one when none did), as the service answered them.
		const answered = search.answers.filter((answer) => (resultsOf(answer) ?? []).length > 0);
		return (answered.length > 0 ? answered : search.answers.slice(0, 1)).map((answer) => ({ json: answerJson(answer) }));
	},
};
