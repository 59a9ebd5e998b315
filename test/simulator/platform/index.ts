/**
 * The platform simulator (section B) and its public API: `PlatformSimulator` with its test-control methods, and what
 * tests import. The routes are in `routes/` (one file per resource), the state in `state.ts`.
 */
import { SimClock } from '../core/clock';
import type { Handler } from '../core/http';
import { RateLimiter } from '../core/ratelimit';
import { SimSection, SimServer } from '../core/server';
import { PLATFORM_DEMO_TOKEN, type PlatformPlan } from './accounts';
import { PlatformSimError, forbidden, platformErrorBody, tokenLimitExceeded } from './errors';
import { seedDemoHistory, seedResultRecords, seedScrapers } from './fixtures';
import {
	platformSettings,
	type PlatformAccountLimits,
	type PlatformConcurrencyStats,
	type PlatformSettings,
	type PlatformSimulatorOptions,
	type SeedResultsOverrides,
} from './options';
import { registerAccountRoutes } from './routes/account';
import { registerAnalyticsRoutes } from './routes/analytics';
import { registerBulkRoutes } from './routes/bulk';
import { guardFor, type Caller, type CallerHandler, type Guard } from './routes/guard';
import { registerResultRoutes } from './routes/results';
import { registerScraperRoutes } from './routes/scrapers';
import { startBulkJob } from './scrape';
import { PlatformState, type ScraperKind } from './state';
import { detailRecord, live, type StoredScraper } from './store';
import type { BulkStartRecord, ResultRecord } from './types';

export * from './types';
export {
	PLATFORM_DEMO_TOKEN,
	PLATFORM_DEMO_REPORTING_TOKEN,
	PLATFORM_DEMO_TOKEN_NAME,
	PLATFORM_DEMO_REPORTING_TOKEN_NAME,
	PLATFORM_RESTRICTED_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PLATFORM_EXPIRED_TOKEN,
	type PlatformPlan,
} from './accounts';
export { CONCURRENCY_BY_PLAN, RETRY_AFTER_CONCURRENCY_SECONDS, type ConcurrencyStats } from '../core/concurrency';
export { FAIL_MARKER } from './content';
export { PlatformSimError, TOKEN_LIMIT_MESSAGE, platformErrorBody } from './errors';
export { DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS, OTHER_USER_AI_SCRAPER_ID, OTHER_USER_MANUAL_SCRAPER_ID } from './fixtures';
export type { PlatformSimulatorOptions } from './options';

/** Route names (`METHOD /pattern`) as the request log and fault injection know them. */
export const PLATFORM_ROUTES = {
	subscriptionAccount: 'GET /api/v1/subscription-accounts',
	createAndRun: 'POST /api/v1/scrapers-ai',
	rerun: 'POST /api/v1/scrapers-ai-rerun',
	/** Public facts: the AI scrapers' bulk rerun. */
	aiBulkRerun: 'POST /api/v1/scrapers-ai-rerun/bulk',
	/** Public facts: a manual scraper's single rerun. */
	manualRerun: 'POST /api/v1/scrapers-manual-rerun',
	bulkRerun: 'POST /api/v1/scrapers-manual-rerun/bulk',
	/** Cancels the pending URLs of every bulk job of a scraper (the path id is the scraper's). */
	cancelBulk: 'PATCH /api/v1/scrapers-bulks/:scraperId/cancel',
	/** Public facts: cancels one bulk job by its result id. */
	cancelBulkResult: 'PATCH /api/v1/scrapers-bulks/result/:resultId/cancel',
	analytics: 'GET /api/v1/analytic/statuses',
	results: 'GET /api/v1/results',
	result: 'GET /api/v1/results/:id',
	proxyBandwidth: 'GET /api/v1/proxies/user/requests-bandwidth',
} as const;

/**
 * The platform API (section B) on a loopback port: every documented endpoint, error and limit, with state
 * kept in memory and time-dependent state (bulk progress) derived from `clock.now()` when read.
 */
export class PlatformSimulator extends SimSection {
	readonly server: SimServer;
	readonly clock: SimClock;
	/** Mutable: new requests, new bulk jobs and unconfigured accounts pick up changes. */
	readonly options: PlatformSettings;
	private readonly state: PlatformState;
	private readonly limiter: RateLimiter;
	private readonly guard: Guard;
	private demoSeeded = false;

	constructor(options: PlatformSimulatorOptions = {}) {
		super();
		this.clock = options.clock ?? new SimClock();
		this.options = platformSettings(options);
		this.server = new SimServer({
			name: 'platform',
			clock: this.clock,
			errorBody: platformErrorBody,
			seed: options.seed ?? 'platform',
			latencyMs: (route) => this.options.latencyMs?.[route],
		});
		this.limiter = new RateLimiter(() => this.clock.now());
		this.state = new PlatformState(this.clock, this.options, options.seed ?? 'platform');
		this.guard = guardFor(this.state, this.limiter);
		seedScrapers(this.state);
		registerAccountRoutes(this.server, this.guard, this.state);
		registerScraperRoutes(this.server, this.guard, this.state);
		registerBulkRoutes(this.server, this.guard, this.state);
		registerAnalyticsRoutes(this.server, this.guard, this.state);
		registerResultRoutes(this.server, this.guard, this.state);
	}

	// ---- test-control interface (in-process) ----

	/** A new manual scraper owned by the token's user; returns its id (for bulk reruns). */
	createManualScraper(token: string = PLATFORM_DEMO_TOKEN): string {
		const { user } = this.state.accounts.require(token);
		const id = this.state.uuid();
		this.state.scrapers.set(id, { id, userId: user.id, kind: 'manual', name: `Manual scraper ${this.state.scrapers.size + 1}`, createdAt: this.clock.now() });
		return id;
	}

