import { normalizePublicPageUrl } from './publicHosts';
import { shownUrl } from './urlRules';
import { field, rules } from './fields';
import type { Rule } from './fields';
import type { InputValidator } from './validation';

/**
 * The rules of a page fetch's fields, for every node that fetches one page (the x402 gateway's paid fetch and the
 * platform's fetch with the API token): the same field is checked the same way whatever pays for it. The bounds are
 * the interface's (section A); the editor's number fields take them from here too.
 */
export const FETCH_LIMITS = {
	maxRetries: { min: 0, max: 10 },
	timeout: { min: 1, max: 300 },
	tokenCap: { min: 1, max: 10000 },
	selectorLength: 1000,
} as const;

/** The page URL as checked: the shared URL rules and a public host; the normalised URL that passed is the one sent. */
export function publicPageUrl(v: InputValidator, value: unknown, label: string): string {
	const text = v.requiredString(value, label);
	const checked = normalizePublicPageUrl(text);
	if (checked.ok) return checked.href;
	const { problem } = checked;
	const shown = problem.rule === 'credentials' ? 'the URL' : `"${shownUrl(text, 100)}"`;
	return v.fail(
		label,
		`${shown}: ${problem.message}`,
		problem.fix ??
			'Enter the address of a public web page, starting with https:// or http://, without user:password@. Local, private and IPv6-literal addresses cannot be fetched.',
	);
}

/** A CSS selector the renderer waits for: text of at most `FETCH_LIMITS.selectorLength` characters. */
const selectorRule: Rule<string> = (v, value, label) => {
	const selector = v.requiredString(value, label);
	const max = FETCH_LIMITS.selectorLength;
	if (selector.length > max) v.fail(label, `it is ${selector.length} characters long, the limit is ${max}`, 'Use a shorter CSS selector.');
	return selector;
};

/**
 * The fields of a page fetch, declared once for every node that fetches a page; a node words them its own way with
 * `Field.with` (its description, its default), never another name, label or range.
 */
export const FETCH_FIELDS = {
	url: field(
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/pricing',
			description: 'Public http(s) page to fetch. Local, private and IPv6-literal addresses and URLs with user:password@ are refused before anything is sent.',
		},
		publicPageUrl,
	),
	maxRetries: field({
		displayName: 'Max Retries',
		name: 'maxRetries',
		type: 'number',
		typeOptions: { minValue: FETCH_LIMITS.maxRetries.min, maxValue: FETCH_LIMITS.maxRetries.max, numberPrecision: 0 },
		default: 3,
		description: 'How often the service tries the page again when it does not load, 0 to 10. Not added: the service default.',
	}),
	timeout: field({
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: FETCH_LIMITS.timeout.min, maxValue: FETCH_LIMITS.timeout.max, numberPrecision: 0 },
		default: 30,
		description: 'How long the service waits for the page, 1 to 300 seconds',
	}),
	tokenCap: field({
		displayName: 'Token Cap',
		name: 'tokenCap',
		type: 'number',
		typeOptions: { minValue: FETCH_LIMITS.tokenCap.min, maxValue: FETCH_LIMITS.tokenCap.max, numberPrecision: 0 },
		default: 1000,
		description: 'Most plan tokens the fetch may spend with its retries, 1 to 10000. Not added: no cap.',
	}),
	waitForSelector: field(
		{
			displayName: 'Wait for Selector',
			name: 'waitForSelector',
			type: 'string',
			default: '',
			placeholder: 'e.g. #content',
			description: 'CSS selector the browser waits for before taking the HTML, at most 1000 characters',
		},
		selectorRule,
	),
	html: field({
		displayName: 'HTML',
		name: 'html',
		type: 'boolean',
		default: true,
		description: "Whether to return the page's HTML",
	}),
	markdown: field({
		displayName: 'Markdown',
		name: 'markdown',
		type: 'boolean',
		default: true,
		description: 'Whether to return the page converted to Markdown',
	}),
	blockResources: field({
		displayName: 'Block Resources',
		name: 'blockResources',
		type: 'boolean',
		default: true,
		description: 'Whether the browser skips images, fonts and other heavy resources',
	}),
	proxyCountry: field(
		{
			displayName: 'Proxy Country',
			name: 'proxyCountry',
			type: 'string',
			default: 'us',
			placeholder: 'e.g. us',
			description: 'Two-letter code of the country the page is fetched from',
		},
		rules.countryCode,
	),
	returnCookie: field({
		displayName: 'Return Cookies',
		name: 'returnCookie',
		type: 'boolean',
		default: true,
		description: "Whether to return the cookies the site set, where the service supports it",
	}),
	super: field({
		displayName: 'Super Mode',
		name: 'super',
		type: 'boolean',
		default: true,
		description: 'Whether to route the fetch through real devices (the service\'s "super" setting), for sites that block data centres',
	}),
	waitUntil: field({
		displayName: 'Wait Until',
		name: 'waitUntil',
		type: 'options',
		default: 'load',
		options: [
			{ name: 'DOM Content Loaded', value: 'domcontentloaded', description: 'The HTML is parsed' },
			{ name: 'Load', value: 'load', description: 'The page and its resources are loaded' },
			{ name: 'Network Idle', value: 'networkidle', description: 'No network activity for a moment' },
		],
		description: 'When the browser considers the page ready',
	}),
};
