/**
 * The platform simulator's state: accounts, scrapers and results (in memory), generated ids, and what the accounts
 * spent and may spend (tokens, concurrency). The routes, the control methods and the hosts of their own share it.
 */
import type { SimClock } from '../core/clock';
import { planConcurrency } from '../core/concurrency';
import type { SimReply } from '../core/http';
import { SeededRandom, hashString } from '../core/random';
import { AccountStore, type PlatformUser } from './accounts';
import { forbidden, notFound, validationFailed } from './errors';
import type { PlatformSettings } from './options';
import { live, type LiveResult, type StoredResult, type StoredScraper } from './store';

/** The kind of scraper an endpoint takes: `ai` (made by scrapers-ai) or `manual`. */
export type ScraperKind = StoredScraper['kind'];

export class PlatformState {
	readonly accounts: AccountStore;
	readonly scrapers = new Map<string, StoredScraper>();
	readonly results = new Map<string, StoredResult>();
	/** `scraperId|url` pairs a rerun has already scraped: later reruns reuse the cache (fewer tokens, faster). */
	readonly rerunCache = new Set<string>();
	/** Tokens each user spent on the hosts of their own (page fetch, Google search), by user id. */
	readonly spentTokens = new Map<string, number>();
	private readonly random: SeededRandom;

	constructor(
		readonly clock: SimClock,
		/** Mutable: new requests, new bulk jobs and unconfigured accounts pick up changes. */
		readonly options: PlatformSettings,
		seed: string,
	) {
		this.random = new SeededRandom(`${seed}-ids`);
		this.accounts = new AccountStore(clock.now());
	}

	/** A random (seeded) version 4 UUID. */
	uuid(): string {
		let hex = '';
		for (let i = 0; i < 32; i++) hex += Math.floor(this.random.next() * 16).toString(16);
		const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
		return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
	}

	userOf(token: string): PlatformUser {
		return this.accounts.require(token).user;
	}

	insertResult(result: StoredResult): StoredResult {
		this.results.set(result.id, result);
		return result;
	}

	/** Which of the account's proxy usernames a scrape of this URL goes through (stable per URL). */
	proxyFor(user: PlatformUser, url: string): string {
		return user.proxyUsernames[hashString(url) % user.proxyUsernames.length];
	}

	userResults(user: PlatformUser): StoredResult[] {
		return [...this.results.values()].filter((r) => r.userId === user.id);
	}

	/** The user's results as they stand now (bulk progress resolved). */
	liveResults(user: PlatformUser): LiveResult[] {
		const now = this.clock.now();
		return this.userResults(user).map((r) => live(r, now));
	}

	/** Tokens the account has spent: every result's `tokenUsage`, bulk jobs as they stand now, and its fetches and searches. */
	tokenUsage(user: PlatformUser): number {
		const now = this.clock.now();
		return this.userResults(user).reduce((sum, r) => sum + live(r, now).tokenUsage, 0) + (this.spentTokens.get(user.id) ?? 0);
	}

	/** Only a limit set by `setAccountLimits` is enforced (and only then is the usage summed per request). */
	tokenLimitReached(user: PlatformUser): boolean {
		return user.enforcedTokenLimit !== undefined && this.tokenUsage(user) >= user.enforcedTokenLimit;
	}

	/** The account's concurrency limit: its own, else the simulator's `concurrencyLimit`, else its plan's. */
	concurrencyLimitOf(user: PlatformUser): number {
		return user.concurrencyLimit ?? this.options.concurrencyLimit ?? planConcurrency(user.plan);
	}

	/** Looks up a scraper for the caller: 404 when unknown, 403 when someone else's, 422 when of the wrong kind. */
	ownScraper(id: string, user: PlatformUser, kind: ScraperKind): StoredScraper | SimReply {
		const scraper = this.scrapers.get(id);
		if (!scraper) return notFound();
		if (scraper.userId !== user.id) return forbidden();
		if (scraper.kind !== kind) {
			const what = kind === 'ai' ? 'an AI scraper (made by scrapers-ai)' : 'a manual scraper';
			return validationFailed([{ field: 'scraperId', rule: kind === 'ai' ? 'isAiScraper' : 'isManualScraper', message: `scraperId must be ${what}` }]);
		}
		return scraper;
	}
}
