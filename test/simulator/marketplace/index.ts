/**
 * The marketplace simulator (section C) and its public API: `MarketplaceSimulator` with its test-control methods,
 * and what tests import. The routes are in `routes/` (one file per resource), the state in `store.ts`.
 */
import { SimClock } from '../core/clock';
import { planConcurrency } from '../core/concurrency';
import { RateLimiter } from '../core/ratelimit';
import { SimSection, SimServer } from '../core/server';
import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN, accountOf } from './accounts';
import { checkSchedule, requireScraper, requireUser, scraperInfo, validSpec } from './control';
import { marketplaceErrorBody } from './errors';
import {
	marketplaceSettings,
	type MarketplaceAccountLimits,
	type MarketplaceConcurrencyStats,
	type MarketplaceScraperInfo,
	type MarketplaceSettings,
	type MarketplaceSimulatorOptions,
	type ScheduleOptions,
	type ScheduledScraperSpec,
} from './options';
import { registerAccountRoutes } from './routes/account';
import { answerFor, authedFor, type MarketplaceRoutes } from './routes/guard';
import { registerJobBoardRoutes } from './routes/jobBoard';
import { registerResultRoutes } from './routes/results';
import { registerRunRoutes } from './routes/runs';
import { registerScraperRoutes } from './routes/scrapers';
import { MarketplaceStore } from './store';
import type { StoredScraper } from './stored';

export * from './types';
export type { PdfLink, PortalListing, SearchLead, SocialLead } from './records';
export { marketplaceErrorBody } from './errors';
export { CONCURRENCY_BY_PLAN, RETRY_AFTER_CONCURRENCY_SECONDS, type ConcurrencyStats } from '../core/concurrency';
export { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from './accounts';
export { CronError, parseCron, type CronExpression } from './cron';
export { DEMO_SCHEDULE } from './demo';
export { cronFirings, nextCronFiring, resolveTimeZone } from './firings';
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
} from './inputs';
export { FEW_JOBS_MARKER, FEW_JOBS_AVAILABLE, SLOW_JOBS_MARKER, availableJobs } from './jobboard';
export { MARKETPLACE_CONTENT_TYPES, MARKETPLACE_DEFAULT_TIMINGS, type MarketplaceSimulatorOptions } from './options';
export { SCHEDULE_CATCH_UP_LIMIT } from './stored';
export { DEFAULT_PDFS_PER_KEYWORD, FAIL_MARKER } from './targets';

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
		this.options = marketplaceSettings(options);
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
		const routes: MarketplaceRoutes = {
			server: this.server,
			store: this.store,
			clock: this.clock,
			settings: this.options,
			authed: authedFor(this.store, this.limiter, this.options, (userId) => this.concurrencyLimitOf(userId)),
			answer: answerFor(this.options),
		};
		registerJobBoardRoutes(routes);
		registerScraperRoutes(routes);
		registerResultRoutes(routes);
		registerRunRoutes(routes);
		registerAccountRoutes(routes);
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
		const userId = requireUser(this.store, token, method);
		const { expression, timezone, failEvery } = checkSchedule(method, cron, options);
		const scraper = requireScraper(this.store, userId, scraperId, method);
		this.store.schedule(scraper, expression, timezone, failEvery);
		return this.infoOf(scraper);
	}

	/**
	 * Creates a scraper of the token's account from a create-and-run body (validated as the endpoint does) with a
	 * schedule, without running it now: its first run is its first firing. Throws CronError for an invalid schedule,
	 * Error naming every invalid field for an invalid body.
	 */
	createScheduledScraper(token: string, spec: ScheduledScraperSpec): MarketplaceScraperInfo {
		const method = 'createScheduledScraper';
		const userId = requireUser(this.store, token, method);
		const { expression, timezone, failEvery } = checkSchedule(method, spec.cron, spec);
		const scraperSpec = validSpec(method, spec.type, spec.input);
		const scraper = this.store.createScraper(userId, scraperSpec);
		this.store.schedule(scraper, expression, timezone, failEvery);
		return this.infoOf(scraper);
	}

	/**
	 * Turns the scraper's schedule off: runs already due (firing <= now) are created first, none after. The
	 * configuration goes back to the unscheduled defaults (`scheduled` false, `cron` null, parts `*`, `UTC`).
	 * Unscheduling an unscheduled scraper changes nothing.
	 */
	unscheduleScraper(token: string, scraperId: number): MarketplaceScraperInfo {
		const method = 'unscheduleScraper';
		const scraper = requireScraper(this.store, requireUser(this.store, token, method), scraperId, method);
		this.store.unschedule(scraper);
		return this.infoOf(scraper);
	}

	/** The token's scraper as the API would show it (scraper object, configuration) and its schedule's counters. */
	scraperInfo(token: string, scraperId: number): MarketplaceScraperInfo {
		const method = 'scraperInfo';
		return this.infoOf(requireScraper(this.store, requireUser(this.store, token, method), scraperId, method));
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
		const userId = requireUser(this.store, token, 'setAccountLimits');
		if (limits.concurrency === null) this.concurrencyLimits.delete(userId);
		else if (limits.concurrency !== undefined) this.concurrencyLimits.set(userId, limits.concurrency);
	}

	/**
	 * Concurrency statistics of the token's account: `peak` requests in flight at once and `refused` concurrency 429s
	 * since the last reset, `inFlight` now, and the `limit` in force.
	 */
	concurrencyStats(token: string): MarketplaceConcurrencyStats {
		const userId = requireUser(this.store, token, 'concurrencyStats');
		return { ...this.server.concurrency.stats(String(userId)), limit: this.concurrencyLimitOf(userId) };
	}

	/** Restarts the concurrency statistics of the token's account, or of every account. */
	resetConcurrencyStats(token?: string): void {
		this.server.concurrency.resetStats(token === undefined ? undefined : String(requireUser(this.store, token, 'resetConcurrencyStats')));
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

	private infoOf(scraper: StoredScraper): MarketplaceScraperInfo {
		return scraperInfo(this.store, scraper, this.clock.now());
	}

	/** The account's concurrency limit: its own, else the simulator's `concurrencyLimit`, else its plan's. */
	private concurrencyLimitOf(userId: number): number {
		return this.concurrencyLimits.get(userId) ?? this.options.concurrencyLimit ?? planConcurrency(accountOf(userId).plan);
	}
}
