/**
 * The platform simulator's options (at construction), its mutable settings (`sim.options`) and the arguments and
 * answers of its control methods (account limits, concurrency statistics, seeded results).
 */
import type { SimClock } from '../core/clock';
import type { ConcurrencyStats } from '../core/concurrency';
import type { BulkStartAnswer, CreatedStatus, ResultStatus, ResultType } from './types';

export interface PlatformSimulatorOptions {
	clock?: SimClock;
	/** Simulated time one bulk URL takes. Default 2000. */
	bulkUrlDurationMs?: number;
	/** Bulk URLs processed at once. Default 2. */
	bulkConcurrency?: number;
	/** Requests per window for accounts without their own limit. Default 600. */
	rateLimit?: number;
	/** Window in seconds. Default 60. */
	rateTtl?: number;
	/** Seed for generated ids and fault randomness. */
	seed?: string;
	/** Shape of a bulk start's `data` (both bulk endpoints). Default `both`. */
	bulkStartAnswer?: BulkStartAnswer;
	/** Success status of the AI and manual reruns: 200 (the interface) or 201 (the vendor's docs OpenAPI). Default 200. */
	rerunStatus?: CreatedStatus;
	/** Success status of the two bulk starts. Default 200. */
	bulkStartStatus?: CreatedStatus;
	/**
	 * Requests in flight at once for every account without its own limit (`setAccountLimits`), instead of its plan's
	 * default (free 10, pro 100, enterprise 100). Default: the plan's.
	 */
	concurrencyLimit?: number;
	/** Real-time latency (ms) per route name (`PLATFORM_ROUTES`, `METHOD /pattern`); default none. */
	latencyMs?: Partial<Record<string, number>>;
	/**
	 * How the subscription account names its billing fields: `billing` (the interface: `billingSubscriptionId`,
	 * `billingStatus`) or `stripe` (the real service, public facts "Account fields": `stripeSubscriptionId`,
	 * `stripeStatus`). Default `billing`.
	 */
	accountBillingNames?: AccountBillingNames;
}

export type AccountBillingNames = 'billing' | 'stripe';

/** The simulator's mutable settings (`sim.options`): requests after a change see it; running bulk jobs keep theirs. */
export interface PlatformSettings {
	bulkUrlDurationMs: number;
	bulkConcurrency: number;
	rateLimit: number;
	rateTtl: number;
	bulkStartAnswer: BulkStartAnswer;
	rerunStatus: CreatedStatus;
	bulkStartStatus: CreatedStatus;
	/** Overrides the plan default of every account without its own limit; undefined: the plan's default. */
	concurrencyLimit: number | undefined;
	/** Real-time latency (ms) per route name; read when a request arrives (edit it or replace the object). */
	latencyMs: Partial<Record<string, number>>;
	accountBillingNames: AccountBillingNames;
}

/** The settings of `options`, defaults filled in. */
export function platformSettings(options: PlatformSimulatorOptions): PlatformSettings {
	return {
		bulkUrlDurationMs: options.bulkUrlDurationMs ?? 2000,
		bulkConcurrency: options.bulkConcurrency ?? 2,
		rateLimit: options.rateLimit ?? 600,
		rateTtl: options.rateTtl ?? 60,
		bulkStartAnswer: options.bulkStartAnswer ?? 'both',
		rerunStatus: options.rerunStatus ?? 200,
		bulkStartStatus: options.bulkStartStatus ?? 200,
		concurrencyLimit: options.concurrencyLimit,
		latencyMs: { ...(options.latencyMs ?? {}) },
		accountBillingNames: options.accountBillingNames ?? 'billing',
	};
}

/** `setAccountLimits` argument: every field left out keeps its value. */
export interface PlatformAccountLimits {
	/** Requests per `rateTtl` seconds (write endpoints). */
	rateLimit?: number;
	rateTtl?: number;
	/** Requests in flight at once; null goes back to the default (`concurrencyLimit` option, else the plan's). */
	concurrency?: number | null;
	/**
	 * The plan's token limit, enforced: once the account's `tokenUsage` reaches it, the token-spending endpoints
	 * (scrapers-ai, both reruns, both bulk starts) answer 403 `Token limit exceeded`. null goes back to the seeded
	 * limit, reported and not enforced.
	 */
	tokenLimit?: number | null;
}

/** `concurrencyStats` answer: the account's statistics and the concurrency limit now in force for it. */
export interface PlatformConcurrencyStats extends ConcurrencyStats {
	limit: number;
}

/** Overrides for `seedResults`; every field left out varies deterministically with the record's index. */
export interface SeedResultsOverrides {
	type?: ResultType;
	status?: ResultStatus;
	url?: string;
	error?: string | null;
	tokenUsage?: number;
	runtime?: number;
	data?: unknown;
	scraperId?: string;
	/** First record's createdAt (ISO or epoch ms); the default puts the last one `stepMs` before now. */
	createdAt?: string | number;
	/** Gap between consecutive createdAt values. Default 1000. */
	stepMs?: number;
	/** Token name recorded as the creator (analytics `apiTokenName`); default: the token's own name. */
	apiTokenName?: string;
}
