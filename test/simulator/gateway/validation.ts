/**
 * Input validation of the gateway simulator (section A), pure functions only. The gateway rejects invalid input
 * with 400 BEFORE asking for payment, so this runs first on every request. The node has its own validation
 * (nothing under nodes/ imports from test/); the simulator's copy is what makes a node bug visible. Which hosts
 * count as public: `publicHost.ts`.
 */
import { HOST_REJECTION_TEXT, classifyHost } from './publicHost';

export interface ValidationIssue {
	/** The request field at fault (`body` when the body itself is not a JSON object). */
	field: string;
	/** Short rule name: required, type, scheme, credentials, ipv6Literal, publicHost, pattern, range, enum, maxLength. */
	rule: string;
	/** Human-readable message naming the field and the rule. */
	message: string;
}

type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Validates the `url` field: public HTTP(S) page URL, no credentials, no local/private host, no IPv6 literal. */
export function checkPublicUrl(value: unknown, field = 'url'): ValidationIssue | undefined {
	if (value === undefined || value === null || value === '') {
		return { field, rule: 'required', message: `${field} is required` };
	}
	if (typeof value !== 'string') return { field, rule: 'type', message: `${field} must be a string` };
	let parsed: URL;
	try {
		parsed = new URL(value.trim());
	} catch {
		return { field, rule: 'type', message: `${field} must be an absolute URL (got ${JSON.stringify(value.slice(0, 200))})` };
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return { field, rule: 'scheme', message: `${field} must use http or https (got ${parsed.protocol.replace(/:$/, '')})` };
	}
	if (parsed.username !== '' || parsed.password !== '') {
		return { field, rule: 'credentials', message: `${field} must not contain credentials (user:password@)` };
	}
	const rejection = classifyHost(parsed.hostname);
	if (rejection === 'ipv6Literal') {
		return { field, rule: 'ipv6Literal', message: `${field} must not use an IPv6 literal host` };
	}
	if (rejection) {
		return {
			field,
			rule: 'publicHost',
			message: `${field} must point to a public host: ${parsed.hostname} is ${HOST_REJECTION_TEXT[rejection]}`,
		};
	}
	return undefined;
}

/** The gateway fetch request (section A) after validation. Optional fields stay undefined unless supplied. */
export interface FetchRequest {
	url: string;
	html?: boolean;
	markdown?: boolean;
	screenshot?: boolean;
	proxyCountry?: string;
	maxRetries?: number;
	timeout?: number;
	blockResources?: boolean;
	warmStart?: boolean;
	returnCookie?: boolean;
	super?: boolean;
	tokenCap?: number;
	waitForSelector?: string;
	waitUntil?: 'domcontentloaded' | 'load' | 'networkidle';
}

/** The webSearch request (public-facts.md: query, country/region, language, page). Defaults applied. */
export interface SearchRequest {
	query: string;
	country: string;
	language: string;
	page: number;
}

const WAIT_UNTIL_VALUES = ['domcontentloaded', 'load', 'networkidle'] as const;
const BOOLEAN_FIELDS = ['html', 'markdown', 'screenshot', 'blockResources', 'warmStart', 'returnCookie', 'super'] as const;
const COUNTRY_PATTERN = /^[a-zA-Z]{2}$/;
const LANGUAGE_PATTERN = /^[a-zA-Z]{2}(-[a-zA-Z]{2})?$/;

function checkInteger(body: Record<string, unknown>, field: string, min: number, max: number): ValidationIssue | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
		return { field, rule: 'range', message: `${field} must be an integer ${range}` };
	}
	return undefined;
}

function checkPattern(body: Record<string, unknown>, field: string, pattern: RegExp): ValidationIssue | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || !pattern.test(value)) {
		return { field, rule: 'pattern', message: `${field} must match ${pattern.source}` };
	}
	return undefined;
}

