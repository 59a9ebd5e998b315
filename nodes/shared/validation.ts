import { DateTime } from 'luxon';
import type { INode } from 'n8n-workflow';

import { nodeOperationError, refusal } from './errors';

/**
 * Input rules from the service interface, checked before any request is sent. Each failure names the
 * parameter by its display name and says how to fix it.
 */
export class InputValidator {
	constructor(
		private readonly node: INode,
		private readonly itemIndex: number,
	) {}

	fail(label: string, rule: string, fix: string): never {
		throw refusal(nodeOperationError(this.node, `Invalid "${label}": ${rule}`, { itemIndex: this.itemIndex, description: fix }));
	}

	requiredString(value: unknown, label: string): string {
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
			this.fail(label, 'it is required', `Enter a value for "${label}".`);
		}
		if (typeof value !== 'string' && typeof value !== 'number') {
			this.fail(label, `it must be text, got ${describe(value)}`, `Enter "${label}" as text.`);
		}
		return String(value).trim();
	}

	optionalString(value: unknown, label: string): string | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		return this.requiredString(value, label);
	}

	/**
	 * An absolute http(s) URL. Returns the WHATWG-normalised `href` that was checked, never the text as typed: the
	 * service receives exactly the URL these rules passed, so no other parser can read a different host from it.
	 * Outer whitespace is trimmed (it is neither checked nor sent); spellings parsers disagree on are refused.
	 */
	httpUrl(value: unknown, label: string): string {
		const text = this.requiredString(value, label);
		const spelling = InputValidator.urlTextProblem(text);
		if (spelling) this.fail(label, `"${InputValidator.shownUrl(text)}" ${spelling.message}`, spelling.fix);
		let url: URL;
		try {
			url = new URL(text);
		} catch {
			this.fail(label, `"${InputValidator.shownUrl(text)}" is not a valid URL`, 'Enter a full address starting with https:// or http://.');
		}
		if (url.protocol !== 'http:' && url.protocol !== 'https:') {
			this.fail(label, `only http and https URLs are allowed, got "${url.protocol}"`, 'Enter an address starting with https:// or http://.');
		}
		const host = InputValidator.urlHostProblem(text, url);
		if (host) this.fail(label, `"${InputValidator.shownUrl(text)}" ${host.message}`, host.fix);
		return url.href;
	}

	/** A list of URLs from a comma/newline separated string or an array (e.g. from an expression). */
	httpUrlList(value: unknown, label: string, options: { required: boolean }): string[] {
		const list = toList(value);
		if (options.required && list.length === 0) {
			this.fail(label, 'at least one URL is required', `Enter one or more URLs in "${label}", one per line or separated by commas.`);
		}
		return list.map((entry, i) => this.httpUrl(entry, list.length > 1 ? `${label} (entry ${i + 1})` : label));
	}

	/**
	 * URL rules on the (trimmed) text, before it is parsed; shared with the x402 gateway's page URL. Returns the
	 * broken rule (`message` reads after the quoted URL), or undefined.
	 * - ASCII control characters (C0, including tab, CR, LF and NUL, and DEL) anywhere: WHATWG silently drops
	 *   tabs and line breaks and other parsers keep or reject them, so the text has no single reading.
	 * - A backslash anywhere: RFC 3986 never allows a raw "\"; WHATWG reads it as "/" in an http(s) path or
	 *   authority ("http://a.com\@b.com" is a.com to WHATWG, b.com to others) but keeps it in a query, so even
	 *   in the path it changes the address. "%5C" is the one unambiguous spelling.
	 * - A "%" not followed by two hex digits: WHATWG keeps it, RFC 3986 parsers reject it and decoders throw on it
	 *   (after the page was paid for, at the gateway).
	 * - An http(s) scheme not followed by "//" and a host ("http:a.com", "http:///a.com"): WHATWG guesses a host.
	 * - More than one "@" before the host: parsers split the user name from the host at different "@"s.
	 */
	static urlTextProblem(text: string): { rule: 'controlCharacter' | 'backslash' | 'percent' | 'authority' | 'userinfo' | 'host'; message: string; fix: string } | undefined {
		const control = controlCharacterAt(text);
		if (control >= 0) {
			return {
				rule: 'controlCharacter',
				message: `contains a control character (${InputValidator.controlName(text.charCodeAt(control))}) at character ${control + 1}`,
				fix: 'Remove tabs, line breaks and other invisible control characters from the URL; if one belongs to the path or query, percent-encode it (e.g. %0A).',
			};
		}
		const backslash = text.indexOf('\\');
		if (backslash >= 0) {
			return {
				rule: 'backslash',
				message: `contains a backslash (\\) at character ${backslash + 1}`,
				fix: 'Use "/" between path segments, or write a backslash that belongs to the path or query as %5C.',
			};
		}
		const escape = /%(?![0-9a-f]{2})/i.exec(text);
		if (escape) {
			return {
				rule: 'percent',
				message: `has a "%" that does not start a %XX escape at character ${escape.index + 1}`,
				fix: 'Write a literal "%" as %25; elsewhere "%" must be followed by two hexadecimal digits, as in %20.',
			};
		}
		const scheme = /^(https?):/i.exec(text);
		if (scheme && !/^https?:\/\/[^/]/i.test(text)) {
			return {
				rule: 'authority',
				message: `does not have "//" and a host right after "${scheme[1]}:"`,
				fix: `Write the address as ${scheme[1].toLowerCase()}://host/path, with exactly two slashes before the host.`,
			};
		}
		const authority = InputValidator.typedAuthority(text);
		if (authority !== undefined && authority.indexOf('@') !== authority.lastIndexOf('@')) {
			return {
				rule: 'userinfo',
				message: 'has more than one "@" before the host',
				fix: 'Write an "@" that belongs to a user name or password as %40, so that the host is what follows the only "@".',
			};
		}
		return undefined;
	}

	/**
	 * URL rules on the host, after the text parsed as `url`: the host WHATWG reads must be the host as typed, up to
	 * letter case and IDN (a Unicode label becomes its punycode "xn--" label, which is what is sent). Refused:
	 * percent-encoded hosts ("%61.com", "a.com%2e"), IPv4 spellings WHATWG reads as another address ("010.0.0.1"
	 * is 8.0.0.1, "127.1", "0x7f.1", "2130706433") and Unicode look-alikes that map onto ASCII letters or dots
	 * ("ｅｘａｍｐｌｅ.com", "a。b.com", soft hyphens). IPv6 literals are only written shorter by WHATWG: accepted.
	 */
	static urlHostProblem(text: string, url: URL): ReturnType<typeof InputValidator.urlTextProblem> {
		const authority = InputValidator.typedAuthority(text);
		if (authority === undefined) return undefined;
		const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
		if (hostAndPort.startsWith('[')) return undefined;
		const typed = hostAndPort.replace(/:\d*$/, '');
		const typedLabels = typed.split('.');
		const labels = url.hostname.split('.');
		const same =
			!typed.includes('%') &&
			typedLabels.length === labels.length &&
			typedLabels.every((label, i) => (/^[\x20-\x7e]*$/.test(label) ? label.toLowerCase() === labels[i] : labels[i].startsWith('xn--')));
		if (same) return undefined;
		return {
			rule: 'host',
			message: `has the host "${typed}", which URL parsers read as "${url.hostname}"`,
			fix: `Type the host as it is meant, without percent-encoding, e.g. "${url.hostname}" if that is the one; numeric IPv4 addresses as four decimal numbers such as 93.184.216.34.`,
		};
	}

	/** The URL for an error message: control characters escaped, a password hidden (user:…@), at most `max` characters. */
	static shownUrl(text: string, max = 80): string {
		let out = '';
		for (const char of text) {
			const code = char.charCodeAt(0);
			out += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : char;
		}
		out = out.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#:@]*):[^/?#]*@/i, '$1:…@');
		return out.length > max ? `${out.slice(0, max)}…` : out;
	}

	/** Scheme "://" then up to the first "/", "?" or "#": the authority as a plain reader sees it. */
	private static typedAuthority(text: string): string | undefined {
		return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(text)?.[1];
	}

	private static controlName(code: number): string {
		const names: Record<number, string> = { 0x00: 'NUL', 0x09: 'tab', 0x0a: 'line feed', 0x0d: 'carriage return', 0x7f: 'DEL' };
		const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
		return names[code] ? `${names[code]}, ${hex}` : hex;
	}

	uuid(value: unknown, label: string): string {
		const text = this.requiredString(value, label);
		if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) {
			this.fail(label, `"${truncate(text)}" is not a UUID`, `Copy the ID exactly as the service shows it, e.g. 3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b.`);
		}
		return text;
	}

	/** A regular expression the service will compile: it must compile here too. */
	regex(value: unknown, label: string): string | undefined {
		const text = this.optionalString(value, label);
		if (text === undefined) return undefined;
		try {
			new RegExp(text);
		} catch (error) {
			this.fail(label, `"${truncate(text)}" is not a valid regular expression (${(error as Error).message})`, 'Fix the pattern, e.g. /blog/.* to match blog pages.');
		}
		return text;
	}

	integer(value: unknown, label: string, range: { min?: number; max?: number }): number {
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isInteger(number)) {
			this.fail(label, `it must be a whole number, got ${describe(value)}`, `Enter a whole number${rangeText(range)}.`);
		}
		if ((range.min !== undefined && number < range.min) || (range.max !== undefined && number > range.max)) {
			this.fail(label, `${number} is out of range${rangeText(range)}`, `Enter a whole number${rangeText(range)}.`);
		}
		return number;
	}

	/** A number that may have a fraction (an amount, seconds): finite, in range, typed or as numeric text. */
	decimal(value: unknown, label: string, range: { min?: number; max?: number }): number {
		const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof number !== 'number' || !Number.isFinite(number)) {
			this.fail(label, `it must be a number, got ${describe(value)}`, `Enter a number${rangeText(range)}.`);
		}
		if ((range.min !== undefined && number < range.min) || (range.max !== undefined && number > range.max)) {
			this.fail(label, `${number} is out of range${rangeText(range)}`, `Enter a number${rangeText(range)}.`);
		}
		return number;
	}

	optionalInteger(value: unknown, label: string, range: { min?: number; max?: number }): number | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		return this.integer(value, label, range);
	}

	oneOf<T extends string>(value: unknown, label: string, allowed: readonly T[]): T {
		const text = this.requiredString(value, label);
		if (!allowed.includes(text as T)) {
			this.fail(label, `"${truncate(text)}" is not one of ${allowed.join(', ')}`, `Choose one of: ${allowed.join(', ')}.`);
		}
		return text as T;
	}

	boolean(value: unknown, label: string): boolean {
		if (typeof value === 'boolean') return value;
		if (value === 'true' || value === 'false') return value === 'true';
		this.fail(label, `it must be true or false, got ${describe(value)}`, `Set "${label}" on or off.`);
	}

	/** A date picker value (or ISO text) read in the workflow's time zone; returned as a UTC DateTime. */
	dateTime(value: unknown, label: string, timezone: string): DateTime {
		const text = this.requiredString(value, label);
		const parsed = DateTime.fromISO(text, { zone: timezone });
		const date = parsed.isValid ? parsed : DateTime.fromSQL(text, { zone: timezone });
		if (!date.isValid) {
			this.fail(label, `"${truncate(text)}" is not a valid date`, 'Pick a date with the date picker, or enter it as 2026-01-31T14:00:00.');
		}
		return date.toUTC();
	}

	/**
	 * A list of texts: an array from an expression, or text split at `separator`. Entries are trimmed and empty ones
	 * dropped; an entry that is not text or a number (an object, a list, true/false) is refused, never stringified.
	 */
	textList(value: unknown, label: string, separator: RegExp = /[\n,]/): string[] {
		if (value === undefined || value === null || value === '') return [];
		if (typeof value === 'string' || typeof value === 'number') return toList(String(value).split(separator));
		if (!Array.isArray(value)) this.fail(label, `it must be text or a list, got ${describe(value)}`, `Enter "${label}" one per line, or as a list from an expression.`);
		value.forEach((entry, i) => {
			if (typeof entry !== 'string' && typeof entry !== 'number') {
				this.fail(label, `entry ${i + 1} must be text, got ${describe(entry)}`, `Make every entry of "${label}" a piece of text.`);
			}
		});
		return toList(value);
	}

	/** Start must be before end, e.g. a reporting window. */
	range(start: DateTime, end: DateTime, startLabel: string, endLabel: string): void {
		if (start >= end) {
			this.fail(endLabel, `it must be after "${startLabel}"`, `Choose a "${endLabel}" later than the "${startLabel}".`);
		}
	}
}

/** Where the first C0 control character or DEL stands (-1: none): never part of a URL or a header value we send. */
export function controlCharacterAt(text: string): number {
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x20 || code === 0x7f) return i;
	}
	return -1;
}

export function toList(value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const entries = Array.isArray(value) ? value : String(value).split(/[\n,]/);
	return entries.map((entry) => String(entry).trim()).filter((entry) => entry.length > 0);
}

/** `yyyy-MM-dd HH:mm:ss` in UTC, the format the platform's analytics and bandwidth endpoints read. */
export function toServiceUtc(date: DateTime): string {
	return date.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
}

function rangeText(range: { min?: number; max?: number }): string {
	if (range.min !== undefined && range.max !== undefined) return ` from ${range.min} to ${range.max}`;
	if (range.min !== undefined) return ` of at least ${range.min}`;
	if (range.max !== undefined) return ` of at most ${range.max}`;
	return '';
}

function truncate(text: string, max = 80): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describe(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'nothing';
	if (typeof value === 'string') return `"${truncate(value)}"`;
	if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
	return String(value);
}
