/**
 * The page fetch's parameters as the fetch host reads them (public facts, "Token page fetch" and "Page fetch, second
 * form"), in either form, checked by the interface's bounds; and what a fetch costs.
 */
import type { SimReply } from '../core/http';
import { hashString } from '../core/random';
import { errorReply } from './errors';

/** The service's page timeout when none is sent (its own clients send 30). */
export const DEFAULT_FETCH_TIMEOUT_SECONDS = 30;


/** The query of one fetch, checked. */
export interface FetchQuery {
	url: string;
	timeout: number;
	geoCode?: string;
	browserRendering: boolean;
	waitForSelector?: string;
	homePage: boolean;
	blockResources: boolean;
	maxRetries: number;
	tokenCap?: number;
	/** The vendor node's additions (public facts, "Page fetch, second form"); each absent unless sent. */
	proxyCountry?: string;
	html: boolean;
	markdown: boolean;
	screenshot?: 'full' | 'top';
	waitUntil?: string;
	returnCookie: boolean;
	super: boolean;
	/** What the request set of html, markdown, screenshot and returnCookie: any of them asks for the JSON answer. */
	asksContent: boolean;
}

type Parsed = { query: FetchQuery } | { refused: SimReply };

const refuse = (message: string): Parsed => ({ refused: errorReply(400, message) });

/** An integer query parameter in `[min, max]`, or the message naming it; undefined when absent. */
function integerParam(params: URLSearchParams, name: string, min: number, max: number): number | string | undefined {
	const raw = params.get(name);
	if (raw === null) return undefined;
	const value = Number(raw);
	return /^-?\d+$/.test(raw.trim()) && value >= min && value <= max ? value : `${name} must be an integer from ${min} to ${max}`;
}

function booleanParam(params: URLSearchParams, name: string, absent = false): boolean | string {
	const raw = params.get(name);
	if (raw === null) return absent;
	return raw === 'true' || raw === 'false' ? raw === 'true' : `${name} must be true or false`;
}

/** A choice among `allowed`, or the message naming it; undefined when absent. */
function choiceParam<T extends string>(params: URLSearchParams, name: string, allowed: readonly T[]): T | string | undefined {
	const raw = params.get(name);
	if (raw === null) return undefined;
	return (allowed as readonly string[]).includes(raw) ? (raw as T) : `${name} must be one of ${allowed.join(', ')}`;
}

/**
 * The fetch's parameters in either form: GET with everything in the query, or POST (the vendor's n8n node 3.0.5) with
 * `{url, maxRetries, tokenCap, homePage}` in a JSON body and the rest in the query; a body field wins over the query.
 */
export function fetchParams(query: URLSearchParams, body: unknown): URLSearchParams {
	const params = new URLSearchParams(query);
	if (body && typeof body === 'object' && !Array.isArray(body)) {
		for (const [key, value] of Object.entries(body)) if (value !== undefined && value !== null) params.set(key, String(value));
	}
	return params;
}

/** Why a URL is refused, or undefined when it is a valid http(s) URL. */
function urlRefusal(url: string | null): string | undefined {
	if (url === null || url.trim() === '') return 'url is required';
	try {
		const { protocol } = new URL(url);
		return protocol === 'http:' || protocol === 'https:' ? undefined : 'url must be a valid http or https URL';
	} catch {
		return 'url must be a valid http or https URL';
	}
}

/** The texts checked: two-letter countries and a selector of 1 to 1000 characters, or the first refusal. */
function textParams(params: URLSearchParams): { geoCode?: string; proxyCountry?: string; waitForSelector?: string } | string {
	const texts = { geoCode: params.get('geoCode') ?? undefined, proxyCountry: params.get('proxyCountry') ?? undefined, waitForSelector: params.get('waitForSelector') ?? undefined };
	for (const name of ['geoCode', 'proxyCountry'] as const) {
		const value = texts[name];
		if (value !== undefined && !/^[a-zA-Z]{2}$/.test(value)) return `${name} must be a two-letter country code`;
	}
	const selector = texts.waitForSelector;
	if (selector !== undefined && (selector.length === 0 || selector.length > 1000)) return 'waitForSelector must be 1 to 1000 characters';
	return texts;
}

/** A refusal among checked values: every message says what the parameter must be, and no valid value does. */
const refusalIn = (values: object): string | undefined => Object.values(values).find((value): value is string => typeof value === 'string' && value.includes(' must '));

/** The interface's bounds (section A, the same fields at the gateway); the first field that breaks one is named. */
export function parseFetchQuery(params: URLSearchParams): Parsed {
	const url = params.get('url');
	const badUrl = urlRefusal(url);
	if (badUrl) return refuse(badUrl);
	const numbers = {
		timeout: integerParam(params, 'timeout', 1, 300),
		maxRetries: integerParam(params, 'maxRetries', 0, 10),
		tokenCap: integerParam(params, 'tokenCap', 1, 10000),
	};
	const flags = {
		browserRendering: booleanParam(params, 'browserRendering'),
		homePage: booleanParam(params, 'homePage'),
		blockResources: booleanParam(params, 'blockResources'),
		html: booleanParam(params, 'html', true),
		markdown: booleanParam(params, 'markdown'),
		returnCookie: booleanParam(params, 'returnCookie'),
		super: booleanParam(params, 'super'),
	};
	const choices = {
		screenshot: choiceParam(params, 'screenshot', ['full', 'top'] as const),
		waitUntil: choiceParam(params, 'waitUntil', ['domcontentloaded', 'load', 'networkidle'] as const),
	};
	const texts = textParams(params);
	const said = refusalIn(numbers) ?? refusalIn(flags) ?? refusalIn(choices) ?? (typeof texts === 'string' ? texts : undefined);
	if (said || typeof texts === 'string') return refuse(said ?? String(texts));
	return {
		query: {
			url: url as string,
			timeout: (numbers.timeout as number | undefined) ?? DEFAULT_FETCH_TIMEOUT_SECONDS,
			...texts,
			...(flags as Record<keyof typeof flags, boolean>),
			maxRetries: (numbers.maxRetries as number | undefined) ?? 3,
			tokenCap: numbers.tokenCap as number | undefined,
			screenshot: choices.screenshot as FetchQuery['screenshot'],
			waitUntil: choices.waitUntil,
			asksContent: ['html', 'markdown', 'screenshot', 'returnCookie'].some((name) => params.has(name)),
		},
	};
}

/**
 * Tokens and seconds a fetch takes: a browser costs five times a plain request, the home page visit one more, a
 * screenshot two more, Super Mode (real devices, always a browser) five more.
 */
export function fetchCost(query: FetchQuery): { tokens: number; runtime: number } {
	const n = hashString(`fetch|${query.url}`);
	const tokens = (1 + (n % 4)) * (query.browserRendering || query.super ? 5 : 1) + (query.homePage ? 1 : 0) + (query.screenshot ? 2 : 0) + (query.super ? 5 : 0);
	const runtime = 0.3 + (n % 1700) / 1000 + (query.browserRendering ? 2 : 0) + (query.homePage ? 0.5 : 0);
	return { tokens: query.tokenCap === undefined ? tokens : Math.min(tokens, query.tokenCap), runtime: Math.round(runtime * 1000) / 1000 };
}
