/** The platform's account route: GET `subscription-accounts` (plan limits, usage so far, the masked latest token). */
import type { SimReply } from '../../core/http';
import type { SimServer } from '../../core/server';
import { maskToken } from '../accounts';
import type { PlatformState } from '../state';
import type { SubscriptionAccount } from '../types';
import { ok, type Caller, type Guard } from './guard';

/** The billing fields under the names the simulator is set to give (`accountBillingNames`). */
function billingFields(state: PlatformState, subscriptionId: string, status: string): Pick<SubscriptionAccount, 'billingSubscriptionId' | 'billingStatus' | 'stripeSubscriptionId' | 'stripeStatus'> {
	return state.options.accountBillingNames === 'stripe'
		? { stripeSubscriptionId: subscriptionId, stripeStatus: status }
		: { billingSubscriptionId: subscriptionId, billingStatus: status };
}

function subscriptionAccount(state: PlatformState, { user }: Caller): SimReply {
	const account: SubscriptionAccount = {
		id: user.accountId,
		userId: user.id,
		tokenLimit: user.enforcedTokenLimit ?? user.tokenLimit,
		tokenUsage: state.tokenUsage(user),
		quantity: 1,
		rateLimit: user.rateLimit ?? state.options.rateLimit,
		rateTtl: user.rateTtl ?? state.options.rateTtl,
		...billingFields(state, user.billingSubscriptionId, user.billingStatus),
		endsAt: user.endsAt,
		isEnterprise: user.isEnterprise,
		isAutoRenew: user.isAutoRenew,
		user: {
			id: user.id,
			name: user.name,
			email: user.email,
			latestApiToken: maskToken(state.accounts.latestToken(user).value),
			isVerified: true,
		},
	};
	return ok('Subscription account retrieved successfully', account);
}

export function registerAccountRoutes(server: SimServer, guard: Guard, state: PlatformState): void {
	server.route('GET', '/api/v1/subscription-accounts', guard({}, (_req, caller) => subscriptionAccount(state, caller)));
}
