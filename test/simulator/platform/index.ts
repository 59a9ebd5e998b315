import { SimClock } from '../core/clock';
import { planConcurrency, type ConcurrencyStats } from '../core/concurrency';
import { SeededRandom, hashString } from '../core/random';
import { RateLimiter } from '../core/ratelimit';
import { SimSection, SimServer, type Handler, type SimReply, type SimRequest } from '../core/server';
import {
	AccountStore,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	maskToken,
	type ApiToken,
	type PlatformPlan,
	type PlatformUser,
} from './accounts';
import { analyticsSummary, parseWindow, proxyBandwidth } from './analytics';
import { cancelBulkJob, createBulkJob, type BulkJob } from './bulk';
import { mapOptionsOf, readCreateBody } from './create';
import {
	SCREENSHOT_BASE64,
	type MapOptions,
	exampleCode,
	exampleOutput,
	extract,
	failureFor,
	generalFields,
	normaliseUrl,
	renderHtml,
	renderMarkdown,
	scrapeCost,
} from './content';
import {
	PlatformSimError,
	badRequest,
	forbidden,
	notFound,
	platformErrorBody,
	tokenLimitExceeded,
	tooManyRequests,
	unauthorized,
	unauthorizedExpired,
	validationFailed,
} from './errors';
import { parseResultsQuery, queryResults } from './results';
import { detailRecord, listedRecord, live, omit, type StoredResult, type StoredScraper } from './store';
import {
	AI_AGENTS,
	type AiAgent,
	type AiExampleData,
	type BulkData,
	type BulkStartAnswer,
	type BulkStartData,
	type BulkStartRecord,
	type CancelBulkResult,
	type CreatedStatus,
	type CreateAndRunRecord,
	type ResultRecord,
	type ResultStatus,
	type ResultType,
	type SubscriptionAccount,
} from './types';
import {
	Issues,
	bodyObject,
	isUuid,
	optionalPositiveInteger,
	optionalRegex,
	requireHttpUrl,
	requireUrlArray,
	requireUuid,
} from './validation';

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

/** Manual scrapers of the demo user, ready for bulk reruns. */
export const DEMO_MANUAL_SCRAPER_IDS: string[] = [
	'0f5e8a4c-1d2b-4c3e-9f8a-7b6c5d4e3f01',
	'0f5e8a4c-1d2b-4c3e-9f8a-7b6c5d4e3f02',
	'0f5e8a4c-1d2b-4c3e-9f8a-7b6c5d4e3f03',
];

/** AI scrapers of the demo user, one per agent, ready for reruns. */
export const DEMO_AI_SCRAPER_IDS: Readonly<Record<AiAgent, string>> = {
	general: '1a6f9b5d-2e3c-4d4f-8a9b-8c7d6e5f4a01',
	map: '1a6f9b5d-2e3c-4d4f-8a9b-8c7d6e5f4a02',
	listing: '1a6f9b5d-2e3c-4d4f-8a9b-8c7d6e5f4a03',
};

/** Scrapers of the other user: the demo token gets 403 on them. */
export const OTHER_USER_MANUAL_SCRAPER_ID = '2b7a0c6e-3f4d-4e5a-9b0c-9d8e7f6a5b01';
export const OTHER_USER_AI_SCRAPER_ID = '2b7a0c6e-3f4d-4e5a-9b0c-9d8e7f6a5b02';

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
}

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

/** Who sent an authenticated request: the token's user and the token itself. */
export interface Caller {
	user: PlatformUser;
	token: ApiToken;
}

export type CallerHandler = (req: SimRequest, caller: Caller) => SimReply;

/** The interface's map-agent defaults. */
const MAP_DEFAULTS: Readonly<MapOptions> = { maxDepth: 2, maxPages: 50, limit: 1000 };
const SEED_STATUSES: ResultStatus[] = ['Finished', 'Finished', 'Failed', 'Finished', 'Processing', 'Finished', 'Running'];

