import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { FROM_OPTIONS, optionsCollection } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { FETCH_LIMITS, publicPageUrl, readFetchSettings } from '../../../shared/input/pageFetch';
import { readShaping, simplifyProperties } from '../../../shared/descriptions/simplify';
import type { RecordFields } from '../../../shared/descriptions/simplify';
import { apiRequest } from '../../../shared/transport/transport';
import type { ApiAnswer } from '../../../shared/transport/transport';
import { InputValidator } from '../../../shared/input/validation';
import { PLATFORM_API } from '../../transport/api';
import { FETCH_HOST } from '../../transport/hosts';

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

/** Boolean options, sent as `true`/`false` when added: [parameter name, display name, query parameter]. */
const BOOLEAN_OPTIONS: ReadonlyArray<readonly [string, string, string]> = [
	['browserRendering', 'Browser Rendering', 'browserRendering'],
	['homePage', 'Visit Home Page First', 'homePage'],
	['blockResources', 'Block Resources', 'blockResources'],
];

const fetchOptions: INodeProperties[] = [
	{
		displayName: 'Block Resources',
		name: 'blockResources',
		type: 'boolean',
		default: true,
		description: 'Whether the browser skips images, fonts and other heavy resources. Not added: the service default (off).',
	},
	{
		displayName: 'Browser Rendering',
		name: 'browserRendering',
		type: 'boolean',
		default: true,
		description: 'Whether to load the page in a browser and run its JavaScript before taking its HTML (for pages built by scripts). Not added: the service default (off).',
	},
	{
		displayName: 'Country',
		name: 'geoCode',
		type: 'string',
		default: 'us',
		placeholder: 'e.g. us',
		description: 'Two-letter code of the country the page is fetched from. Not added: the service chooses.',
	},
	{
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: FETCH_LIMITS.maxRetries.min, maxValue: FETCH_LIMITS.maxRetries.max, numberPrecision: 0 },
		default: 3,
		description: 'How often the service tries the page again when it does not load, 0 to 10. Not added: the service default.',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: FETCH_LIMITS.timeout.min, maxValue: FETCH_LIMITS.timeout.max, numberPrecision: 0 },
		default: SERVICE_TIMEOUT_SECONDS,
		description: `How long the service waits for the page, 1 to 300 seconds. The node waits this long plus ${DEADLINE_MARGIN_SECONDS} seconds for the answer. Not added: ${SERVICE_TIMEOUT_SECONDS}.`,
	},
	{
		displayName: 'Token Cap',
		name: 'tokenCap',
		type: 'number',
		typeOptions: { minValue: FETCH_LIMITS.tokenCap.min, maxValue: FETCH_LIMITS.tokenCap.max, numberPrecision: 0 },
		default: 1000,
		description: 'Most plan tokens the fetch may spend with its retries, 1 to 10000. Not added: no cap.',
	},
	{
		displayName: 'Visit Home Page First',
		name: 'homePage',
		type: 'boolean',
		default: true,
		description: "Whether the service opens the site's home page before the page, as a visitor would. Not added: the service default (off).",
	},
	{
		displayName: 'Wait for Selector',
		name: 'waitForSelector',
		type: 'string',
		default: '',
		placeholder: 'e.g. #content',
		description: 'CSS selector the browser waits for before taking the HTML, at most 1000 characters',
	},
];

/** The query of the fetch in the order the public facts show it; a field the user did not set is left out. */
function readFetchQuery(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const url = publicPageUrl(v, ctx.getNodeParameter('url', itemIndex));
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings = readFetchSettings(v, options);
	const flags: IDataObject = {};
	for (const [name, label, sent] of BOOLEAN_OPTIONS) if (options[name] !== undefined) flags[sent] = v.boolean(options[name], label);
	const query: IDataObject = {
		url,
		timeout: settings.timeout,
		geoCode: v.countryCode(options.geoCode, 'Country'),
		browserRendering: flags.browserRendering,
		waitForSelector: settings.waitForSelector,
		homePage: flags.homePage,
		blockResources: flags.blockResources,
		maxRetries: settings.maxRetries,
		tokenCap: settings.tokenCap,
	};
	return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as IDataObject;
}

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
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/pricing',
			description:
				"Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is sent. For Markdown, add n8n's Markdown node after this one.",
		},
		...simplifyProperties(PAGE_FIELDS, FROM_OPTIONS),
		optionsCollection(fetchOptions, { displayOptions: { show: FROM_OPTIONS } }),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const qs = readFetchQuery(this, itemIndex);
		// Read before anything is sent, like every other setting.
		const shape = readShaping(this, itemIndex, PAGE_FIELDS);
		const url = qs.url as string;
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
				timeoutMs: (((qs.timeout as number | undefined) ?? SERVICE_TIMEOUT_SECONDS) + DEADLINE_MARGIN_SECONDS) * 1000,
			},
			itemIndex,
		);
		return [{ json: shape(pageRecord(url, answer)) }];
	},
};
