import type { IDataObject } from 'n8n-workflow';

import { normalizePublicPageUrl } from './publicHosts';
import { shownUrl } from './urlRules';
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
export function publicPageUrl(v: InputValidator, value: unknown, label = 'URL'): string {
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

/** The numeric and selector settings of a fetch, each present only when the user set it. */
interface FetchSettings {
	maxRetries?: number;
	timeout?: number;
	tokenCap?: number;
	waitForSelector?: string;
}

/** Max Retries, Timeout (Seconds), Token Cap and Wait for Selector from the collection that holds them, checked. */
export function readFetchSettings(v: InputValidator, fields: IDataObject): FetchSettings {
	const settings: FetchSettings = {};
	const maxRetries = v.optionalInteger(fields.maxRetries, 'Max Retries', FETCH_LIMITS.maxRetries);
	if (maxRetries !== undefined) settings.maxRetries = maxRetries;
	const timeout = v.optionalInteger(fields.timeout, 'Timeout (Seconds)', FETCH_LIMITS.timeout);
	if (timeout !== undefined) settings.timeout = timeout;
	const tokenCap = v.optionalInteger(fields.tokenCap, 'Token Cap', FETCH_LIMITS.tokenCap);
	if (tokenCap !== undefined) settings.tokenCap = tokenCap;
	if (fields.waitForSelector !== undefined && fields.waitForSelector !== '') {
		const selector = v.requiredString(fields.waitForSelector, 'Wait for Selector');
		const max = FETCH_LIMITS.selectorLength;
		if (selector.length > max) v.fail('Wait for Selector', `it is ${selector.length} characters long, the limit is ${max}`, 'Use a shorter CSS selector.');
		settings.waitForSelector = selector;
	}
	return settings;
}