	/**
	 * Starts a bulk job exactly as the endpoint does (minus rate limiting): `manual` as `scrapers-manual-rerun/bulk`,
	 * `ai` as `scrapers-ai-rerun/bulk`. Throws `PlatformSimError` where it would fail. Returns the record in its
	 * fullest form (`id` and `bulkResultId`), whatever `bulkStartAnswer` says.
	 */
	startBulk(token: string, scraperId: string, urls: string[], kind: ScraperKind = 'manual'): BulkStartRecord {
		const caller = this.state.accounts.require(token);
		if (!caller.user.permissions.bulkRerun) throw new PlatformSimError(forbidden());
		if (this.state.tokenLimitReached(caller.user)) throw new PlatformSimError(tokenLimitExceeded());
		const started = startBulkJob(this.state, { scraperId, urls }, caller, kind);
		if ('error' in started) throw new PlatformSimError(started.error);
		return started.record;
	}

	/**
	 * Demo data for the standalone simulator (`cli.ts`, the demo): for the demo user, one finished bulk job per
	 * `DEMO_MANUAL_SCRAPER_IDS` (three URLs each) and one finished `Rerun-AI` result per `DEMO_AI_SCRAPER_IDS`, all
	 * created a day ago, so a list built from `GET /api/v1/results` shows every demo scraper. Not called by the
	 * constructor: tests that count results start empty. Calling it again adds nothing.
	 */
	seedDemo(): void {
		if (this.demoSeeded) return;
		this.demoSeeded = true;
		seedDemoHistory(this.state);
	}

	/** Inserts `count` finished-looking results for the token's user, with distinct createdAt values. */
	seedResults(token: string, count: number, overrides: SeedResultsOverrides = {}): void {
		seedResultRecords(this.state, token, count, overrides);
	}

	/**
	 * Sets the account's limits: rate limit (requests per `rateTtl` seconds; restarts its rate window) and
	 * concurrency (requests in flight at once; `null` restores the default), token limit (enforced; `null` restores the
	 * seeded one, not enforced). Setting only `concurrency` or `tokenLimit` leaves the rate window running.
	 */
	setAccountLimits(token: string, limits: PlatformAccountLimits): void {
		const { user } = this.state.accounts.require(token);
		if (limits.rateLimit !== undefined) user.rateLimit = limits.rateLimit;
		if (limits.rateTtl !== undefined) user.rateTtl = limits.rateTtl;
		if (limits.concurrency !== undefined) user.concurrencyLimit = limits.concurrency ?? undefined;
		if (limits.tokenLimit !== undefined) user.enforcedTokenLimit = limits.tokenLimit ?? undefined;
		const rateUntouched = (limits.concurrency !== undefined || limits.tokenLimit !== undefined) && limits.rateLimit === undefined && limits.rateTtl === undefined;
		if (!rateUntouched) this.limiter.reset(user.accountId);
	}

	/**
	 * Concurrency statistics of the token's account (all its tokens together): `peak` requests in flight at once and
	 * `refused` concurrency 429s since the last reset, `inFlight` now, and the `limit` in force.
	 */
	concurrencyStats(token: string): PlatformConcurrencyStats {
		const { user } = this.state.accounts.require(token);
		return { ...this.server.concurrency.stats(user.accountId), limit: this.state.concurrencyLimitOf(user) };
	}

	/** Restarts the concurrency statistics of the token's account, or of every account (see `ConcurrencyLimiter`). */
	resetConcurrencyStats(token?: string): void {
		this.server.concurrency.resetStats(token === undefined ? undefined : this.state.accounts.require(token).user.accountId);
	}

	/** The plan of the token's account (it sets the default concurrency limit). */
	planOf(token: string): PlatformPlan {
		return this.state.accounts.require(token).user.plan;
	}

	/** A new named token for the owner of `ownerToken`; returns its value. */
	addApiToken(ownerToken: string, name: string, options: { value?: string; expiresAt?: number } = {}): string {
		const { user } = this.state.accounts.require(ownerToken);
		const value = options.value ?? `sim-platform-${name}-${this.state.uuid()}`;
		this.state.accounts.addToken(user, { value, name, createdAt: this.clock.now(), expiresAt: options.expiresAt });
		return value;
	}

	/** One result in its detailed form, bulk progress computed at `clock.now()`. */
	getRecord<D = unknown>(id: string): ResultRecord<D> | undefined {
		const stored = this.state.results.get(id);
		return stored ? detailRecord<D>(live(stored, this.clock.now())) : undefined;
	}

	/** A scraper as stored: its kind, agent, instruction (and the names it came under) and create options. */
	getScraper(id: string): StoredScraper | undefined {
		const scraper = this.state.scrapers.get(id);
		return scraper ? { ...scraper } : undefined;
	}

	// ---- the hosts of its own that take the same tokens (`fetch.ts`, `search.ts`) ----

	/**
	 * The checks of the platform's token-spending endpoints, for a host of its own that takes the platform's tokens
	 * (the page fetch, the Google search) as `x-api-token` or `Authorization: Bearer`: 401 for a missing, unknown or
	 * expired token, 429 at the account's
	 * concurrency limit (counted by that host's own server), 429 past the account's rate window (shared with the
	 * platform's write endpoints), 403 `Token limit exceeded` past an enforced token limit.
	 */
	tokenGuard(handler: CallerHandler): Handler {
		return this.guard({ rateLimited: true, spendsTokens: true, bearer: true }, handler);
	}

	/** Tokens the caller's work on such a host used: the subscription account's `tokenUsage` counts them. */
	spendTokens({ user }: Caller, tokens: number): void {
		this.state.spentTokens.set(user.id, (this.state.spentTokens.get(user.id) ?? 0) + tokens);
	}
}
