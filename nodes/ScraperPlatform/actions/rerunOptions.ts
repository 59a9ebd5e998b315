import { field } from '../../shared/input/fields';
import { FETCH_FIELDS } from '../../shared/input/pageFetch';

/**
 * The options both reruns take (public facts, "AI rerun options" and "Manual rerun options"), declared once: each is
 * sent only when added, under Options, and checked by the same rules as the same setting of a page fetch. The
 * service's defaults are named in each description; the bounds are the fetch's where it has the same setting.
 */

export const MAX_RETRY = field({
	displayName: 'Max Retries',
	name: 'maxRetry',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
	default: 3,
	description: 'How often the service tries the page again when it does not load, 0 to 10. Not added: 3.',
});

export const PROXY_COUNTRY = FETCH_FIELDS.proxyCountry.with({ description: 'Two-letter code of the country the page is loaded from. Not added: the service chooses.' });

export const BYPASS_PROXY = field({
	displayName: 'Bypass Proxy',
	name: 'bypassProxy',
	type: 'boolean',
	default: true,
	description: "Whether to load the page directly, without the service's proxies. Not added: the service default.",
});

export const HTML = FETCH_FIELDS.html.with({ description: "Whether the result carries the page's HTML. Not added: the service default." });

export const MARKDOWN = FETCH_FIELDS.markdown.with({ description: 'Whether the result carries the page converted to Markdown. Not added: the service default.' });

export const RETURN_COOKIES = FETCH_FIELDS.returnCookie.with({ description: 'Whether the result carries the cookies the site set. Not added: the service default.' });

/** A screenshot in the result: a switch; the manual rerun sends it as text (`manualScraper/rerun.ts`). */
export const SCREENSHOT = field({
	displayName: 'Screenshot',
	name: 'screenshot',
	type: 'boolean',
	default: true,
	description: 'Whether the result carries a screenshot of the page. Not added: the service default.',
});

export const STREAM = field({
	displayName: 'Stream',
	name: 'stream',
	type: 'boolean',
	default: true,
	description: 'Whether the service streams records as it finds them; the node waits for the whole answer either way. Not added: the service default.',
});

export const TIMEOUT = field({
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600, numberPrecision: 0 },
	default: 300,
	description: 'How long the service works on the run, 1 to 600 seconds. The node waits this long plus a minute for the answer (at least five minutes). Not added: the service default.',
});

export const WAIT_FOR_SELECTOR = FETCH_FIELDS.waitForSelector.with({ description: 'CSS selector the browser waits for before reading the page, at most 1000 characters' });