function header(req: SimRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** True when the accept header lists `application/json` (parameters such as q are ignored). */
function acceptsJson(accept: string | undefined): boolean {
	if (!accept) return false;
	return accept.split(',').some((part) => part.split(';')[0].trim().toLowerCase() === 'application/json');
}

function ok(message: string, data: unknown, status = 200): SimReply {
	return { status, json: { message, data } };
}

/** The accept check of both reruns, as a validation issue so it is listed with any body issues (one 422). */
function checkAccept(req: SimRequest, issues: Issues): void {
	if (!acceptsJson(header(req, 'accept'))) issues.add('accept', 'equals', 'accept header must be application/json');
}

/** The kind of scraper an endpoint takes: `ai` (made by scrapers-ai) or `manual`. */
type ScraperKind = StoredScraper['kind'];

function pageCurl(url: string): string {
	return `curl '${url}' -H 'accept: text/html,application/xhtml+xml' -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'`;
}

/**
 * The platform API (section B) on a loopback port: every documented endpoint, error and limit, with state
 * kept in memory and time-dependent state (bulk progress) derived from `clock.now()` when read.
 */
export class PlatformSimulator extends SimSection {
	readonly server: SimServer;
	readonly clock: SimClock;
	/** Mutable: new requests, new bulk jobs and unconfigured accounts pick up changes. */
	readonly options: PlatformSettings;
	private readonly accounts: AccountStore;
	private readonly limiter: RateLimiter;
	private readonly random: SeededRandom;
	private readonly scrapers = new Map<string, StoredScraper>();
	private readonly results = new Map<string, StoredResult>();
	/** `scraperId|url` pairs a rerun has already scraped: later reruns reuse the cache (fewer tokens, faster). */
	private readonly rerunCache = new Set<string>();
	/** Tokens each user spent on the hosts of their own (page fetch, Google search), by user id. */
	private readonly spentTokens = new Map<string, number>();
	private demoSeeded = false;

	constructor(options: PlatformSimulatorOptions = {}) {
		super();
		this.clock = options.clock ?? new SimClock();
		this.options = {
			bulkUrlDurationMs: options.bulkUrlDurationMs ?? 2000,
			bulkConcurrency: options.bulkConcurrency ?? 2,
			rateLimit: options.rateLimit ?? 600,
			rateTtl: options.rateTtl ?? 60,
			bulkStartAnswer: options.bulkStartAnswer ?? 'both',
			rerunStatus: options.rerunStatus ?? 200,
			bulkStartStatus: options.bulkStartStatus ?? 200,
			concurrencyLimit: options.concurrencyLimit,
			latencyMs: { ...(options.latencyMs ?? {}) },
		};
		this.random = new SeededRandom(`${options.seed ?? 'platform'}-ids`);
		this.server = new SimServer({
			name: 'platform',
			clock: this.clock,
			errorBody: platformErrorBody,
			seed: options.seed ?? 'platform',
			latencyMs: (route) => this.options.latencyMs?.[route],
		});
		this.limiter = new RateLimiter(() => this.clock.now());
		this.accounts = new AccountStore(this.clock.now());
		this.seedScrapers();
		this.registerRoutes();
	}

	// ---- test-control interface (in-process) ----

	/** A new manual scraper owned by the token's user; returns its id (for bulk reruns). */
	createManualScraper(token: string = PLATFORM_DEMO_TOKEN): string {
		const { user } = this.accounts.require(token);
		const id = this.uuid();
		this.scrapers.set(id, { id, userId: user.id, kind: 'manual', name: `Manual scraper ${this.scrapers.size + 1}`, createdAt: this.clock.now() });
		return id;
	}

	/**
	 * Starts a bulk job exactly as the endpoint does (minus rate limiting): `manual` as `scrapers-manual-rerun/bulk`,
	 * `ai` as `scrapers-ai-rerun/bulk`. Throws `PlatformSimError` where it would fail. Returns the record in its
	 * fullest form (`id` and `bulkResultId`), whatever `bulkStartAnswer` says.
	 */
	startBulk(token: string, scraperId: string, urls: string[], kind: ScraperKind = 'manual'): BulkStartRecord {
		const caller = this.accounts.require(token);
		if (!caller.user.permissions.bulkRerun) throw new PlatformSimError(forbidden());
		if (this.tokenLimitReached(caller.user)) throw new PlatformSimError(tokenLimitExceeded());
		const started = this.startBulkJob({ scraperId, urls }, caller, kind);
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
		const caller = this.accounts.require(PLATFORM_DEMO_TOKEN);
		const dayAgo = this.clock.now() - 86_400_000;
		DEMO_MANUAL_SCRAPER_IDS.forEach((scraperId, i) => {
			const urls = [1, 2, 3].map((n) => `https://shop.example.com/product/${i + 1}0${n}`);
			this.insertBulkJob(caller, scraperId, urls, dayAgo + i * 3_600_000);
		});
		AI_AGENTS.forEach((agent, i) => {
			const scraper = this.scrapers.get(DEMO_AI_SCRAPER_IDS[agent]) as StoredScraper;
			this.scrape(caller, scraper, scraper.url ?? 'https://shop.example.com/', 'Rerun-AI', dayAgo + (DEMO_MANUAL_SCRAPER_IDS.length + i) * 3_600_000);
		});
	}

	/** Inserts `count` finished-looking results for the token's user, with distinct createdAt values. */
	seedResults(token: string, count: number, overrides: SeedResultsOverrides = {}): void {
		const { user, token: apiToken } = this.accounts.require(token);
		const step = overrides.stepMs ?? 1000;
		const first =
			overrides.createdAt === undefined
				? this.clock.now() - count * step
				: typeof overrides.createdAt === 'number'
					? overrides.createdAt
					: Date.parse(overrides.createdAt);
		if (Number.isNaN(first)) throw new Error('seedResults: createdAt is not a timestamp');
		let scraperId = overrides.scraperId;
		if (scraperId === undefined) {
			scraperId = this.uuid();
			this.scrapers.set(scraperId, {
				id: scraperId,
				userId: user.id,
				kind: 'ai',
				name: 'Seeded scraper',
				agent: 'general',
				url: 'https://seed.example.com/',
				prompt: 'Extract the title',
				createdAt: first,
			});
		}
		for (let i = 0; i < count; i++) {
			const n = hashString(`seed|${user.id}|${this.results.size}|${i}`);
			const url = overrides.url ?? `https://seed-${i % 5}.example.com/page/${i}`;
			const status = overrides.status ?? SEED_STATUSES[i % SEED_STATUSES.length];
			const createdAt = first + i * step;
			const runtime = overrides.runtime ?? 1 + (n % 9000) / 1000;
			this.insertResult({
				id: this.uuid(),
				userId: user.id,
				scraperId,
				type: overrides.type ?? (i % 3 === 2 ? 'AI' : 'Rerun-AI'),
				url,
				createdAt,
				updatedAt: createdAt + Math.round(runtime * 1000),
				status,
				error: overrides.error !== undefined ? overrides.error : status === 'Failed' ? 'Navigation timeout of 30000 ms exceeded' : null,
				tokenUsage: overrides.tokenUsage ?? 100 + (n % 900),
				runtime,
				data: overrides.data ?? { index: i, title: `Seeded result ${i}` },
				html: renderHtml(url),
				tokenName: overrides.apiTokenName ?? apiToken.name,
				proxyUsername: this.proxyFor(user, url),
			});
		}
	}

	/**
	 * Sets the account's limits: rate limit (requests per `rateTtl` seconds; restarts its rate window) and
	 * concurrency (requests in flight at once; `null` restores the default), token limit (enforced; `null` restores the
	 * seeded one, not enforced). Setting only `concurrency` or `tokenLimit` leaves the rate window running.
	 */
	setAccountLimits(token: string, limits: PlatformAccountLimits): void {
		const { user } = this.accounts.require(token);
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
		const { user } = this.accounts.require(token);
		return { ...this.server.concurrency.stats(user.accountId), limit: this.concurrencyLimitOf(user) };
	}

	/** Restarts the concurrency statistics of the token's account, or of every account (see `ConcurrencyLimiter`). */
	resetConcurrencyStats(token?: string): void {
		this.server.concurrency.resetStats(token === undefined ? undefined : this.accounts.require(token).user.accountId);
	}

	/** The plan of the token's account (it sets the default concurrency limit). */
	planOf(token: string): PlatformPlan {
		return this.accounts.require(token).user.plan;
	}

	/** A new named token for the owner of `ownerToken`; returns its value. */
	addApiToken(ownerToken: string, name: string, options: { value?: string; expiresAt?: number } = {}): string {
		const { user } = this.accounts.require(ownerToken);
		const value = options.value ?? `sim-platform-${name}-${this.uuid()}`;
		this.accounts.addToken(user, { value, name, createdAt: this.clock.now(), expiresAt: options.expiresAt });
		return value;
	}

	/** One result in its detailed form, bulk progress computed at `clock.now()`. */
	getRecord<D = unknown>(id: string): ResultRecord<D> | undefined {
		const stored = this.results.get(id);
		return stored ? detailRecord<D>(live(stored, this.clock.now())) : undefined;
	}

	/** A scraper as stored: its kind, agent, instruction (and the names it came under) and create options. */
	getScraper(id: string): StoredScraper | undefined {
		const scraper = this.scrapers.get(id);
		return scraper ? { ...scraper } : undefined;
	}

	// ---- the hosts of its own that take the same tokens (`fetch.ts`, `search.ts`) ----

	/**
	 * The checks of the platform's token-spending endpoints, for a host of its own that takes the platform's tokens
	 * (the page fetch, the Google search): 401 for a missing, unknown or expired token, 429 at the account's
	 * concurrency limit (counted by that host's own server), 429 past the account's rate window (shared with the
	 * platform's write endpoints), 403 `Token limit exceeded` past an enforced token limit.
	 */
	tokenGuard(handler: CallerHandler): Handler {
		return this.guarded({ rateLimited: true, spendsTokens: true }, handler);
	}

	/** Tokens the caller's work on such a host used: the subscription account's `tokenUsage` counts them. */
	spendTokens({ user }: Caller, tokens: number): void {
		this.spentTokens.set(user.id, (this.spentTokens.get(user.id) ?? 0) + tokens);
	}

	// ---- internals ----

	private uuid(): string {
		let hex = '';
		for (let i = 0; i < 32; i++) hex += Math.floor(this.random.next() * 16).toString(16);
		const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	}

	private userOf(token: string): PlatformUser {
		return this.accounts.require(token).user;
	}

	private seedScrapers(): void {
		const now = this.clock.now();
		const demo = this.userOf(PLATFORM_DEMO_TOKEN);
		const other = this.userOf(PLATFORM_OTHER_USER_TOKEN);
		DEMO_MANUAL_SCRAPER_IDS.forEach((id, i) =>
			this.scrapers.set(id, { id, userId: demo.id, kind: 'manual', name: `Product detail scraper ${i + 1}`, createdAt: now }),
		);
		const aiSeeds: Record<AiAgent, { url: string; prompt: string }> = {
			general: { url: 'https://shop.example.com/', prompt: 'Extract the page title, heading and description' },
			map: { url: 'https://docs.example.com/', prompt: 'List every documentation page' },
			listing: { url: 'https://shop.example.com/products', prompt: 'Extract every product with its price' },
		};
		for (const agent of AI_AGENTS) {
			const id = DEMO_AI_SCRAPER_IDS[agent];
			this.scrapers.set(id, { id, userId: demo.id, kind: 'ai', name: `Demo ${agent} scraper`, agent, ...aiSeeds[agent], createdAt: now });
		}
		this.scrapers.set(OTHER_USER_MANUAL_SCRAPER_ID, {
			id: OTHER_USER_MANUAL_SCRAPER_ID,
			userId: other.id,
			kind: 'manual',
			name: 'Other user detail scraper',
			createdAt: now,
		});
		this.scrapers.set(OTHER_USER_AI_SCRAPER_ID, {
			id: OTHER_USER_AI_SCRAPER_ID,
			userId: other.id,
			kind: 'ai',
			name: 'Other user AI scraper',
			agent: 'general',
			url: 'https://other.example.org/',
			prompt: 'Extract the title',
			createdAt: now,
		});
	}

	private insertResult(result: StoredResult): StoredResult {
		this.results.set(result.id, result);
		return result;
	}

	/** Which of the account's proxy usernames a scrape of this URL goes through (stable per URL). */
	private proxyFor(user: PlatformUser, url: string): string {
		return user.proxyUsernames[hashString(url) % user.proxyUsernames.length];
	}

	private userResults(user: PlatformUser): StoredResult[] {
		return [...this.results.values()].filter((r) => r.userId === user.id);
	}

	/** Tokens the account has spent: every result's `tokenUsage`, bulk jobs as they stand now, and its fetches and searches. */
	private tokenUsage(user: PlatformUser): number {
		const now = this.clock.now();
		return this.userResults(user).reduce((sum, r) => sum + live(r, now).tokenUsage, 0) + (this.spentTokens.get(user.id) ?? 0);
	}

	/** Only a limit set by `setAccountLimits` is enforced (and only then is the usage summed per request). */
	private tokenLimitReached(user: PlatformUser): boolean {
		return user.enforcedTokenLimit !== undefined && this.tokenUsage(user) >= user.enforcedTokenLimit;
	}

	/** The account's concurrency limit: its own, else the simulator's `concurrencyLimit`, else its plan's. */
	private concurrencyLimitOf(user: PlatformUser): number {
		return user.concurrencyLimit ?? this.options.concurrencyLimit ?? planConcurrency(user.plan);
	}

	/**
	 * Auth (401), then the account's concurrency limit (429 at once; admitted requests wait the route's latency in
	 * flight), then its rate limit (429) where the interface lists it, then permission (403), then, on the endpoints
	 * that spend tokens, an enforced token limit (403 `Token limit exceeded`).
	 */
	private guarded(
		options: { rateLimited?: boolean; permission?: keyof PlatformUser['permissions']; spendsTokens?: boolean },
		handler: CallerHandler,
	): Handler {
		return async (req) => {
			const check = this.accounts.check(header(req, 'x-api-token'), this.clock.now());
			if (check.kind === 'unknown') return unauthorized();
			if (check.kind === 'expired') return unauthorizedExpired();
			const { user, token } = check;
			const refused = await req.admit(user.accountId, this.concurrencyLimitOf(user));
			if (refused) return refused;
			if (options.rateLimited) {
				const retryAfter = this.limiter.hit(user.accountId, user.rateLimit ?? this.options.rateLimit, user.rateTtl ?? this.options.rateTtl);
				if (retryAfter !== undefined) return tooManyRequests(retryAfter);
			}
			if (options.permission && !user.permissions[options.permission]) return forbidden();
			if (options.spendsTokens && this.tokenLimitReached(user)) return tokenLimitExceeded();
			return handler(req, { user, token });
		};
	}

	private registerRoutes(): void {
		const s = this.server;
		s.route('GET', '/api/v1/subscription-accounts', this.guarded({}, (_req, caller) => this.subscriptionAccount(caller)));
		s.route(
			'POST',
			'/api/v1/scrapers-ai',
			this.guarded({ rateLimited: true, permission: 'aiScrapers', spendsTokens: true }, (req, caller) => this.createAndRun(req, caller)),
		);
		s.route(
			'POST',
			'/api/v1/scrapers-ai-rerun',
			this.guarded({ rateLimited: true, permission: 'aiScrapers', spendsTokens: true }, (req, caller) => this.rerun(req, caller, 'ai')),
		);
		s.route(
			'POST',
			'/api/v1/scrapers-ai-rerun/bulk',
			this.guarded({ rateLimited: true, permission: 'bulkRerun', spendsTokens: true }, (req, caller) => this.bulkRerun(req, caller, 'ai')),
		);
		// A manual scraper's rerun takes the permission its bulk rerun takes (the account may run manual scrapers).
		s.route(
			'POST',
			'/api/v1/scrapers-manual-rerun',
			this.guarded({ rateLimited: true, permission: 'bulkRerun', spendsTokens: true }, (req, caller) => this.rerun(req, caller, 'manual')),
		);
		s.route(
			'POST',
			'/api/v1/scrapers-manual-rerun/bulk',
			this.guarded({ rateLimited: true, permission: 'bulkRerun', spendsTokens: true }, (req, caller) => this.bulkRerun(req, caller, 'manual')),
		);
		s.route(
			'PATCH',
			'/api/v1/scrapers-bulks/:scraperId/cancel',
			this.guarded({ rateLimited: true }, (req, caller) => this.cancelScraperBulks(req, caller)),
		);
		s.route(
			'PATCH',
			'/api/v1/scrapers-bulks/result/:resultId/cancel',
			this.guarded({ rateLimited: true }, (req, caller) => this.cancelBulkResult(req, caller)),
		);
		s.route('GET', '/api/v1/analytic/statuses', this.guarded({}, (req, caller) => this.analytics(req, caller)));
		s.route('GET', '/api/v1/results', this.guarded({}, (req, caller) => this.listResults(req, caller)));
		s.route('GET', '/api/v1/results/:id', this.guarded({}, (req, caller) => this.getResult(req, caller)));
		s.route(
			'GET',
			'/api/v1/proxies/user/requests-bandwidth',
			this.guarded({}, (req, caller) => this.bandwidth(req, caller)),
		);
	}

	private subscriptionAccount({ user }: Caller): SimReply {
		const account: SubscriptionAccount = {
			id: user.accountId,
			userId: user.id,
			tokenLimit: user.enforcedTokenLimit ?? user.tokenLimit,
			tokenUsage: this.tokenUsage(user),
			quantity: 1,
			rateLimit: user.rateLimit ?? this.options.rateLimit,
			rateTtl: user.rateTtl ?? this.options.rateTtl,
			billingSubscriptionId: user.billingSubscriptionId,
			billingStatus: user.billingStatus,
			endsAt: user.endsAt,
			isEnterprise: user.isEnterprise,
			isAutoRenew: user.isAutoRenew,
			user: {
				id: user.id,
				name: user.name,
				email: user.email,
				latestApiToken: maskToken(this.accounts.latestToken(user).value),
				isVerified: true,
			},
		};
		return ok('Subscription account retrieved successfully', account);
	}

	private createAndRun(req: SimRequest, { user, token }: Caller): SimReply {
		const issues = new Issues();
		const body = bodyObject(req, issues);
		if (!issues.ok) return validationFailed(issues.list);
		const input = readCreateBody(body, issues);
		if (!issues.ok || input === undefined) return validationFailed(issues.list);
		const { url, agent, instruction: prompt, proxyCountry, options } = input;
		const sentOptions = Object.keys(options).length > 0 ? options : undefined;

		const now = this.clock.now();
		const scraperId = this.uuid();
		this.scrapers.set(scraperId, {
			id: scraperId,
			userId: user.id,
			kind: 'ai',
			name: `AI scraper for ${new URL(url).hostname}`,
			agent,
			url,
			prompt,
			instructionSentAs: input.sentAs,
			proxyCountry,
			createOptions: sentOptions,
			createdAt: now,
		});
		const cost = scrapeCost('create', url);
		const data: AiExampleData = {
			agent,
			...(prompt === undefined ? {} : { prompt }),
			...(sentOptions ? { options: sentOptions } : {}),
			exampleCode: exampleCode(agent, prompt ?? ''),
			exampleOutput: exampleOutput(agent, url, prompt ?? ''),
			note: 'Example output only. Rerun this scraper (scrapers-ai-rerun with its scraperId) for full results.',
		};
		const stored = this.insertResult({
			id: this.uuid(),
			userId: user.id,
			scraperId,
			type: 'AI',
			url,
			createdAt: now,
			updatedAt: now,
			status: 'Finished',
			error: null,
			tokenUsage: cost.tokenUsage,
			runtime: cost.runtime,
			data,
			html: renderHtml(url),
			tokenName: token.name,
			proxyUsername: this.proxyFor(user, url),
		});
		const record = omit(detailRecord<AiExampleData>(live(stored, now)), 'screenshotPath', 'htmlContent');
		const response: CreateAndRunRecord = {
			...record,
			runtime: cost.runtime.toFixed(3),
			curl: pageCurl(url),
			html: renderHtml(url),
			markdown: renderMarkdown(url),
			screenshot: SCREENSHOT_BASE64,
		};
		return ok('Scraper created and run successfully', response);
	}

	/** Looks up a scraper for the caller: 404 when unknown, 403 when someone else's, 422 when of the wrong kind. */
	private ownScraper(id: string, user: PlatformUser, kind: ScraperKind): StoredScraper | SimReply {
		const scraper = this.scrapers.get(id);
		if (!scraper) return notFound();
		if (scraper.userId !== user.id) return forbidden();
		if (scraper.kind !== kind) {
			const what = kind === 'ai' ? 'an AI scraper (made by scrapers-ai)' : 'a manual scraper';
			return validationFailed([{ field: 'scraperId', rule: kind === 'ai' ? 'isAiScraper' : 'isManualScraper', message: `scraperId must be ${what}` }]);
		}
		return scraper;
	}

	/**
	 * Both reruns: `scrapers-ai-rerun` (`ai`: the scraper's agent, map options) and `scrapers-manual-rerun` (`manual`:
	 * the page object, type `Rerun-Manual`). Accept header and body are validated together (one 422), then the scraper.
	 */
	private rerun(req: SimRequest, caller: Caller, kind: ScraperKind): SimReply {
		const issues = new Issues();
		checkAccept(req, issues);
		const headerIssues = issues.list.length;
		const body = bodyObject(req, issues);
		// Fields are read only from a usable body; a wrong accept header is listed with them (every invalid field).
		const input = issues.list.length === headerIssues ? this.readRerunBody(body, issues, kind) : undefined;
		if (!issues.ok || !input) return validationFailed(issues.list);

		const scraper = this.ownScraper(input.scraperId, caller.user, kind);
		if ('status' in scraper) return scraper;
		// The crawl the scraper was created with, then what this rerun sends.
		const map: MapOptions = { ...mapOptionsOf(scraper.createOptions, MAP_DEFAULTS), ...input.map };
		const stored = this.scrape(caller, scraper, input.url, kind === 'ai' ? 'Rerun-AI' : 'Rerun-Manual', this.clock.now(), map);
		return ok('Scraper rerun successfully', detailRecord(live(stored, this.clock.now())), this.options.rerunStatus);
	}

	private readRerunBody(
		body: Record<string, unknown>,
		issues: Issues,
		kind: ScraperKind,
	): { scraperId: string; url: string; map: Partial<MapOptions> } | undefined {
		const scraperId = requireUuid(issues, body, 'scraperId');
		const url = requireHttpUrl(issues, body, 'url');
		// The map options are the AI rerun's only; the manual rerun ignores them as unknown fields. Only those sent.
		const map: Partial<MapOptions> = {};
		if (kind === 'ai') {
			const sent = {
				maxDepth: optionalPositiveInteger(issues, body, 'maxDepth'),
				maxPages: optionalPositiveInteger(issues, body, 'maxPages'),
				limit: optionalPositiveInteger(issues, body, 'limit'),
				includePatterns: optionalRegex(issues, body, 'includePatterns'),
				excludePatterns: optionalRegex(issues, body, 'excludePatterns'),
			};
			for (const [key, value] of Object.entries(sent)) if (value !== undefined) Object.assign(map, { [key]: value });
		}
		if (scraperId === undefined || url === undefined) return undefined;
		return { scraperId, url, map };
	}

	/**
	 * One synchronous scrape of `url` by `scraper` at instant `at`, stored as a result of `type`: a `sim-fail` URL gives
	 * a `Failed` record; a URL the scraper already scraped reuses the cache (fewer tokens, faster).
	 */
	private scrape(
		{ user, token }: Caller,
		scraper: StoredScraper,
		url: string,
		type: 'Rerun-AI' | 'Rerun-Manual',
		at: number,
		map: MapOptions = MAP_DEFAULTS,
	): StoredResult {
		const cacheKey = `${scraper.id}|${normaliseUrl(url)}`;
		const failure = failureFor(url);
		const cost = scrapeCost('rerun', url, this.rerunCache.has(cacheKey));
		let data: unknown = null;
		if (!failure) data = type === 'Rerun-AI' ? extract(scraper.agent ?? 'general', url, scraper.prompt ?? '', map) : generalFields(url);
		if (!failure) this.rerunCache.add(cacheKey);
		return this.insertResult({
			id: this.uuid(),
			userId: user.id,
			scraperId: scraper.id,
			type,
			url,
			createdAt: at,
			updatedAt: at,
			status: failure ? 'Failed' : 'Finished',
			error: failure ?? null,
			tokenUsage: failure ? 0 : cost.tokenUsage,
			runtime: cost.runtime,
			data,
			html: failure ? '' : renderHtml(url),
			tokenName: token.name,
			proxyUsername: this.proxyFor(user, url),
		});
	}

	/** Both bulk starts: body (422), scraper of the right kind (404/403/422), then the job, answered per `bulkStartAnswer`. */
	private bulkRerun(req: SimRequest, caller: Caller, kind: ScraperKind): SimReply {
		const issues = new Issues();
		const body = bodyObject(req, issues);
		if (!issues.ok) return validationFailed(issues.list);
		const started = this.startBulkJob(body, caller, kind);
		if ('error' in started) return started.error;
		const record = started.record;
		let data: BulkStartData = record;
		if (this.options.bulkStartAnswer === 'bulkResultId') data = omit(record, 'id');
		else if (this.options.bulkStartAnswer === 'bulkResultIdOnly') data = { bulkResultId: record.bulkResultId };
		return ok('Bulk rerun started successfully', data, this.options.bulkStartStatus);
	}

	/** Shared by the bulk endpoints and `startBulk`: validation (422), scraper ownership and kind, then the job. */
	private startBulkJob(body: Record<string, unknown>, caller: Caller, kind: ScraperKind): { error: SimReply } | { record: BulkStartRecord } {
		const issues = new Issues();
		const scraperId = requireUuid(issues, body, 'scraperId');
		const urls = requireUrlArray(issues, body, 'urls');
		if (!issues.ok || scraperId === undefined || urls === undefined) return { error: validationFailed(issues.list) };

		const scraper = this.ownScraper(scraperId, caller.user, kind);
		if ('status' in scraper) return { error: scraper };

		const now = this.clock.now();
		const stored = this.insertBulkJob(caller, scraper.id, urls, now);
		const record = omit(detailRecord<BulkData>(live(stored, now)), 'screenshotPath', 'htmlContent');
		return { record: { ...record, curl: pageCurl(urls[0]), bulkResultId: record.id } };
	}

	/** A `Bulk-AI` record whose job started at `at` (in the past for demo data: then it is already done). */
	private insertBulkJob({ user, token }: Caller, scraperId: string, urls: string[], at: number): StoredResult {
		return this.insertResult({
			id: this.uuid(),
			userId: user.id,
			scraperId,
			type: 'Bulk-AI',
			url: urls[0],
			createdAt: at,
			updatedAt: at,
			status: 'Running',
			error: null,
			tokenUsage: 0,
			runtime: 0,
			data: null,
			html: null,
			tokenName: token.name,
			proxyUsername: this.proxyFor(user, urls[0]),
			bulk: createBulkJob(urls, at, this.options.bulkUrlDurationMs, Math.max(1, this.options.bulkConcurrency)),
		});
	}

	/**
	 * `scrapers-bulks/{scraperId}/cancel`: the path id is the scraper's (as the interface names it). Cancels the still
	 * Pending URLs of every bulk job of that scraper (manual or AI bulk); `bulkUrls` lists all their URLs in job creation
	 * order. A scraper without bulk jobs answers empty lists. Unknown or someone else's scraper: 404 (403 is not
	 * documented for cancel).
	 */
	private cancelScraperBulks(req: SimRequest, { user }: Caller): SimReply {
		const id = req.params.scraperId;
		if (!isUuid(id)) return validationFailed([{ field: 'scraperId', rule: 'isUuid', message: 'scraperId must be a UUID' }]);
		const scraper = this.scrapers.get(id);
		if (!scraper || scraper.userId !== user.id) return notFound();
		const now = this.clock.now();
		// Insertion order breaks createdAt ties (the sort is stable).
		const jobs = this.userResults(user)
			.filter((r): r is StoredResult & { bulk: BulkJob } => r.scraperId === id && r.bulk !== undefined)
			.sort((a, b) => a.createdAt - b.createdAt);
		const result: CancelBulkResult = {
			id,
			bulkUrls: jobs.flatMap((job) => job.bulk.urls),
			canceledUrls: jobs.flatMap((job) => cancelBulkJob(job.bulk, now)),
		};
		return ok('Bulk rerun canceled successfully', result);
	}

	/** `scrapers-bulks/result/{resultId}/cancel`: one bulk job by its record id. Someone else's or not a bulk job: 404. */
	private cancelBulkResult(req: SimRequest, { user }: Caller): SimReply {
		const id = req.params.resultId;
		if (!isUuid(id)) return validationFailed([{ field: 'resultId', rule: 'isUuid', message: 'resultId must be a UUID' }]);
		const stored = this.results.get(id);
		if (!stored || !stored.bulk || stored.userId !== user.id) return notFound();
		const canceledUrls = cancelBulkJob(stored.bulk, this.clock.now());
		const result: CancelBulkResult = { id: stored.id, bulkUrls: [...stored.bulk.urls], canceledUrls };
		return ok('Bulk rerun canceled successfully', result);
	}

	private listResults(req: SimRequest, { user }: Caller): SimReply {
		const issues = new Issues();
		const query = parseResultsQuery(req.query, issues);
		if (!query) return validationFailed(issues.list);
		const now = this.clock.now();
		const { page, total } = queryResults(
			this.userResults(user).map((r) => live(r, now)),
			query,
		);
		return {
			status: 200,
			json: {
				message: 'Results retrieved successfully',
				data: page.map(listedRecord),
				meta: { page: query.page, pageSize: query.pageSize, total, totalPage: Math.ceil(total / query.pageSize) },
			},
		};
	}

	private getResult(req: SimRequest, { user }: Caller): SimReply {
		const stored = this.results.get(req.params.id);
		if (!stored || stored.userId !== user.id) return notFound();
		return ok('Result retrieved successfully', detailRecord(live(stored, this.clock.now())));
	}

	private analytics(req: SimRequest, { user }: Caller): SimReply {
		const domain = req.query.get('domain');
		if (domain === null || domain.trim() === '') return badRequest('domain is required');
		const window = parseWindow(req.query);
		if ('status' in window) return window;
		const now = this.clock.now();
		const summary = analyticsSummary(
			this.userResults(user).map((r) => live(r, now)),
			{
				domain,
				window,
				action: req.query.get('action') || undefined,
				apiTokenName: req.query.get('apiTokenName') || undefined,
			},
		);
		return ok('Analytics retrieved successfully', summary);
	}

	private bandwidth(req: SimRequest, { user }: Caller): SimReply {
		const window = parseWindow(req.query);
		if ('status' in window) return window;
		const now = this.clock.now();
		const rows = proxyBandwidth(
			user.proxyUsernames,
			this.userResults(user).map((r) => live(r, now)),
			window,
		);
		return ok('Proxy bandwidth retrieved successfully', rows);
	}
}
