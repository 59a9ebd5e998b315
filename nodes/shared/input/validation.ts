import { DateTime } from 'luxon';
import type { INode } from 'n8n-workflow';

import { nodeOperationError, refusal } from '../execution/errors';
import { readHttpUrl, shownUrl, urlHostProblem } from './urlRules';

/**
 * Input rules from the service interface, checked before any request is sent. Each failure names the
 * parameter by its display name and says how to fix it.
 */
export class InputValidator {
	constructor(
		private readonly node: INode,
		private readonly itemIndex: number,
		/** The workflow's time zone, in which dates without one are read. */
		private readonly timezone = 'UTC',
	) {}

	fail(label: string, rule: string, fix: string): never {
		throw refusal(nodeOperationError(this.node, `Invalid '${label}': ${rule}`, { itemIndex: this.itemIndex, description: fix }));
	}

	requiredString(value: unknown, label: string): string {
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
			this.fail(label, 'it is required', `Enter a value for '${label}'.`);
		}
		if (typeof value !== 'string' && typeof value !== 'number') {
			this.fail(label, `it must be text, got ${describe(value)}`, `Enter '${label}' as text.`);
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
		const read = readHttpUrl(text);
		if (!read.ok) {
			if (read.broken === 'spelling') this.fail(label, `"${shownUrl(text)}" ${read.problem.message}`, read.problem.fix);
			if (read.broken === 'parse') this.fail(label, `"${shownUrl(text)}" is not a valid URL`, 'Enter a full address starting with https:// or http://.');
			this.fail(label, `only http and https URLs are allowed, got "${read.protocol}"`, 'Enter an address starting with https:// or http://.');
		}
		const { url } = read;
		const host = urlHostProblem(text, url);
		if (host) this.fail(label, `"${shownUrl(text)}" ${host.message}`, host.fix);
		return url.href;
	}

	/**
	 * A list of URLs from a comma/newline separated string, a JSON list written as text (`["https://…", …]`, as the
	 * service's own n8n node takes it), or an array (e.g. from an expression).
	 */
	httpUrlList(value: unknown, label: string, options: { required: boolean }): string[] {
		const list = toList(this.jsonListText(value, label) ?? value);
		if (options.required && list.length === 0) {
			this.fail(label, 'at least one URL is required', `Enter one or more URLs in '${label}', one per line or separated by commas.`);
		}
		return list.map((entry, i) => this.httpUrl(entry, list.length > 1 ? `${label} (entry ${i + 1})` : label));
	}

	/** The list a text starting with `[` writes in JSON (no URL starts so); undefined for any other value. */
	private jsonListText(value: unknown, label: string): unknown[] | undefined {
		if (typeof value !== 'string' || !value.trim().startsWith('[')) return undefined;
		try {
			// JSON text that starts with `[` and parses is a list.
			return JSON.parse(value) as unknown[];
		} catch (error) {
			this.fail(label, `it starts as a JSON list but is not valid JSON (${(error as Error).message})`, `Write it as ["https://example.com/a", "https://example.com/b"], or one URL per line.`);
		}
	}

	/** An optional two-letter country code (ISO 3166-1 alpha-2, `^[a-zA-Z]{2}$`), as every API of the service takes it. */
	countryCode(value: unknown, label: string): string | undefined {
		const code = this.optionalString(value, label);
		if (code !== undefined && !/^[a-zA-Z]{2}$/.test(code)) {
			this.fail(label, `"${truncate(code, 20)}" is not a two-letter country code (^[a-zA-Z]{2}$)`, 'Enter a two-letter country code such as us, gb or de.');
		}
		return code;
	}

	/**
	 * An optional language code as Google takes it (`en`, `fil`, `pt-BR`, `es-419`, `zh-Hant`): a 2-3 letter language,
	 * then optionally a 2-letter region, a 3-digit region or a 4-letter script (BCP 47's shapes, which Google uses).
	 */
	languageCode(value: unknown, label: string): string | undefined {
		const code = this.optionalString(value, label);
		if (code !== undefined && !/^[a-zA-Z]{2,3}(-([a-zA-Z]{2}|[0-9]{3}|[a-zA-Z]{4}))?$/.test(code)) {
			this.fail(label, `"${truncate(code, 20)}" is not a language code`, 'Enter a language code such as en, de, pt-BR, es-419 or zh-Hant.');
		}
		return code;
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

	/**
	 * An optional duration typed in seconds (fractions allowed, e.g. a response deadline), in whole milliseconds;
	 * undefined when left empty. Out of range is refused, never clamped.
	 */
	optionalSecondsAsMs(value: unknown, label: string, range: { min: number; max: number }): number | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		return Math.round(this.decimal(value, label, range) * 1000);
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
		this.fail(label, `it must be true or false, got ${describe(value)}`, `Set '${label}' on or off.`);
	}

	/** A date picker value (or ISO text) read in the workflow's time zone; returned as a UTC DateTime. */
	dateTime(value: unknown, label: string, timezone = this.timezone): DateTime {
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
		if (!Array.isArray(value)) this.fail(label, `it must be text or a list, got ${describe(value)}`, `Enter '${label}' one per line, or as a list from an expression.`);
		value.forEach((entry, i) => {
			if (typeof entry !== 'string' && typeof entry !== 'number') {
				this.fail(label, `entry ${i + 1} must be text, got ${describe(entry)}`, `Make every entry of '${label}' a piece of text.`);
			}
		});
		return toList(value);
	}

	/** Start must be before end, e.g. a reporting window. */
	range(start: DateTime, end: DateTime, startLabel: string, endLabel: string): void {
		if (start >= end) {
			this.fail(endLabel, `it must be after '${startLabel}'`, `Choose a '${endLabel}' later than the '${startLabel}'.`);
		}
	}
}

export function toList(value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const entries = Array.isArray(value) ? value : String(value).split(/[\n,]/);
	return entries.map((entry) => String(entry).trim()).filter((entry) => entry.length > 0);
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
