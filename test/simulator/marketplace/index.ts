import { SimClock } from '../core/clock';
import { planConcurrency, type ConcurrencyStats } from '../core/concurrency';
import { RateLimiter } from '../core/ratelimit';
import { SimServer, type SimReply, type SimRequest } from '../core/server';
import { malformedJson, marketplaceErrorBody, notFound, tooManyRequests, unauthorized, validationFailed } from './errors';
import { scrapeJobBoard, type JobBoardTimings } from './jobboard';
import { MarketplaceStore, type RunTimings, type ScraperSpec, type StoredScraper } from './store';
import type { CreateAndRunResponse, MarketplaceAccount, MarketplaceContentType } from './types';
import {
	validateJobBoard,
	validatePaging,
	validatePathId,
	validatePdf,
	validatePortal,
	validateRun,
	validateSearchLeads,
	validateSocialLeads,
	type Validated,
} from './validation';

export * from './types';
export { marketplaceErrorBody } from './errors';
export { CONCURRENCY_BY_PLAN, RETRY_AFTER_CONCURRENCY_SECONDS, type ConcurrencyStats } from '../core/concurrency';
export { FAIL_MARKER, DEFAULT_PDFS_PER_KEYWORD } from './store';
export { FEW_JOBS_MARKER, FEW_JOBS_AVAILABLE, SLOW_JOBS_MARKER, availableJobs } from './jobboard';
export {
	JOB_BOARD_DEFAULTS,
	JOB_BOARD_TIMEOUT_RANGE,
	LAND_SIZES,
	PORTAL_CHANNELS,
	PORTAL_OPTIONS,
	PROPERTY_TYPES,
	RESULTS_PAGING,
	SEARCH_TYPES,
	SENTIMENT_TYPES,
} from './validation';

/** Token of the demo account (user 1). */
export const MARKETPLACE_DEMO_TOKEN = 'mkt_example_demo_token_4f60a8e2c9b7';
/** Token of a second account (user 2): its scrapers and runs are invisible to the demo account and vice versa. */
export const MARKETPLACE_OTHER_USER_TOKEN = 'mkt_example_other_token_9e7b5d3f1a8c';

/** Mutable timings and limits of a running simulator; changes apply to runs started afterwards. */
export interface MarketplaceTimings extends RunTimings, JobBoardTimings {
	/** Requests per token per window. */
	rateLimit: number;
	/** Window length in seconds of simulated time. */
	rateTtl: number;
}

/** Everything `sim.options` holds; mutable while running. */
export interface MarketplaceSettings extends MarketplaceTimings {
	/**
	 * `Content-Type` of every JSON answer (200) of section C. `text/plain` sends the same JSON text labelled
	 * `text/plain; charset=utf-8`, as the vendor's 2024 OpenAPI declares the answers. Errors stay application/json.
	 */
	contentType: MarketplaceContentType;
	/**
	 * Requests in flight at once for every account without its own limit (`setAccountLimits`), instead of its plan's
	 * default (free 10, pro 100, enterprise 100); undefined: the plan's default.
	 */
	concurrencyLimit: number | undefined;
	/** Real-time latency (ms) per route name (`MARKETPLACE_ROUTES`); read when a request arrives. */
	latencyMs: Partial<Record<string, number>>;
}

/** `setAccountLimits` argument. */
export interface MarketplaceAccountLimits {
	/** Requests in flight at once; null goes back to the default (`concurrencyLimit` option, else the plan's). */
	concurrency?: number | null;
}

/** `concurrencyStats` answer: the account's statistics and the concurrency limit now in force for it. */
export interface MarketplaceConcurrencyStats extends ConcurrencyStats {
	limit: number;
}

export const MARKETPLACE_CONTENT_TYPES: readonly MarketplaceContentType[] = ['application/json', 'text/plain'];

export interface MarketplaceSimulatorOptions extends Partial<MarketplaceTimings> {
	/** Default `application/json`; see `MarketplaceSettings.contentType`. */
	contentType?: MarketplaceContentType;
	/** Default: each account's plan default. See `MarketplaceSettings.concurrencyLimit`. */
	concurrencyLimit?: number;
	/** Real-time latency (ms) per route name; default none. */
	latencyMs?: Partial<Record<string, number>>;
	/** Shared simulated clock; a new one when omitted. */
	clock?: SimClock;
	/** Seed of fault injection randomness. */
	seed?: number | string;
}

