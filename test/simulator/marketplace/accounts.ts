/**
 * The marketplace simulator's accounts: the two fixture users with their tokens (test fixtures, never secrets) and
 * the account behind a user id, whose plan sets the default concurrency limit.
 */
import type { MarketplaceAccount } from './types';

/** Token of the demo account (user 1). */
export const MARKETPLACE_DEMO_TOKEN = 'mkt_example_demo_token_4f60a8e2c9b7';
/** Token of a second account (user 2): its scrapers and runs are invisible to the demo account and vice versa. */
export const MARKETPLACE_OTHER_USER_TOKEN = 'mkt_example_other_token_9e7b5d3f1a8c';

/** Accounts of the two fixture users; a token added for another user id gets a plain generated one. */
const FIXTURE_ACCOUNTS: Record<number, Omit<MarketplaceAccount, 'id'>> = {
	1: { name: 'Demo User', email: 'demo@example.com', plan: 'pro', created_at: '2024-01-15T09:30:00.000Z' },
	2: { name: 'Other User', email: 'other@example.com', plan: 'free', created_at: '2024-06-02T14:00:00.000Z' },
};

/** The account of a user id (GET `/api/account`). */
export function accountOf(userId: number): MarketplaceAccount {
	const fixture = FIXTURE_ACCOUNTS[userId] ?? {
		name: `User ${userId}`,
		email: `user${userId}@example.com`,
		plan: 'free',
		created_at: '2025-01-01T00:00:00.000Z',
	};
	return { id: userId, ...fixture };
}