function asObject(body: unknown): Record<string, unknown> | undefined {
	return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

const BODY_ISSUE: ValidationIssue = { field: 'body', rule: 'type', message: 'the request body must be a JSON object' };

/** Validates a fetch request body (section A table). Unknown properties are ignored. */
export function validateFetchRequest(raw: unknown): ValidationResult<FetchRequest> {
	const body = asObject(raw);
	if (!body) return { ok: false, issues: [BODY_ISSUE] };
	const issues: ValidationIssue[] = [];
	const push = (issue: ValidationIssue | undefined) => issue && issues.push(issue);

	push(checkPublicUrl(body.url));
	for (const field of BOOLEAN_FIELDS) {
		if (body[field] !== undefined && typeof body[field] !== 'boolean') {
			push({ field, rule: 'type', message: `${field} must be a boolean` });
		}
	}
	push(checkPattern(body, 'proxyCountry', COUNTRY_PATTERN));
	push(checkInteger(body, 'maxRetries', 0, 10));
	push(checkInteger(body, 'timeout', 1, 300));
	push(checkInteger(body, 'tokenCap', 1, 10000));
	if (body.waitForSelector !== undefined) {
		if (typeof body.waitForSelector !== 'string') {
			push({ field: 'waitForSelector', rule: 'type', message: 'waitForSelector must be a string' });
		} else if (body.waitForSelector.length > 1000) {
			push({ field: 'waitForSelector', rule: 'maxLength', message: 'waitForSelector must be at most 1000 characters' });
		}
	}
	if (body.waitUntil !== undefined && !(WAIT_UNTIL_VALUES as readonly unknown[]).includes(body.waitUntil)) {
		push({ field: 'waitUntil', rule: 'enum', message: `waitUntil must be one of ${WAIT_UNTIL_VALUES.join(', ')}` });
	}
	if (issues.length > 0) return { ok: false, issues };

	const value: FetchRequest = { url: (body.url as string).trim() };
	for (const field of BOOLEAN_FIELDS) if (body[field] !== undefined) value[field] = body[field] as boolean;
	if (body.proxyCountry !== undefined) value.proxyCountry = body.proxyCountry as string;
	if (body.maxRetries !== undefined) value.maxRetries = body.maxRetries as number;
	if (body.timeout !== undefined) value.timeout = body.timeout as number;
	if (body.tokenCap !== undefined) value.tokenCap = body.tokenCap as number;
	if (body.waitForSelector !== undefined) value.waitForSelector = body.waitForSelector as string;
	if (body.waitUntil !== undefined) value.waitUntil = body.waitUntil as FetchRequest['waitUntil'];
	return { ok: true, value };
}

/** Validates a webSearch request body. Defaults: country `us`, language `en`, page 1. */
export function validateSearchRequest(raw: unknown): ValidationResult<SearchRequest> {
	const body = asObject(raw);
	if (!body) return { ok: false, issues: [BODY_ISSUE] };
	const issues: ValidationIssue[] = [];
	const push = (issue: ValidationIssue | undefined) => issue && issues.push(issue);

	if (body.query === undefined || body.query === null) {
		push({ field: 'query', rule: 'required', message: 'query is required' });
	} else if (typeof body.query !== 'string') {
		push({ field: 'query', rule: 'type', message: 'query must be a string' });
	} else if (body.query.trim() === '') {
		push({ field: 'query', rule: 'required', message: 'query must not be empty' });
	}
	push(checkPattern(body, 'country', COUNTRY_PATTERN));
	push(checkPattern(body, 'language', LANGUAGE_PATTERN));
	push(checkInteger(body, 'page', 1, Number.MAX_SAFE_INTEGER));
	if (issues.length > 0) return { ok: false, issues };

	return {
		ok: true,
		value: {
			query: (body.query as string).trim(),
			country: ((body.country as string | undefined) ?? 'us').toLowerCase(),
			language: (body.language as string | undefined) ?? 'en',
			page: (body.page as number | undefined) ?? 1,
		},
	};
}