export const MARKETPLACE_DEFAULT_TIMINGS: Readonly<MarketplaceTimings> = {
	queuedMs: 1_000,
	runMs: 3_000,
	runStaggerMs: 0,
	jobBoardSecondsPerUrl: 5,
	jobBoardSlowSecondsPerUrl: 900,
	jobBoardRealDelayMs: 0,
	rateLimit: 600,
	rateTtl: 60,
};

/** Route names (`METHOD /pattern`) as the request log and fault injection refer to them. */
export const MARKETPLACE_ROUTES = {
	jobBoardScrape: 'POST /api/job-board-scrape',
	portalCreateAndRun: 'POST /api/scrapers/real-estate-portal/create-and-run',
	pdfCreateAndRun: 'POST /api/scrapers/pdf/create-and-run',
	searchLeadsCreateAndRun: 'POST /api/scrapers/leads-generator/search/create-and-run',
	socialLeadsCreateAndRun: 'POST /api/scrapers/leads-generator/social/create-and-run',
	runScraper: 'POST /api/scrapers/:scraper_id/run',
	listResults: 'GET /api/results',
	latestResults: 'GET /api/results/latest/:scraper_id',
	scrapingRunHtml: 'GET /api/scraping-runs/html/:scraping_run_id',
	scrapingRun: 'GET /api/scraping-runs/:id',
	/** Public facts: the account behind the token. */
	account: 'GET /api/account',
} as const;

/** Accounts of the two fixture users; a token added for another user id gets a plain generated one. */
const FIXTURE_ACCOUNTS: Record<number, Omit<MarketplaceAccount, 'id'>> = {
	1: { name: 'Demo User', email: 'demo@example.com', plan: 'pro', created_at: '2024-01-15T09:30:00.000Z' },
	2: { name: 'Other User', email: 'other@example.com', plan: 'free', created_at: '2024-06-02T14:00:00.000Z' },
};

type Authed = (req: SimRequest, userId: number) => SimReply | Promise<SimReply>;

/**
 * Section C of the interface (the marketplace API) on its own loopback port: Bearer auth, per-token rate limit,
 * validation naming each invalid field, scrapers whose runs move queued -> running -> succeeded/failed over
 * simulated time, paged results, run HTML and the synchronous job-board scrape.
 */
export class MarketplaceSimulator {
	readonly server: SimServer;
	readonly clock: SimClock;
	/** Timings, limits and the answers' content type; mutable while running. */
	readonly options: MarketplaceSettings;
	private readonly store: MarketplaceStore;
	private readonly limiter: RateLimiter;
	/** Per-account concurrency limits set by `setAccountLimits`, by user id. */
	private readonly concurrencyLimits = new Map<number, number>();

	constructor(options: MarketplaceSimulatorOptions = {}) {
		this.clock = options.clock ?? new SimClock();
		this.options = {
			...MARKETPLACE_DEFAULT_TIMINGS,
			contentType: options.contentType ?? 'application/json',
			concurrencyLimit: options.concurrencyLimit,
			latencyMs: { ...(options.latencyMs ?? {}) },
		};
		for (const key of Object.keys(MARKETPLACE_DEFAULT_TIMINGS) as Array<keyof MarketplaceTimings>) {
			const value = options[key];
			if (value !== undefined) this.options[key] = value;
		}
		this.server = new SimServer({
			name: 'marketplace',
			clock: this.clock,
			errorBody: marketplaceErrorBody,
			seed: options.seed ?? 'marketplace',
			latencyMs: (route) => this.options.latencyMs?.[route],
		});
		this.store = new MarketplaceStore(this.clock, () => this.options);
		this.store.addToken(MARKETPLACE_DEMO_TOKEN, 1);
		this.store.addToken(MARKETPLACE_OTHER_USER_TOKEN, 2);
		this.limiter = new RateLimiter(() => this.clock.now());
		this.registerRoutes();
	}

	listen(port?: number): Promise<string> {
		return this.server.listen(port);
	}

	close(): Promise<void> {
		return this.server.close();
	}

	get url(): string {
		return this.server.url;
	}

	/** Adds an account token; returns nothing, the token works at once. */
	addToken(token: string, userId: number): void {
		this.store.addToken(token, userId);
	}

