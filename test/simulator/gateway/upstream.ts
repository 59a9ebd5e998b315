/**
 * The gateway's upstream page fetch (the browser-rendering scraper behind scraperAPI), simulated deterministically:
 * the same URL and options always give the same page, Markdown, screenshot pixels and numbers, so tests can
 * compare outputs across runs. Markers in the URL select failure modes; see README.md. The search upstream is
 * `webSearch.ts`.
 */
import { SeededRandom } from '../core/random';
import { charsetPageText, charsetPhrase } from '../platform/fetchPages';
import { buildPage, renderHtml, renderMarkdown } from './page';
import { renderScreenshot } from './screenshot';
import type { FetchRequest } from './validation';

/** Upstream defaults applied when the caller omits a field (the interface leaves them to "the upstream"). */
export const UPSTREAM_DEFAULTS = {
	html: true,
	markdown: true,
	screenshot: true,
	proxyCountry: 'us',
	maxRetries: 2,
	timeout: 30,
	waitUntil: 'load',
	/** Real-time delay of a `sim-slow` URL without an explicit `sim-slow-<ms>`. */
	slowDelayMs: 5_000,
} as const;

export interface FetchData {
	html: string;
	markdown: string;
	screenshot: string | null;
	runtime: number;
	token_usage: number;
	retry_count: number;
	error: string | null;
}

interface FetchOutcome {
	ok: boolean;
	data: FetchData;
	/** What the gateway forwarded upstream: the supplied optional settings only, plus geoCode. */
	forwarded: Record<string, unknown>;
	/** Real-time delay the simulator applies before answering (after settlement). */
	delayMs: number;
}

export interface SimulateFetchOptions {
	/** Grow every screenshot to this many bytes (valid JPEG, COM padding), for memory benchmarks. */
	screenshotBytes?: number;
	/** Real-time delay added to every answer (after settlement). */
	upstreamDelayMs?: number;
}

/** Delay requested by a `sim-slow` or `sim-slow-<ms>` marker, or 0. */
export function slowMarkerDelay(url: string): number {
	const match = /sim-slow(?:-(\d+))?/i.exec(url);
	if (!match) return 0;
	return match[1] !== undefined ? Number(match[1]) : UPSTREAM_DEFAULTS.slowDelayMs;
}

/** What goes upstream: url and geoCode, plus only the optional settings the caller supplied. */
function forwardedOf(request: FetchRequest, proxyCountry: string): Record<string, unknown> {
	const forwarded: Record<string, unknown> = { url: request.url, geoCode: proxyCountry };
	for (const key of [
		'html', 'markdown', 'screenshot', 'maxRetries', 'timeout', 'blockResources', 'warmStart', 'returnCookie', 'super',
		'tokenCap', 'waitForSelector', 'waitUntil',
	] as const) {
		if (request[key] !== undefined) forwarded[key] = request[key];
	}
	return forwarded;
}

/** The attempts the upstream makes (markers select failures), what they cost and take, and the final error if any. */
function attemptsOf(request: FetchRequest, random: SeededRandom, wantScreenshot: boolean): { attempts: number; tokensPerAttempt: number; runtime: number; error: string | null } {
	const maxRetries = request.maxRetries ?? UPSTREAM_DEFAULTS.maxRetries;
	const timeout = request.timeout ?? UPSTREAM_DEFAULTS.timeout;
	const lowerUrl = request.url.toLowerCase();
	// Cost per attempt in plan tokens; tokenCap limits how many attempts (retries) the upstream may spend.
	const tokensPerAttempt = 1 + (wantScreenshot ? 1 : 0) + (request.super ? 5 : 0);
	const attemptBudget = request.tokenCap !== undefined ? Math.max(1, Math.floor(request.tokenCap / tokensPerAttempt)) : Infinity;
	const allowedAttempts = Math.min(1 + maxRetries, attemptBudget);

	let attempts = 1;
	let error: string | null = null;
	let runtime = 1.2 + random.next() * 2.5;
	if (wantScreenshot) runtime += 0.6;
	if (request.warmStart) runtime += 0.9;
	if (request.super) runtime += 1.5;
	if (request.blockResources) runtime *= 0.8;

	if (lowerUrl.includes('sim-timeout')) {
		attempts = allowedAttempts;
		runtime = timeout * attempts + random.next();
		error = `Navigation timeout of ${timeout * 1000} ms exceeded (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
	} else if (lowerUrl.includes('sim-fail')) {
		attempts = allowedAttempts;
		runtime += attempts - 1;
		error = `Upstream request failed: target answered HTTP 502 Bad Gateway (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
	} else if (lowerUrl.includes('sim-flaky')) {
		// The first two attempts fail; the third succeeds when retries and tokenCap allow it.
		attempts = Math.min(3, allowedAttempts);
		runtime += attempts - 1;
		if (attempts < 3) error = `Upstream request failed: connection reset by target (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
	}
	return { attempts, tokensPerAttempt, runtime, error };
}

/** Runs the simulated upstream fetch for an accepted (validated and paid) request. */
export function simulateFetch(request: FetchRequest, options: SimulateFetchOptions = {}): FetchOutcome {
	const proxyCountry = request.proxyCountry ?? UPSTREAM_DEFAULTS.proxyCountry;
	const forwarded = forwardedOf(request, proxyCountry);
	const wantScreenshot = request.screenshot ?? UPSTREAM_DEFAULTS.screenshot;
	const random = new SeededRandom(`fetch:${request.url}|${proxyCountry.toLowerCase()}`);
	const { attempts, tokensPerAttempt, runtime, error } = attemptsOf(request, random, wantScreenshot);

	const delayMs = (options.upstreamDelayMs ?? 0) + slowMarkerDelay(request.url);
	const base = { runtime: Math.round(runtime * 1000) / 1000, token_usage: attempts * tokensPerAttempt, retry_count: attempts - 1 };
	if (error !== null) {
		return { ok: false, data: { html: '', markdown: '', screenshot: null, ...base, error }, forwarded, delayMs };
	}
	const page = buildPage(request.url, proxyCountry);
	// A page in another charset (the platform's fake web, `sim-charset-…`): the browser upstream reads it in its own
	// charset, so the JSON answer carries it as text.
	const declared = { html: charsetPageText(request.url, 200), markdown: charsetPhrase(request.url) };
	return {
		ok: true,
		data: {
			html: (request.html ?? UPSTREAM_DEFAULTS.html) ? (declared.html ?? renderHtml(page)) : '',
			markdown: (request.markdown ?? UPSTREAM_DEFAULTS.markdown) ? (declared.markdown ?? renderMarkdown(page)) : '',
			screenshot: wantScreenshot ? renderScreenshot(page, options.screenshotBytes).toString('base64') : null,
			...base,
			error: null,
		},
		forwarded,
		delayMs,
	};
}
