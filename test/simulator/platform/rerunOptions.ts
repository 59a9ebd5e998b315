/**
 * The reruns' options as the vendor's clients send them (public facts, "AI rerun options" and "Manual rerun
 * options"), each checked when sent: every invalid one is listed in the one 422, like the rest of the body. The
 * bounds are ours where the facts give only defaults (a timeout up to 600 s, the manual rerun's own default); the
 * interface's map options keep the create's ranges (Max Depth 0-5, Max Pages 1-1,000, Limit 1-100,000).
 */
import { isHttpUrl, optionalIntegerInRange, optionalPattern, type Issues } from './validation';
import type { MapOptions } from './agents';

/** The options a rerun sent that change its answer (the others are accepted and have no effect here). */
export interface RerunEffects {
	html?: boolean;
	markdown?: boolean;
	screenshot?: boolean;
	returnCookies?: boolean;
}

const COUNTRY = /^[a-zA-Z]{2}$/;

function optionalBoolean(issues: Issues, body: Record<string, unknown>, field: string): boolean | undefined {
	const value = body[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean') issues.add(field, 'isBoolean', `${field} must be a boolean value`);
	return typeof value === 'boolean' ? value : undefined;
}

/** The manual rerun's screenshot is the text "true" or "false" (its clients send it so). */
function screenshotText(issues: Issues, body: Record<string, unknown>): boolean | undefined {
	const value = body.screenshot;
	if (value === undefined || value === null) return undefined;
	if (value !== 'true' && value !== 'false') issues.add('screenshot', 'isIn', 'screenshot must be one of: true, false (as text)');
	return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** `cookies`: a list of `{name, value, domain}`, each name non-empty and each part a string. */
function checkCookies(issues: Issues, body: Record<string, unknown>): void {
	const cookies = body.cookies;
	if (cookies === undefined || cookies === null) return;
	if (!Array.isArray(cookies)) return issues.add('cookies', 'isArray', 'cookies must be an array of {name, value, domain}');
	cookies.forEach((cookie: unknown, i) => {
		const entry = cookie as Record<string, unknown> | null;
		const ok = entry !== null && typeof entry === 'object' && !Array.isArray(entry);
		if (!ok || typeof entry.name !== 'string' || entry.name.trim() === '') issues.add(`cookies.${i}.name`, 'isNotEmpty', `cookies.${i}.name must be a non-empty string`);
		if (ok && typeof entry.value !== 'string') issues.add(`cookies.${i}.value`, 'isString', `cookies.${i}.value must be a string`);
		if (ok && entry.domain !== undefined && typeof entry.domain !== 'string') issues.add(`cookies.${i}.domain`, 'isString', `cookies.${i}.domain must be a string`);
	});
}

/** `paginator`: an object with a non-empty CSS `selector` and, if sent, `maxPages` from 1 to 1,000. */
function checkPaginator(issues: Issues, body: Record<string, unknown>): void {
	const paginator = body.paginator;
	if (paginator === undefined || paginator === null) return;
	if (typeof paginator !== 'object' || Array.isArray(paginator)) return issues.add('paginator', 'isObject', 'paginator must be an object such as {selector, maxPages}');
	const { selector, maxPages } = paginator as Record<string, unknown>;
	if (typeof selector !== 'string' || selector.trim() === '') issues.add('paginator.selector', 'isNotEmpty', 'paginator.selector must be a non-empty string');
	if (maxPages !== undefined && !(typeof maxPages === 'number' && Number.isInteger(maxPages) && maxPages >= 1 && maxPages <= 1000)) {
		issues.add('paginator.maxPages', 'isIntInRange', 'paginator.maxPages must be an integer from 1 to 1000');
	}
}

/** `proxy`: a proxy URL (http, https, socks4 or socks5). Its value is never repeated in a message: it may hold a password. */
function checkProxy(issues: Issues, body: Record<string, unknown>): void {
	const proxy = body.proxy;
	if (proxy === undefined || proxy === null) return;
	const asHttp = typeof proxy === 'string' ? proxy.replace(/^socks[45]:/i, 'http:') : undefined;
	if (!isHttpUrl(asHttp)) issues.add('proxy', 'isUrl', 'proxy must be a proxy URL (http, https, socks4 or socks5)');
}

/** Options both reruns take. */
function common(issues: Issues, body: Record<string, unknown>): RerunEffects {
	optionalIntegerInRange(issues, body, 'maxRetry', 0, 10);
	optionalPattern(issues, body, 'proxyCountry', COUNTRY, 'a two-letter country code');
	optionalBoolean(issues, body, 'bypassProxy');
	optionalBoolean(issues, body, 'stream');
	optionalIntegerInRange(issues, body, 'timeout', 1, 600);
	return { html: optionalBoolean(issues, body, 'html'), markdown: optionalBoolean(issues, body, 'markdown') };
}

/** The AI rerun's options; `maxPages` here is the listing agent's (the map agent's has the same range). */
export function readAiRerunOptions(issues: Issues, body: Record<string, unknown>): RerunEffects {
	const effects = common(issues, body);
	for (const field of ['renderJavascript', 'useHomePage']) optionalBoolean(issues, body, field);
	const selector = body.waitForSelector;
	if (selector !== undefined && !(typeof selector === 'string' && selector.length >= 1 && selector.length <= 1000)) {
		issues.add('waitForSelector', 'isLength', 'waitForSelector must be 1 to 1000 characters');
	}
	return { ...effects, screenshot: optionalBoolean(issues, body, 'screenshot'), returnCookies: optionalBoolean(issues, body, 'returnCookies') };
}

/** The manual rerun's options. */
export function readManualRerunOptions(issues: Issues, body: Record<string, unknown>): RerunEffects {
	const effects = common(issues, body);
	for (const field of ['homePage', 'record']) optionalBoolean(issues, body, field);
	if (body.cookieJar !== undefined && body.cookieJar !== null && typeof body.cookieJar !== 'string') issues.add('cookieJar', 'isString', 'cookieJar must be a string');
	optionalIntegerInRange(issues, body, 'homePageTimeout', 1, 600);
	optionalIntegerInRange(issues, body, 'tokenCap', 0, 10000);
	checkCookies(issues, body);
	checkPaginator(issues, body);
	checkProxy(issues, body);
	return { ...effects, screenshot: screenshotText(issues, body), returnCookies: optionalBoolean(issues, body, 'returnCookie') };
}

/** The map agent's options of an AI rerun, in the create's ranges; only those sent. */
export function readRerunMapOptions(issues: Issues, body: Record<string, unknown>): Partial<MapOptions> {
	const sent: Partial<Record<keyof MapOptions, unknown>> = {
		maxDepth: optionalIntegerInRange(issues, body, 'maxDepth', 0, 5),
		maxPages: optionalIntegerInRange(issues, body, 'maxPages', 1, 1000),
		limit: optionalIntegerInRange(issues, body, 'limit', 1, 100_000),
	};
	return Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined)) as Partial<MapOptions>;
}