	/**
	 * Demo data for the standalone simulator (`cli.ts`, the demo): for the demo account, three scrapers (portal,
	 * PDF, search leads) with finished scraping runs from the last days. Not called by the constructor, so tests
	 * start empty; calling it again adds nothing (until `reset()`).
	 */
	seedDemo(): void {
		this.store.seedDemo(1);
	}

	/** Inserts `count` finished runs (one result each) for the token's user, older than anything created later. */
	seedRuns(token: string, count: number): void {
		const userId = this.store.userFor(token);
		if (userId === undefined) throw new Error('MarketplaceSimulator.seedRuns: unknown token');
		this.store.seedRuns(userId, count);
	}

	setRateLimit(limit: number, ttlSeconds: number): void {
		this.options.rateLimit = limit;
		this.options.rateTtl = ttlSeconds;
		this.limiter.reset();
	}

	/**
	 * Sets the token's account concurrency limit (requests in flight at once, all the account's tokens together);
	 * `null` restores the default (`concurrencyLimit` option, else the plan's).
	 */
	setAccountLimits(token: string, limits: MarketplaceAccountLimits): void {
		const userId = this.requireUser(token, 'setAccountLimits');
		if (limits.concurrency === null) this.concurrencyLimits.delete(userId);
		else if (limits.concurrency !== undefined) this.concurrencyLimits.set(userId, limits.concurrency);
	}

	/**
	 * Concurrency statistics of the token's account: `peak` requests in flight at once and `refused` concurrency 429s
	 * since the last reset, `inFlight` now, and the `limit` in force.
	 */
	concurrencyStats(token: string): MarketplaceConcurrencyStats {
		const userId = this.requireUser(token, 'concurrencyStats');
		return { ...this.server.concurrency.stats(String(userId)), limit: this.concurrencyLimitOf(userId) };
	}

	/** Restarts the concurrency statistics of the token's account, or of every account. */
	resetConcurrencyStats(token?: string): void {
		this.server.concurrency.resetStats(token === undefined ? undefined : String(this.requireUser(token, 'resetConcurrencyStats')));
	}

	/**
	 * Forgets scrapers, runs, rate-limit windows, per-account concurrency limits and statistics, the request log and
	 * faults; tokens and options stay.
	 */
	reset(): void {
		this.store.reset();
		this.limiter.reset();
		this.concurrencyLimits.clear();
		this.server.concurrency.resetStats();
		this.server.log.clear();
		this.server.faults.clear();
	}

	private requireUser(token: string, method: string): number {
		const userId = this.store.userFor(token);
		if (userId === undefined) throw new Error(`MarketplaceSimulator.${method}: unknown token`);
		return userId;
	}

	/** The account's concurrency limit: its own, else the simulator's `concurrencyLimit`, else its plan's. */
	private concurrencyLimitOf(userId: number): number {
		return this.concurrencyLimits.get(userId) ?? this.options.concurrencyLimit ?? planConcurrency(this.account(userId).plan);
	}

