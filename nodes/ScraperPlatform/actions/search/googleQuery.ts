import type { IDataObject } from 'n8n-workflow';

import type { Rule } from '../../../shared/input/fields';
import { asRecords, findList } from '../../../shared/output/records';
import { shownUrl } from '../../../shared/input/urlRules';
import type { InputValidator } from '../../../shared/input/validation';

/** What a Google search asks for, whatever its page: the fields the user set, or the Google URL gave. */
export interface SearchRequest {
	query: string;
	region?: string;
	language?: string;
	/** The first page to read (1 is the first); unset, the service's first page. */
	page?: number;
	renderJs?: boolean;
}

/** What a search outputs: one item per result, the service's whole answers, or the result page's HTML. */
export const OUTPUT_AS = ['results', 'answer', 'html'] as const;

/** google.com, www.google.de, m.google.com, google.co.uk: Google's own hosts, the only ones whose search URLs are read. */
const GOOGLE_HOST = /^((www|m)\.)?google\.[a-z]{2,3}(\.[a-z]{2})?$/;
/** Google answers a search at /search and, with a `q`, at its home page too (e.g. https://www.google.com/?q=tea). */
const SEARCH_PATHS = ['/search', '/'];
const GOOGLE_URL_FIX = 'Enter search terms, or a Google search address such as https://www.google.com/search?q=running+shoes.';

/**
 * A Google search URL read as the vendor's clients read it: `q` -> query, `gl` -> region, `hl` -> language,
 * `start` -> page floor(start/10)+1. The URL follows the rules of every URL field; one that is not a Google search
 * is refused, naming the field (`label`), rather than searched for as text.
 */
function fromGoogleUrl(v: InputValidator, text: string, label: string): SearchRequest {
	const url = new URL(v.httpUrl(text, label));
	if (!GOOGLE_HOST.test(url.hostname) || !SEARCH_PATHS.includes(url.pathname)) {
		v.fail(label, `"${shownUrl(text)}" is not a Google search URL (https://www.google.com/search?q=…)`, GOOGLE_URL_FIX);
	}
	const params = url.searchParams;
	const query = params.get('q')?.trim();
	if (!query) v.fail(label, 'the Google search URL has no search terms (its q is empty or missing)', GOOGLE_URL_FIX);
	const request: SearchRequest = { query };
	const region = v.countryCode(params.get('gl'), label);
	if (region !== undefined) request.region = region;
	const language = v.languageCode(params.get('hl'), label);
	if (language !== undefined) request.language = language;
	const start = v.optionalInteger(params.get('start'), label, { min: 0 });
	if (start !== undefined) request.page = Math.floor(start / 10) + 1;
	return request;
}

/**
 * The rule of the Query field: search terms, or a Google search URL read into the search it asks for. Only what
 * starts like a web address is read as one ("site:example.com shoes" stays search terms). The options win over what
 * the URL says (as in the vendor's clients).
 */
export const searchQueryRule: Rule<SearchRequest> = (v, value, label) => {
	const text = v.requiredString(value, label);
	return /^https?:/i.test(text) ? fromGoogleUrl(v, text, label) : { query: text };
};

/**
 * The body of one page's request, in the order the public facts show it. Fields the user did not set are left out;
 * `format` is always sent, because it decides what the node reads (JSON results, or the result page's HTML).
 */
export function searchBody(request: SearchRequest, page: number | undefined, format: 'json' | 'html'): IDataObject {
	const body: IDataObject = { query: request.query, region: request.region, language: request.language, page, format, renderJs: request.renderJs };
	return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as IDataObject;
}

/** Where a search answer keeps its results: the answer itself, or its `data`, under one of these names. */
const RESULT_LISTS = ['results', 'organic', 'organicResults', 'items'];

/** The results of one answered page, or undefined when the answer holds no result list at all. */
export function resultsOf(answer: unknown): IDataObject[] | undefined {
	const data = answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as IDataObject).data : undefined;
	const list = findList(answer, RESULT_LISTS) ?? findList(data, RESULT_LISTS);
	return list === undefined ? undefined : asRecords(list);
}

/** Where an answer may say how its pages go on: the answer, its `data`, and their `pagination` or `meta`. */
function pagingPlaces(answer: unknown): IDataObject[] {
	const isObject = (value: unknown): value is IDataObject => value !== null && typeof value === 'object' && !Array.isArray(value);
	const tops = [answer, isObject(answer) ? answer.data : undefined].filter(isObject);
	return tops.flatMap((top) => [top, top.pagination, top.meta].filter(isObject));
}

const MORE_FLAGS = ['hasNextPage', 'has_next_page', 'hasMore', 'has_more'];
const NEXT_MARKERS = ['nextPage', 'next_page', 'next'];
const PAGE_COUNTS = ['totalPages', 'total_pages', 'totalPage'];
const RESULT_COUNTS = ['totalResults', 'total_results'];

/**
 * What one answered page says of the pages after it: `true` when it is the last, `false` when more follow, undefined
 * when it says nothing (then only an empty page ends the search: a page with fewer results than usual proves nothing,
 * Google shortens pages it filtered). It reads a more-flag, a next-page marker, a page count, or a count of results
 * compared with the `seen` results read so far, wherever the answer keeps them.
 */
export function isLastPage(answer: unknown, page: number, seen: number): boolean | undefined {
	for (const place of pagingPlaces(answer)) {
		const flag = MORE_FLAGS.find((key) => typeof place[key] === 'boolean');
		if (flag) return place[flag] === false;
		const marker = NEXT_MARKERS.find((key) => key in place);
		if (marker) return [null, undefined, '', false].includes(place[marker] as never);
		const pages = PAGE_COUNTS.map((key) => place[key]).find((value): value is number => typeof value === 'number');
		if (pages !== undefined) return page >= pages;
		const results = RESULT_COUNTS.map((key) => place[key]).find((value): value is number => typeof value === 'number');
		if (results !== undefined) return seen >= results;
	}
	return undefined;
}
