import { SimClock } from '../core/clock';
import { planConcurrency, type ConcurrencyStats } from '../core/concurrency';
import { RateLimiter } from '../core/ratelimit';
import { SimSection, SimServer, type SimReply, type SimRequest } from '../core/server';
import { malformedJson, marketplaceErrorBody, notFound, tooManyRequests, unauthorized, validationFailed } from './errors';
import { scrapeJobBoard, type JobBoardTimings } from './jobboard';
import { attempt, CronError, parseCron, resolveTimeZone } from './cron';
import { MarketplaceStore, SCHEDULE_CATCH_UP_LIMIT, type RunTimings, type ScraperSpec, type StoredScraper } from './store';
import type { CreateAndRunResponse, MarketplaceAccount, MarketplaceContentType, ScraperConfiguration, ScraperObject, ScraperType } from './types';
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
export { FAIL_MARKER, DEFAULT_PDFS_PER_KEYWORD, DEMO_SCHEDULE, SCHEDULE_CATCH_UP_LIMIT } from './store';
export { CronError, cronFirings, nextCronFiring, parseCron, resolveTimeZone, type CronExpression } from './cron';
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

/** Options of `scheduleScraper` (and of `createScheduledScraper`). */
export interface ScheduleOptions {
	/** IANA time zone the cron expression is read in (`cron_timezone`); default `UTC`. */
	timezone?: string;
	/**
	 * Every `failEvery`-th run this schedule creates (1-based count since the schedule was turned on: runs N, 2N, ...)
	 * fails: every result of it ends `failed`. 1 fails them all. Default: none forced (the `sim-fail` marker in the
	 * scraper's name or inputs still fails runs, scheduled or not).
	 */
	failEvery?: number;
}

/** `createScheduledScraper` argument: a create-and-run body of the given kind, and the schedule. */
export interface ScheduledScraperSpec extends ScheduleOptions {
	/** `real_estate_portal`, `pdf`, `leads_search` (search-engine leads) or `leads_social` (social-platform leads). */
	type: ScraperType;
	/** The body the kind's create-and-run endpoint takes (same validation and defaults). */
	input: Record<string, unknown>;
	/** 5-field cron expression (see README, "Schedules"). */
	cron: string;
}

/** What the schedule control methods answer: the scraper as the API would show it, plus the simulator's counters. */
export interface MarketplaceScraperInfo {
	/** The scraper object (`scraper` of a create response): `scheduled`, `schedule`. */
	scraper: ScraperObject;
	/** The nested configuration: `scheduled`, `cron`, `cron_timezone`, `cron_minutes` ... `cron_day_of_week`. */
	configuration: ScraperConfiguration;
	/** Simulator bookkeeping of the schedule; null when unscheduled. */
	schedule: {
		/** When the schedule was turned on (ISO); only firings strictly after it make runs. */
		since: string;
		/** Scheduled runs created so far. */
		runsCreated: number;
		/** Firings skipped because a catch-up had more than `scheduleCatchUpLimit` due. */
		firingsSkipped: number;
		failEvery: number | null;
	} | null;
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
	scheduleCatchUpLimit: SCHEDULE_CATCH_UP_LIMIT,
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
	/** Public facts (section C reads and deletes): the scrapers of the account, one scraper. */
	listScrapers: 'GET /api/scrapers',
	scraper: 'GET /api/scrapers/:id',
	/** Public facts: the newest scraping run of a scraper. */
	latestScrapingRun: 'GET /api/scraping-runs/latest/:scraper_id',
	/** Public facts: deletes a scraping run with its results. */
	deleteScrapingRun: 'DELETE /api/scraping-runs/:id',
	/** Public facts: one result, and its delete. */
	result: 'GET /api/results/:id',
	deleteResult: 'DELETE /api/results/:id',
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
 * simulated time, paged scrapers and results, reads and deletes of runs and results, run HTML and the synchronous
 * job-board scrape.
 */
export class MarketplaceSimulator extends SimSection {
	readonly server: SimServer;
	readonly clock: SimClock;
	/** Timings, limits and the answers' content type; mutable while running. */
	readonly options: MarketplaceSettings;
	private readonly store: MarketplaceStore;
	private readonly limiter: RateLimiter;
	/** Per-account concurrency limits set by `setAccountLimits`, by user id. */
	private readonly concurrencyLimits = new Map<number, number>();