	private registerRoutes(): void {
		const s = this.server;
		s.route('POST', '/api/job-board-scrape', this.authed(async (req) => {
			const input = validateJobBoard(req.body);
			if (!input.ok) return validationFailed(input.errors);
			return this.answer(await scrapeJobBoard(input.value, this.options));
		}));
		s.route('POST', '/api/scrapers/real-estate-portal/create-and-run', this.createAndRun(validatePortal, (input) => ({ type: 'real_estate_portal', input })));
		s.route('POST', '/api/scrapers/pdf/create-and-run', this.createAndRun(validatePdf, (input) => ({ type: 'pdf', input })));
		s.route('POST', '/api/scrapers/leads-generator/search/create-and-run', this.createAndRun(validateSearchLeads, (input) => ({ type: 'leads_search', input })));
		s.route('POST', '/api/scrapers/leads-generator/social/create-and-run', this.createAndRun(validateSocialLeads, (input) => ({ type: 'leads_social', input })));

		s.route('POST', '/api/scrapers/:scraper_id/run', this.authed((req, userId) => {
			const input = validateRun(req.params.scraper_id, req.body);
			if (!input.ok) return validationFailed(input.errors);
			const scraper = this.store.scraperOf(userId, input.value.scraper_id);
			if (!scraper) return notFound();
			const run = this.store.startRun(scraper, input.value.urls);
			const now = this.clock.now();
			return this.answer({ data: run.results.map((r) => this.store.runListRecord(r, 'data', now)) });
		}));

		s.route('GET', '/api/results', this.authed((req, userId) => {
			const paging = validatePaging(req.query);
			if (!paging.ok) return validationFailed(paging.errors);
			return this.answer({ data: this.store.listResults(userId, paging.value.page, paging.value.per_page) });
		}));

		s.route('GET', '/api/results/latest/:scraper_id', this.authed((req, userId) => {
			const id = validatePathId('scraper_id', req.params.scraper_id);
			if (!id.ok) return validationFailed(id.errors);
			const scraper = this.store.scraperOf(userId, id.value);
			const run = scraper && this.store.latestRun(scraper.id);
			if (!run) return notFound();
			return this.answer({ data: this.store.scrapingRunRecord(run, 'data').results });
		}));

		s.route('GET', '/api/scraping-runs/html/:scraping_run_id', this.authed((req, userId) => {
			const id = validatePathId('scraping_run_id', req.params.scraping_run_id);
			if (!id.ok) return validationFailed(id.errors);
			const run = this.store.runOf(userId, id.value);
			if (!run) return notFound();
			// Declared as text/plain by the interface, with the JSON object as its text.
			return { status: 200, text: JSON.stringify({ data: this.store.scrapingRunRecord(run, 'html') }) };
		}));

		s.route('GET', '/api/scraping-runs/:id', this.authed((req, userId) => {
			const id = validatePathId('id', req.params.id);
			if (!id.ok) return validationFailed(id.errors);
			const run = this.store.runOf(userId, id.value);
			if (!run) return notFound();
			return this.answer({ data: this.store.scrapingRunRecord(run, 'data') });
		}));

		s.route('GET', '/api/account', this.authed((_req, userId) => this.answer({ data: this.account(userId) })));
	}

	/** A 200 JSON answer, labelled with the configured content type (the body is JSON either way). */
	private answer(body: unknown): SimReply {
		const headers = this.options.contentType === 'text/plain' ? { 'content-type': 'text/plain; charset=utf-8' } : undefined;
		return { status: 200, json: body, headers };
	}

	private account(userId: number): MarketplaceAccount {
		const fixture = FIXTURE_ACCOUNTS[userId] ?? {
			name: `User ${userId}`,
			email: `user${userId}@example.com`,
			plan: 'free',
			created_at: '2025-01-01T00:00:00.000Z',
		};
		return { id: userId, ...fixture };
	}

	/**
	 * Bearer auth (RFC 6750: scheme case-insensitive), then the account's concurrency limit (429 at once; admitted
	 * requests wait the route's latency in flight), then the per-token rate limit, then a malformed-JSON check.
	 */
	private authed(handler: Authed): (req: SimRequest) => SimReply | Promise<SimReply> {
		return async (req) => {
			const header = req.headers.authorization;
			if (header === undefined || header.trim() === '') return unauthorized('missing');
			const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
			if (!match) return unauthorized('missing');
			const token = match[1];
			const userId = this.store.userFor(token);
			if (userId === undefined) return unauthorized('invalid');
			const refused = await req.admit(String(userId), this.concurrencyLimitOf(userId));
			if (refused) return refused;
			const retryAfter = this.limiter.hit(token, this.options.rateLimit, this.options.rateTtl);
			if (retryAfter !== undefined) return tooManyRequests(retryAfter);
			if (req.bodyIsInvalidJson) return malformedJson();
			return handler(req, userId);
		};
	}

	private createAndRun<T>(validate: (body: unknown) => Validated<T>, spec: (input: T) => ScraperSpec): (req: SimRequest) => SimReply | Promise<SimReply> {
		return this.authed((req, userId) => {
			const input = validate(req.body);
			if (!input.ok) return validationFailed(input.errors);
			const scraper: StoredScraper = this.store.createScraper(userId, spec(input.value));
			const run = this.store.startRun(scraper);
			const response: CreateAndRunResponse = {
				message: 'Scraping queued successfully',
				scraper: this.store.scraperObject(scraper),
				results: run.results.map((r) => this.store.runResult(r, scraper)),
			};
			return this.answer(response);
		});
	}
}
