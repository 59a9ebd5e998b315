import { field, rules } from '../../shared/input/fields';
import { Request } from '../../shared/input/fieldSets';
import { FETCH_FIELDS } from '../../shared/input/pageFetch';

/**
 * The page fetch's fields as the Scraper Platform words them, declared once for every part of the node that fetches a
 * page with the API token: Page > Fetch and the trigger's Page Changed event. Each offers the ones it needs.
 */

/** The page timeout the service applies when none is sent (its own clients send 30). */
export const SERVICE_TIMEOUT_SECONDS = 30;
/** What the vendor's clients add to the page timeout for their deadline: rendering, retries and the answer itself. */
export const DEADLINE_MARGIN_SECONDS = 30;

export const PAGE_URL = FETCH_FIELDS.url.with({
	description:
		'Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is sent.',
});

export const { maxRetries: MAX_RETRIES, tokenCap: TOKEN_CAP, waitForSelector: WAIT_FOR_SELECTOR } = FETCH_FIELDS;

export const TIMEOUT = FETCH_FIELDS.timeout.with({
	default: SERVICE_TIMEOUT_SECONDS,
	description: `How long the service waits for the page, 1 to 300 seconds. The node waits this long plus ${DEADLINE_MARGIN_SECONDS} seconds for the answer. Not added: ${SERVICE_TIMEOUT_SECONDS}.`,
});

export const COUNTRY = field(
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

export const PROXY_COUNTRY = FETCH_FIELDS.proxyCountry.with({
	description: "Two-letter code of the proxy's country, sent beside Country as the service's own n8n node sends it. Not added: the service chooses.",
});

export const BROWSER_RENDERING = field({
	displayName: 'Browser Rendering',
	name: 'browserRendering',
	type: 'boolean',
	default: true,
	description: 'Whether to load the page in a browser and run its JavaScript before taking its HTML (for pages built by scripts). Not added: the service default (off).',
});

export const HOME_PAGE = field({
	displayName: 'Visit Home Page First',
	name: 'homePage',
	type: 'boolean',
	default: true,
	description: "Whether the service opens the site's home page before the page, as a visitor would. Not added: the service default (off).",
});

export const BLOCK_RESOURCES = FETCH_FIELDS.blockResources.with({ description: 'Whether the browser skips images, fonts and other heavy resources. Not added: the service default (off).' });

export const HTML = FETCH_FIELDS.html.with({
	default: false,
	description: "Whether to return the page's HTML. Off leaves it out of the answer (html is empty), e.g. when only Markdown or a screenshot is wanted. Not added: on.",
});

export const MARKDOWN = FETCH_FIELDS.markdown.with({ description: 'Whether to return the page converted to Markdown, in the markdown field. Not added: off.' });

export const SCREENSHOT = field({
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

export const WAIT_UNTIL = FETCH_FIELDS.waitUntil.with({ description: 'When the browser considers the page ready. Not added: the service default.' });
export const RETURN_COOKIES = FETCH_FIELDS.returnCookie.with({ description: 'Whether to return the cookies the site set, in the cookies field, where the service gives them. Not added: off.' });
export const SUPER_MODE = FETCH_FIELDS.super.with({ description: 'Whether to route the fetch through real devices, for sites that block data centres (may use more tokens). Not added: off.' });

/**
 * Every option in the order the query sends them, as the public facts show it (the GET form, then the vendor node's
 * additions): each is sent only when added (a switch as true or false).
 */
export const FETCH_OPTIONS = [TIMEOUT, COUNTRY, BROWSER_RENDERING, WAIT_FOR_SELECTOR, HOME_PAGE, BLOCK_RESOURCES, MAX_RETRIES, TOKEN_CAP, PROXY_COUNTRY, HTML, MARKDOWN, SCREENSHOT, WAIT_UNTIL, RETURN_COOKIES, SUPER_MODE];

/** The fetch's query: the URL, then the options in their order. */
export const FETCH_QUERY = new Request([PAGE_URL, ...FETCH_OPTIONS]);
