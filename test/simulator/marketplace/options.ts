/**
 * The marketplace simulator's options (at construction), its mutable settings (`sim.options`, default timings
 * included) and the arguments and answers of its control methods (account limits, schedules, scraper info).
 */
import type { SimClock } from '../core/clock';
import type { ConcurrencyStats } from '../core/concurrency';
import type { JobBoardTimings } from './jobboard';
import { SCHEDULE_CATCH_UP_LIMIT, type RunTimings } from './stored';
import type { MarketplaceContentType, ScraperConfiguration, ScraperObject, ScraperType } from './types';

/** Mutable timings and limits of a running simulator; changes apply to runs started afterwards. */
interface MarketplaceTimings extends RunTimings, JobBoardTimings {
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

/** The settings of `options`: the default timings, each one given replacing its default. */
export function marketplaceSettings(options: MarketplaceSimulatorOptions): MarketplaceSettings {
	const settings: MarketplaceSettings = {
		...MARKETPLACE_DEFAULT_TIMINGS,
		contentType: options.contentType ?? 'application/json',
		concurrencyLimit: options.concurrencyLimit,
		latencyMs: { ...(options.latencyMs ?? {}) },
	};
	for (const key of Object.keys(MARKETPLACE_DEFAULT_TIMINGS) as Array<keyof MarketplaceTimings>) {
		const value = options[key];
		if (value !== undefined) settings[key] = value;
	}
	return settings;
}
