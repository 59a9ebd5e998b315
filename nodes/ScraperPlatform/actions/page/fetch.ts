import type { IDataObject } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { field, rules } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import { FETCH_FIELDS } from '../../../shared/input/pageFetch';
import { readShaping, simplifyProperties } from '../../../shared/descriptions/simplify';
import type { RecordFields } from '../../../shared/descriptions/simplify';
import { apiRequest } from '../../../shared/transport/transport';
import type { ApiAnswer } from '../../../shared/transport/transport';
import { PLATFORM_API } from '../../transport/api';
import { FETCH_HOST } from '../../transport/hosts';
import { FROM_OPTIONS } from '../../versions';

/** The page timeout the service applies when none is sent (its own clients send 30). */
const SERVICE_TIMEOUT_SECONDS = 30;
/** What the vendor's clients add to the page timeout for their deadline: rendering, retries and the answer itself. */
const DEADLINE_MARGIN_SECONDS = 30;

/** A fetched page as an item: the HTML and what the answer's headers report. */
const PAGE_FIELDS: RecordFields = {
	id: 'url',
	simplified: ['url', 'statusCode', 'html', 'tokenUsage', 'runtime', 'resultId'],
	all: ['url', 'statusCode', 'html', 'tokenUsage', 'bandwidthUsage', 'runtime', 'resultId', 'contentType'],
	// A model reads the page and whether it answered; the usage figures are for the workflow's owner.
	agent: ['url', 'statusCode', 'html'],
};

const URL = FETCH_FIELDS.url.with({
	description:
		"Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is sent. For Markdown, add n8n's Markdown node after this one.",
});

const { maxRetries: MAX_RETRIES, tokenCap: TOKEN_CAP, waitForSelector: WAIT_FOR_SELECTOR } = FETCH_FIELDS;

const TIMEOUT = FETCH_FIELDS.timeout.with({
	default: SERVICE_TIMEOUT_SECONDS,
	description: `How long the service waits for the page, 1 to 300 seconds. The node waits this long plus ${DEADLINE_MARGIN_SECONDS} seconds for the answer. Not added: ${SERVICE_TIMEOUT_SECONDS}.`,
});

const COUNTRY = field(
	{
		displayName: 'Country',
		name: 'geoCode',
		type: 'string',
		default: 'us',
		placeholder: 'e.g. us',
		description: 'Two-letter code of the country the page is fetched from. Not added: the service chooses.',
	},
	rules.countryCode,
);

const BROWSER_RENDERING = field({
	displayName: 'Browser Rendering',
	name: 'browserRendering',
	type: 'boolean',
	default: true,
	description: 'Whether to load the page in a browser and run its JavaScript before taking its HTML (for pages built by scripts). Not added: the service default (off).',
});

const HOME_PAGE = field({
	displayName: 'Visit Home Page First',
	name: 'homePage',
	type: 'boolean',
	default: true,
	description: "Whether the service opens the site's home page before the page, as a visitor would. Not added: the service default (off).",
});

const BLOCK_RESOURCES = field({
	displayName: 'Block Resources',
	name: 'blockResources',
	type: 'boolean',
	default: true,
	description: 'Whether the browser skips images, fonts and other heavy resources. Not added: the service default (off).',
});

/** Checked in this order; each is sent only when added (a switch as true or false). */
const OPTIONS = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), [
	MAX_RETRIES,
	TIMEOUT,
	TOKEN_CAP,
	WAIT_FOR_SELECTOR,
	BROWSER_RENDERING,
	HOME_PAGE,
	BLOCK_RESOURCES,
	COUNTRY,
]);

/** The query of the fetch, in the order the public facts show it; every key is its field's name. */
const QUERY = new Request([URL, TIMEOUT, COUNTRY, BROWSER_RENDERING, WAIT_FOR_SELECTOR, HOME_PAGE, BLOCK_RESOURCES, MAX_RETRIES, TOKEN_CAP]);

function header(headers: ApiAnswer<string>['headers'], name: string): string | undefined {
	const value = headers[name];
	return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/** A header's number, or null when the answer did not report it (never a guess). */
function headerNumber(headers: ApiAnswer<string>['headers'], name: string): number | null {
	const text = header(headers, name);
	const number = text === undefined ? NaN : Number(text);
	return Number.isFinite(number) ? number : null;
}

/** The page and what the answer's headers report of it: the target's status, the tokens and time it took, its id. */
function pageRecord(url: string, answer: ApiAnswer<string>): IDataObject {
	const { headers } = answer;
	return {
		url,
		statusCode: headerNumber(headers, 'x-status-code'),
		html: answer.body,
		tokenUsage: headerNumber(headers, 'token_usage'),
		bandwidthUsage: headerNumber(headers, 'bandwidth_usage'),
		runtime: headerNumber(headers, 'runtime'),
		resultId: header(headers, 'x-result-id') ?? null,
		contentType: header(headers, 'content-type')?.split(';')[0].trim() ?? null,
	};
}

export const pageFetch: Operation = {
	value: 'fetch',
	name: 'Fetch',
	// An AI Agent's tool is described by this action ("<action> in Scraper Platform"): what it returns and costs.
	action: 'Fetch page as HTML (uses plan tokens)',
	description: "Fetch one public web page with the API token: its HTML, the page's status code and the tokens it used",
	properties: [URL.property, ...simplifyProperties(PAGE_FIELDS, FROM_OPTIONS), OPTIONS.property],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [URL, OPTIONS]);
		const qs = QUERY.body(values);
		// Read before anything is sent, like every other setting.
		const shape = readShaping(this, itemIndex, PAGE_FIELDS);
		const url = values.get(URL);
		const answer = await apiRequest<string>(
			call,
			PLATFORM_API,
			{
				method: 'GET',
				host: FETCH_HOST,
				path: '/',
				qs,
				answer: 'text',
				// A fetch spends plan tokens: after a 5xx or a lost connection it is not sent again (429 is retried).
				idempotent: false,
				started: { what: `the fetch of ${url}`, happened: 'run and used tokens', check: "Check the account's token usage (Account > Get)" },
				timeoutMs: ((values.of(TIMEOUT) ?? SERVICE_TIMEOUT_SECONDS) + DEADLINE_MARGIN_SECONDS) * 1000,
			},
			itemIndex,
		);
		return [{ json: shape(pageRecord(url, answer)) }];
	},
};
