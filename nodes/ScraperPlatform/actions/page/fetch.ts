import { optionsCollection } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { field, rules } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import { FETCH_FIELDS } from '../../../shared/input/pageFetch';
import { readShaping, simplifyProperties } from '../../../shared/descriptions/simplify';
import type { RecordFields } from '../../../shared/descriptions/simplify';
import { apiRequest } from '../../../shared/transport/transport';
import { PLATFORM_API } from '../../transport/api';
import { FETCH_HOST } from '../../transport/hosts';
import { FROM_OPTIONS } from '../../versions';
import { pageItem } from './fetchAnswer';

/** The page timeout the service applies when none is sent (its own clients send 30). */
const SERVICE_TIMEOUT_SECONDS = 30;
/** What the vendor's clients add to the page timeout for their deadline: rendering, retries and the answer itself. */
const DEADLINE_MARGIN_SECONDS = 30;

/** A fetched page as an item: the content asked for and what the answer reports (fetchAnswer.ts). */
const PAGE_FIELDS: RecordFields = {
	id: 'url',
	simplified: ['url', 'statusCode', 'html', 'markdown', 'screenshot', 'file', 'cookies', 'tokenUsage', 'runtime', 'resultId'],
	all: ['url', 'statusCode', 'html', 'markdown', 'screenshot', 'file', 'cookies', 'tokenUsage', 'bandwidthUsage', 'runtime', 'resultId', 'contentType'],
	// A model reads the page and whether it answered; the usage figures are for the workflow's owner.
	agent: ['url', 'statusCode', 'markdown', 'html', 'file'],
};

const URL = FETCH_FIELDS.url.with({
	description:
		'Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is sent.',
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

const PROXY_COUNTRY = FETCH_FIELDS.proxyCountry.with({
	description: "Two-letter code of the proxy's country, sent beside Country as the service's own n8n node sends it. Not added: the service chooses.",
});

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

const BLOCK_RESOURCES = FETCH_FIELDS.blockResources.with({ description: 'Whether the browser skips images, fonts and other heavy resources. Not added: the service default (off).' });

const HTML = FETCH_FIELDS.html.with({
	default: false,
	description: "Whether to return the page's HTML. Off leaves it out of the answer (html is empty), e.g. when only Markdown or a screenshot is wanted. Not added: on.",
});

const MARKDOWN = FETCH_FIELDS.markdown.with({ description: 'Whether to return the page converted to Markdown, in the markdown field. Not added: off.' });

const SCREENSHOT = field({
	displayName: 'Screenshot',
	name: 'screenshot',
	type: 'options',
	default: 'full',
	options: [
		{ name: 'Full Page', value: 'full', description: 'The whole page, top to bottom' },
		{ name: 'Top of Page', value: 'top', description: 'What a visitor sees before scrolling' },
	],
	description: "A picture of the page, output as a binary file in the 'screenshot' property (for Google Drive, Slack or email). Not added: none.",
});

const WAIT_UNTIL = FETCH_FIELDS.waitUntil.with({ description: 'When the browser considers the page ready. Not added: the service default.' });
const RETURN_COOKIES = FETCH_FIELDS.returnCookie.with({ description: 'Whether to return the cookies the site set, in the cookies field, where the service gives them. Not added: off.' });
const SUPER_MODE = FETCH_FIELDS.super.with({ description: 'Whether to route the fetch through real devices, for sites that block data centres (may use more tokens). Not added: off.' });

/**
 * The options in the order the query sends them, as the public facts show it (the GET form, then the vendor node's
 * additions), and checked in: each is sent only when added (a switch as true or false).
 */
const SENT = [TIMEOUT, COUNTRY, BROWSER_RENDERING, WAIT_FOR_SELECTOR, HOME_PAGE, BLOCK_RESOURCES, MAX_RETRIES, TOKEN_CAP, PROXY_COUNTRY, HTML, MARKDOWN, SCREENSHOT, WAIT_UNTIL, RETURN_COOKIES, SUPER_MODE];
const OPTIONS = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), SENT);
const QUERY = new Request([URL, ...SENT]);

export const pageFetch: Operation = {
	value: 'fetch',
	name: 'Fetch',
	// An AI Agent's tool is described by this action ("<action> in Scraper Platform"): what it returns and costs.
	action: 'Fetch page as HTML, Markdown or screenshot (uses plan tokens)',
	description: "Fetch one public web page with the API token: its HTML, Markdown or a screenshot, the page's status code and the tokens it used",
	properties: [URL.property, ...simplifyProperties(PAGE_FIELDS, FROM_OPTIONS), OPTIONS.property],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [URL, OPTIONS]);
		const qs = QUERY.body(values);
		// Read before anything is sent, like every other setting.
		const shape = readShaping(this, itemIndex, PAGE_FIELDS);
		const url = values.get(URL);
		const answer = await apiRequest<Buffer>(
			call,
			PLATFORM_API,
			{
				method: 'GET',
				host: FETCH_HOST,
				path: '/',
				qs,
				answer: 'bytes',
				// A fetch spends plan tokens: after a 5xx or a lost connection it is not sent again (429 is retried).
				idempotent: false,
				started: { what: `the fetch of ${url}`, happened: 'run and used tokens', check: "Check the account's token usage (Account > Get)" },
				timeoutMs: ((values.of(TIMEOUT) ?? SERVICE_TIMEOUT_SECONDS) + DEADLINE_MARGIN_SECONDS) * 1000,
			},
			itemIndex,
		);
		const asked = { html: values.of(HTML) ?? true, markdown: values.of(MARKDOWN) === true, screenshot: values.of(SCREENSHOT) !== undefined };
		const item = await pageItem(this, itemIndex, url, answer, asked);
		return [{ ...item, json: shape(item.json) }];
	},
};
