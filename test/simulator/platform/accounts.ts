/**
 * Users, their subscription accounts and their named API tokens. Token values are plain words on purpose:
 * they are test fixtures, never secrets.
 */

/** A full user: may create, rerun and bulk-rerun AI scrapers. Owns the demo scrapers. */
export const PLATFORM_DEMO_TOKEN = 'sim-platform-demo-token';
/** A second token of the demo user, named differently (for the analytics `apiTokenName` filter). */
export const PLATFORM_DEMO_REPORTING_TOKEN = 'sim-platform-demo-reporting-token';
/** A valid token whose account lacks the AI-scraper and bulk permissions: 403 on scrapers-ai, rerun and bulk. */
export const PLATFORM_RESTRICTED_TOKEN = 'sim-platform-restricted-token';
/** A second full user; its scrapers are someone else's to the demo user (403), its results invisible (404). */
export const PLATFORM_OTHER_USER_TOKEN = 'sim-platform-other-user-token';
/** A token of the demo user past its expiration date: 401 `Unauthorized access`. */
export const PLATFORM_EXPIRED_TOKEN = 'sim-platform-expired-token';

export const PLATFORM_DEMO_TOKEN_NAME = 'demo';
export const PLATFORM_DEMO_REPORTING_TOKEN_NAME = 'reporting';

export interface ApiToken {
	value: string;
	/** The descriptive name chosen at creation; analytics filter by it. */
	name: string;
	createdAt: number;
	/** Epoch ms; no expiry when undefined. */
	expiresAt?: number;
}

/**
 * The account's plan. Not in any answer (the subscription account shows no plan); it sets the default concurrency
 * limit (`../core/concurrency.ts`: free 10, pro 100, enterprise 100).
 */
export type PlatformPlan = 'free' | 'pro' | 'enterprise';

export interface PlatformUser {
	id: string;
	accountId: string;
	name: string;
	email: string;
	permissions: { aiScrapers: boolean; bulkRerun: boolean };
	/** Per-account overrides; the simulator's options apply when undefined. */
	rateLimit?: number;
	rateTtl?: number;
	plan: PlatformPlan;
	/** Requests in flight at once; when undefined, the simulator's `concurrencyLimit` option, else the plan's default. */
	concurrencyLimit?: number;
	tokenLimit: number;
	/**
	 * A token limit set by `setAccountLimits`: reported as `tokenLimit` and enforced (403 `Token limit exceeded` on the
	 * token-spending endpoints once `tokenUsage` reaches it). The seeded plans' limits are reported only, so tests and
	 * demos that run thousands of scrapes never reach them.
	 */
	enforcedTokenLimit?: number;
	billingSubscriptionId: string;
	billingStatus: string;
	endsAt: string;
	isEnterprise: boolean;
	isAutoRenew: boolean;
	proxyUsernames: string[];
	tokens: ApiToken[];
}

export type TokenCheck =
	| { kind: 'ok'; user: PlatformUser; token: ApiToken }
	| { kind: 'expired' }
	| { kind: 'unknown' };

export class AccountStore {
	readonly users: PlatformUser[] = [];
	private readonly byToken = new Map<string, { user: PlatformUser; token: ApiToken }>();

	constructor(now: number) {
		const demo = this.addUser({
			id: '5d0c2b8e-3f4a-4c61-9b1e-7a2f0d9c4e11',
			accountId: 'a1e7c3d2-6b5f-4e08-8c9d-2f1b0a3e5d21',
			name: 'Demo User',
			email: 'demo@example.com',
			permissions: { aiScrapers: true, bulkRerun: true },
			plan: 'pro',
			tokenLimit: 1_000_000,
			billingSubscriptionId: 'billing_sub_demo',
			billingStatus: 'active',
			endsAt: '2099-12-31T23:59:59.000Z',
			isEnterprise: false,
			isAutoRenew: true,
			proxyUsernames: ['demo-residential', 'demo-datacenter'],
			tokens: [],
		});
		this.addToken(demo, { value: PLATFORM_EXPIRED_TOKEN, name: 'old', createdAt: now - 90 * 86_400_000, expiresAt: now - 86_400_000 });
		this.addToken(demo, { value: PLATFORM_DEMO_REPORTING_TOKEN, name: PLATFORM_DEMO_REPORTING_TOKEN_NAME, createdAt: now - 1_000 });
		this.addToken(demo, { value: PLATFORM_DEMO_TOKEN, name: PLATFORM_DEMO_TOKEN_NAME, createdAt: now });

		const restricted = this.addUser({
			id: '8b3f1e27-94c0-4d5a-a6e2-0c7d8f1b2a31',
			accountId: 'c4d2e1f0-7a8b-4c9d-9e0f-1a2b3c4d5e41',
			name: 'Restricted User',
			email: 'restricted@example.com',
			permissions: { aiScrapers: false, bulkRerun: false },
			plan: 'free',
			tokenLimit: 10_000,
			billingSubscriptionId: 'billing_sub_restricted',
			billingStatus: 'active',
			endsAt: '2099-12-31T23:59:59.000Z',
			isEnterprise: false,
			isAutoRenew: false,
			proxyUsernames: ['restricted-residential'],
			tokens: [],
		});
		this.addToken(restricted, { value: PLATFORM_RESTRICTED_TOKEN, name: 'read-only', createdAt: now });

		const other = this.addUser({
			id: 'e2a9d6c1-5b7f-4a3e-8d0c-6f4e2b1a9c51',
			accountId: 'f7e6d5c4-b3a2-4918-8765-4321fedcba61',
			name: 'Other User',
			email: 'other@example.com',
			permissions: { aiScrapers: true, bulkRerun: true },
			plan: 'enterprise',
			tokenLimit: 5_000_000,
			billingSubscriptionId: 'billing_sub_other',
			billingStatus: 'active',
			endsAt: '2099-12-31T23:59:59.000Z',
			isEnterprise: true,
			isAutoRenew: true,
			proxyUsernames: ['other-residential', 'other-datacenter', 'other-mobile'],
			tokens: [],
		});
		this.addToken(other, { value: PLATFORM_OTHER_USER_TOKEN, name: 'production', createdAt: now });
	}

	private addUser(user: PlatformUser): PlatformUser {
		this.users.push(user);
		return user;
	}

	addToken(user: PlatformUser, token: ApiToken): void {
		if (this.byToken.has(token.value)) throw new Error(`platform simulator: token already exists`);
		user.tokens.push(token);
		this.byToken.set(token.value, { user, token });
	}

	check(value: string | undefined, now: number): TokenCheck {
		if (!value) return { kind: 'unknown' };
		const found = this.byToken.get(value);
		if (!found) return { kind: 'unknown' };
		if (found.token.expiresAt !== undefined && found.token.expiresAt <= now) return { kind: 'expired' };
		return { kind: 'ok', ...found };
	}

	/** For control methods: the user and token behind a token value, whatever its expiry; throws when unknown. */
	require(value: string): { user: PlatformUser; token: ApiToken } {
		const found = this.byToken.get(value);
		if (!found) throw new Error(`platform simulator: unknown token`);
		return found;
	}

	/** The most recently created token of a user (what `latestApiToken` describes). */
	latestToken(user: PlatformUser): ApiToken {
		return user.tokens.reduce((latest, t) => (t.createdAt >= latest.createdAt ? t : latest));
	}
}

/** First four characters and an ellipsis: enough to recognise a token, never enough to use it. */
export function maskToken(value: string): string {
	return `${value.slice(0, 4)}…`;
}