	constructor(options: MarketplaceSimulatorOptions = {}) {
		super();
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

	/** Adds an account token; returns nothing, the token works at once. */
	addToken(token: string, userId: number): void {
		this.store.addToken(token, userId);
	}

	/**
	 * Demo data for the standalone simulator (`cli.ts`, the demo): for the demo account, three scrapers (portal,
	 * PDF, search leads) with finished scraping runs from the last days, the portal one (`Inner-city rentals`)
	 * scheduled every 10 minutes (`DEMO_SCHEDULE`) from now on, so new runs appear while the demo runs. Not called by
	 * the constructor, so tests start empty; calling it again adds nothing (until `reset()`).
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

	/**
	 * Turns a schedule on for the token's existing scraper (or replaces its schedule), from now on: it makes a
	 * scraping run by itself at each firing of `cron` strictly after now, exactly like POST `/api/scrapers/{id}/run`
	 * without URLs, with `created_at` the firing time (see README, "Schedules"). Throws CronError for an invalid
	 * expression or time zone, Error for an unknown token or scraper (or another account's).
	 */
	scheduleScraper(token: string, scraperId: number, cron: string, options: ScheduleOptions = {}): MarketplaceScraperInfo {
		const method = 'scheduleScraper';
		const userId = this.requireUser(token, method);
		const { expression, timezone, failEvery } = this.checkSchedule(method, cron, options);
		const scraper = this.requireScraper(userId, scraperId, method);
		this.store.schedule(scraper, expression, timezone, failEvery);
		return this.scraperInfoOf(scraper);
	}

	/**
	 * Creates a scraper of the token's account from a create-and-run body (validated as the endpoint does) with a
	 * schedule, without running it now: its first run is its first firing. Throws CronError for an invalid schedule,
	 * Error naming every invalid field for an invalid body.
	 */
	createScheduledScraper(token: string, spec: ScheduledScraperSpec): MarketplaceScraperInfo {
		const method = 'createScheduledScraper';
		const userId = this.requireUser(token, method);
		const { expression, timezone, failEvery } = this.checkSchedule(method, spec.cron, spec);
		const scraperSpec = this.validSpec(method, spec.type, spec.input);
		const scraper = this.store.createScraper(userId, scraperSpec);
		this.store.schedule(scraper, expression, timezone, failEvery);
		return this.scraperInfoOf(scraper);
	}

	/**
	 * Turns the scraper's schedule off: runs already due (firing <= now) are created first, none after. The
	 * configuration goes back to the unscheduled defaults (`scheduled` false, `cron` null, parts `*`, `UTC`).
	 * Unscheduling an unscheduled scraper changes nothing.
	 */
	unscheduleScraper(token: string, scraperId: number): MarketplaceScraperInfo {
		const method = 'unscheduleScraper';
		const scraper = this.requireScraper(this.requireUser(token, method), scraperId, method);
		this.store.unschedule(scraper);
		return this.scraperInfoOf(scraper);
	}

	/** The token's scraper as the API would show it (scraper object, configuration) and its schedule's counters. */
	scraperInfo(token: string, scraperId: number): MarketplaceScraperInfo {
		const method = 'scraperInfo';
		return this.scraperInfoOf(this.requireScraper(this.requireUser(token, method), scraperId, method));
	}

	private checkSchedule(method: string, cron: string, options: ScheduleOptions) {
		const expression = named(method, () => parseCron(cron));
		const timezone = named(method, () => resolveTimeZone(options.timezone ?? 'UTC'));
		const failEvery = options.failEvery;
		if (failEvery !== undefined && !(Number.isInteger(failEvery) && failEvery >= 1)) {
			throw new Error(`MarketplaceSimulator.${method}: failEvery must be an integer >= 1, got ${String(failEvery)}`);
		}
		return { expression, timezone, failEvery };
	}

	private validSpec(method: string, type: ScraperType, input: Record<string, unknown>): ScraperSpec {
		const fail = (errors: Array<{ field: string; message: string }>): never => {
			throw new Error(`MarketplaceSimulator.${method}: invalid input: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
		};
		switch (type) {
			case 'real_estate_portal': {
				const v = validatePortal(input);
				return v.ok ? { type, input: v.value } : fail(v.errors);
			}
			case 'pdf': {
				const v = validatePdf(input);
				return v.ok ? { type, input: v.value } : fail(v.errors);
			}
			case 'leads_search': {
				const v = validateSearchLeads(input);
				return v.ok ? { type, input: v.value } : fail(v.errors);
			}
			case 'leads_social': {
				const v = validateSocialLeads(input);
				return v.ok ? { type, input: v.value } : fail(v.errors);
			}
			default:
				throw new Error(`MarketplaceSimulator.${method}: type must be real_estate_portal, pdf, leads_search or leads_social, got ${String(type)}`);
		}
	}

	private requireScraper(userId: number, scraperId: number, method: string): StoredScraper {
		const scraper = this.store.scraperOf(userId, scraperId);
		if (!scraper) throw new Error(`MarketplaceSimulator.${method}: no scraper ${scraperId} for this token's account`);
		return scraper;
	}

	private scraperInfoOf(scraper: StoredScraper): MarketplaceScraperInfo {
		this.store.materialize();
		const schedule = scraper.schedule;
		return {
			scraper: this.store.scraperObject(scraper),
			configuration: this.store.configuration(scraper),
			schedule: schedule
				? {
						since: new Date(schedule.since).toISOString(),
						runsCreated: schedule.runsCreated,
						firingsSkipped: schedule.firingsSkipped,
						failEvery: schedule.failEvery ?? null,
					}
				: null,
		};
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

		s.route('GET', '/api/results/:id', this.authed((req, userId) => {
			const id = validatePathId('id', req.params.id);
			if (!id.ok) return validationFailed(id.errors);
			const result = this.store.resultOf(userId, id.value);
			if (!result) return notFound();
			return this.answer({ data: this.store.runListRecord(result, 'data') });
		}));

		s.route('DELETE', '/api/results/:id', this.authed((req, userId) => {
			const id = validatePathId('id', req.params.id);
			if (!id.ok) return validationFailed(id.errors);
			const result = this.store.resultOf(userId, id.value);
			if (!result) return notFound();
			this.store.deleteResult(result);
			return this.answer({ deleted: true });
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

		s.route('DELETE', '/api/scraping-runs/:id', this.authed((req, userId) => {
			const id = validatePathId('id', req.params.id);
			if (!id.ok) return validationFailed(id.errors);
			const run = this.store.runOf(userId, id.value);
			if (!run) return notFound();
			this.store.deleteRun(run);
			return this.answer({ deleted: true });
		}));

		s.route('GET', '/api/scraping-runs/latest/:scraper_id', this.authed((req, userId) => {
			const id = validatePathId('scraper_id', req.params.scraper_id);
			if (!id.ok) return validationFailed(id.errors);
			const scraper = this.store.scraperOf(userId, id.value);
			const run = scraper && this.store.latestRun(scraper.id);
			if (!run) return notFound();
			return this.answer({ data: this.store.scrapingRunRecord(run, 'data') });
		}));

		s.route('GET', '/api/scrapers', this.authed((req, userId) => {
			const paging = validatePaging(req.query);
			if (!paging.ok) return validationFailed(paging.errors);
			// Paged as the results list is: `{data}` alone, no total; a page shorter than `per_page` is the last.
			return this.answer({ data: this.store.listScrapers(userId, paging.value.page, paging.value.per_page) });
		}));

		s.route('GET', '/api/scrapers/:id', this.authed((req, userId) => {
			const id = validatePathId('id', req.params.id);
			if (!id.ok) return validationFailed(id.errors);
			const scraper = this.store.scraperOf(userId, id.value);
			if (!scraper) return notFound();
			return this.answer({ data: this.store.scraperObject(scraper) });
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
			// Scheduled runs due by now exist before the request's work (the store's reads do this too).
			this.store.materialize();
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

/** Runs a cron check, prefixing its CronError with the control method that was called. */
function named<T>(method: string, check: () => T): T {
	const outcome = attempt(check);
	if (outcome.error instanceof CronError) throw new CronError(`MarketplaceSimulator.${method}: ${outcome.error.message}`);
	if (outcome.error !== undefined) throw outcome.error as Error;
	return outcome.value as T;
}
