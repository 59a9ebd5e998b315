import type { IDataObject } from 'n8n-workflow';

import { Field, field } from '../../../shared/input/fields';
import type { Rule } from '../../../shared/input/fields';
import type { InputValidator } from '../../../shared/input/validation';
import { SCREENSHOT } from '../rerunOptions';

/**
 * The manual rerun's own options (public facts, "Manual rerun options"): the service's cookie jar, cookies to send, a
 * home page visit, a paginator, the user's own proxy, a recording, the token cap, and the screenshot as text.
 */

const isObject = (value: unknown): value is IDataObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A cookie's domain: a host name, optionally with a leading dot for its subdomains. */
const COOKIE_DOMAIN = /^\.?(?!-)[a-z0-9-]{1,63}(\.(?!-)[a-z0-9-]{1,63})*$/i;

/** The entries of a fixed collection (`{cookie: [...]}` as the editor keeps it) or a list from an expression. */
function entriesOf(value: unknown, key: string): unknown[] {
	if (Array.isArray(value)) return value;
	const entries = isObject(value) ? value[key] : undefined;
	return Array.isArray(entries) ? entries : isObject(entries) ? [entries] : [];
}

/** Each cookie with a name, a text value and, if given, a domain; refused naming the cookie (its place in the list). */
const cookiesRule: Rule<IDataObject[] | undefined> = (v, value, label) => {
	const cookies = entriesOf(value, 'cookie').map((entry, i) => {
		const at = `${label} (cookie ${i + 1})`;
		if (!isObject(entry)) return v.fail(at, 'it must be an object with a name, a value and a domain', 'Add each cookie with its Name, Value and Domain.');
		const name = v.requiredString(entry.name, `${at} > Name`);
		const text = entry.value === undefined || entry.value === null ? '' : entry.value;
		if (typeof text !== 'string' && typeof text !== 'number') v.fail(`${at} > Value`, 'it must be text', 'Enter the cookie value as text.');
		const domain = typeof entry.domain === 'string' ? entry.domain.trim() : entry.domain;
		if (domain !== undefined && domain !== '' && !(typeof domain === 'string' && COOKIE_DOMAIN.test(domain))) {
			v.fail(`${at} > Domain`, 'it is not a domain', 'Enter the domain the cookie belongs to, e.g. example.com or .example.com.');
		}
		return { name, value: String(text), ...(domain ? { domain } : {}) };
	});
	return cookies.length > 0 ? cookies : undefined;
};

export const COOKIES = field(
	{
		displayName: 'Cookies',
		name: 'cookies',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Cookie',
		default: {},
		description: 'Cookies the browser sends to the site, e.g. a consent or session cookie',
		options: [
			{
				displayName: 'Cookie',
				name: 'cookie',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. session' },
					{ displayName: 'Value', name: 'value', type: 'string', typeOptions: { password: true }, default: '' },
					{ displayName: 'Domain', name: 'domain', type: 'string', default: '', placeholder: 'e.g. .example.com' },
				],
			},
		],
	},
	cookiesRule,
);

/** The paginator as the service reads it: `{selector, maxPages}` (Max Pages only when given). */
const paginatorRule: Rule<IDataObject | undefined> = (v, value, label) => {
	const settings = isObject(value) && isObject(value.settings) ? value.settings : value;
	if (!isObject(settings)) return v.fail(label, 'it must have a Selector', 'Add the paginator with the CSS selector of the next-page link.');
	if (Object.keys(settings).length === 0) return undefined;
	const selector = v.requiredString(settings.selector, `${label} > Selector`);
	if (selector.length > 1000) v.fail(`${label} > Selector`, `it is ${selector.length} characters long, the limit is 1000`, 'Use a shorter CSS selector.');
	const maxPages = settings.maxPages === undefined || settings.maxPages === '' ? undefined : v.integer(settings.maxPages, `${label} > Max Pages`, { min: 1, max: 1000 });
	return maxPages === undefined ? { selector } : { selector, maxPages };
};

export const PAGINATOR = field(
	{
		displayName: 'Paginator',
		name: 'paginator',
		type: 'fixedCollection',
		placeholder: 'Add Paginator',
		default: {},
		description: 'How the scraper moves to the next page: the CSS selector of its "next" link and how many pages to follow',
		options: [
			{
				displayName: 'Settings',
				name: 'settings',
				values: [
					{ displayName: 'Selector', name: 'selector', type: 'string', default: '', placeholder: 'e.g. a.next-page' },
					{ displayName: 'Max Pages', name: 'maxPages', type: 'number', typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 }, default: 5 },
				],
			},
		],
	},
	paginatorRule,
);

/** A proxy URL, checked without ever repeating it: it may hold a user name and password. */
function proxyUrl(v: InputValidator, value: unknown, label: string): string {
	const text = v.requiredString(value, label);
	const fix = 'Enter the proxy as http://, https://, socks4:// or socks5:// followed by host:port (with user:password@ if it needs them).';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		// Not a URL: refused below without quoting it.
	}
	if (!url || !/^(https?|socks[45]):$/.test(url.protocol) || url.hostname === '') v.fail(label, 'it is not a proxy URL (the value is not shown: it may hold a password)', fix);
	return text;
}

export const PROXY_URL = field(
	{
		displayName: 'Proxy URL',
		name: 'proxy',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		placeholder: 'e.g. http://user:password@proxy.example.com:8080',
		description: "Your own proxy for this run. Kept secret: it never appears in the node's output or messages.",
	},
	proxyUrl,
);

export const COOKIE_JAR = field({
	displayName: 'Cookie Jar',
	name: 'cookieJar',
	type: 'string',
	default: '',
	placeholder: 'e.g. my-shop-session',
	description: "The cookie jar the browser uses: its name, or a serialized jar, as the service's own n8n node sends it",
});

export const HOME_PAGE = field({
	displayName: 'Home Page',
	name: 'homePage',
	type: 'boolean',
	default: true,
	description: "Whether the service opens the site's home page first, as a visitor would. Not added: the service default.",
});

export const HOME_PAGE_TIMEOUT = field({
	displayName: 'Home Page Timeout (Seconds)',
	name: 'homePageTimeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600, numberPrecision: 0 },
	default: 10,
	description: 'How long the home page may take to load, 1 to 600 seconds. Not added: 10.',
});

export const RECORD = field({
	displayName: 'Record',
	name: 'record',
	type: 'boolean',
	default: true,
	description: 'Whether the service records the browser session. Not added: the service default.',
});

export const TOKEN_CAP = field({
	displayName: 'Token Cap',
	name: 'tokenCap',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 10000, numberPrecision: 0 },
	default: 0,
	description: 'Most plan tokens the run may spend, 0 to 10000; 0 is no cap. Not added: no cap.',
});

/** The manual rerun takes its screenshot switch as the text "true" or "false" (as the vendor's clients send it). */
export const SCREENSHOT_AS_TEXT = new Field<string>(SCREENSHOT.property, (v, value, label) => String(v.boolean(value, label)));
