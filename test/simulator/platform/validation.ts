/**
 * Validation of the platform's JSON bodies: every invalid field is collected (`Issues`) so one 422 names them all.
 * Query parameters and dates: `query.ts`.
 */
import type { SimRequest } from '../core/http';
import type { ValidationIssue } from './types';

/** Collects every invalid field of one request, so a 422 names them all at once. */
export class Issues {
	readonly list: ValidationIssue[] = [];

	add(field: string, rule: string, message: string): void {
		this.list.push({ field, rule, message });
	}

	get ok(): boolean {
		return this.list.length === 0;
	}
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value);
}

export function isHttpUrl(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
	} catch {
		return false;
	}
}

function isPresent(value: unknown): boolean {
	return value !== undefined && value !== null && value !== '';
}

/**
 * The JSON body as an object. Invalid JSON and non-object bodies are validation failures too (a 422 naming
 * `body`); an empty body reads as `{}` so the required fields are reported.
 */
export function bodyObject(req: SimRequest, issues: Issues): Record<string, unknown> {
	if (req.bodyIsInvalidJson) {
		issues.add('body', 'isJson', 'body must be valid JSON');
		return {};
	}
	if (req.body === undefined) return {};
	if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
		issues.add('body', 'isObject', 'body must be a JSON object');
		return {};
	}
	return req.body as Record<string, unknown>;
}

export function requireString(issues: Issues, source: Record<string, unknown>, field: string): string | undefined {
	const value = source[field];
	if (!isPresent(value)) {
		issues.add(field, 'required', `${field} is required`);
		return undefined;
	}
	if (typeof value !== 'string') {
		issues.add(field, 'isString', `${field} must be a string`);
		return undefined;
	}
	if (value.trim() === '') {
		issues.add(field, 'required', `${field} is required`);
		return undefined;
	}
	return value;
}

export function requireUuid(issues: Issues, source: Record<string, unknown>, field: string): string | undefined {
	const value = requireString(issues, source, field);
	if (value === undefined) return undefined;
	if (!isUuid(value)) {
		issues.add(field, 'isUuid', `${field} must be a UUID`);
		return undefined;
	}
	return value;
}

export function requireHttpUrl(issues: Issues, source: Record<string, unknown>, field: string): string | undefined {
	const value = requireString(issues, source, field);
	if (value === undefined) return undefined;
	if (!isHttpUrl(value)) {
		issues.add(field, 'isUrl', `${field} must be an http(s) URL`);
		return undefined;
	}
	return value;
}

export function optionalEnum<T extends string>(
	issues: Issues,
	source: Record<string, unknown>,
	field: string,
	allowed: readonly T[],
): T | undefined {
	const value = source[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		issues.add(field, 'isIn', `${field} must be one of: ${allowed.join(', ')}`);
		return undefined;
	}
	return value as T;
}

export function optionalPattern(
	issues: Issues,
	source: Record<string, unknown>,
	field: string,
	pattern: RegExp,
	description: string,
): string | undefined {
	const value = source[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string' || !pattern.test(value)) {
		issues.add(field, 'matches', `${field} must be ${description}`);
		return undefined;
	}
	return value;
}

/** An optional JSON number that must be a whole number of at least 1. */
export function optionalPositiveInteger(
	issues: Issues,
	source: Record<string, unknown>,
	field: string,
): number | undefined {
	const value = source[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
		issues.add(field, 'isPositiveInteger', `${field} must be a positive integer`);
		return undefined;
	}
	return value;
}

/** An optional JSON number that must be a whole number from `min` to `max`. */
export function optionalIntegerInRange(
	issues: Issues,
	source: Record<string, unknown>,
	field: string,
	min: number,
	max: number,
): number | undefined {
	const value = source[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		issues.add(field, 'isIntInRange', `${field} must be an integer from ${min} to ${max}`);
		return undefined;
	}
	return value;
}

/** An optional string that must compile as a regular expression. */
export function optionalRegex(issues: Issues, source: Record<string, unknown>, field: string): RegExp | undefined {
	const value = source[field];
	if (value === undefined || value === null || value === '') return undefined;
	if (typeof value !== 'string') {
		issues.add(field, 'isString', `${field} must be a string`);
		return undefined;
	}
	try {
		return new RegExp(value);
	} catch {
		issues.add(field, 'isRegex', `${field} must be a valid regular expression`);
		return undefined;
	}
}

/** A required array of http(s) URL strings with at least one entry; each bad entry is named by index. */
export function requireUrlArray(issues: Issues, source: Record<string, unknown>, field: string): string[] | undefined {
	const value = source[field];
	if (value === undefined || value === null) {
		issues.add(field, 'required', `${field} is required`);
		return undefined;
	}
	if (!Array.isArray(value)) {
		issues.add(field, 'isArray', `${field} must be an array of URL strings`);
		return undefined;
	}
	if (value.length === 0) {
		issues.add(field, 'arrayNotEmpty', `${field} must contain at least one URL`);
		return undefined;
	}
	let ok = true;
	value.forEach((entry: unknown, i) => {
		if (!isHttpUrl(entry)) {
			issues.add(`${field}[${i}]`, 'isUrl', `${field}[${i}] must be an http(s) URL`);
			ok = false;
		}
	});
	return ok ? (value as string[]) : undefined;
}
