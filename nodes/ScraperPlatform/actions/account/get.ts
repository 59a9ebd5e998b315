import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/execution/operation';
import { readSimplify, simplifyProperties, type RecordFields } from '../../../shared/descriptions/simplify';
import { shownFrom } from '../../../shared/descriptions/collections';
import { platformRequest } from '../../transport/api';
import { PLATFORM_VERSIONS } from '../../versions';

/**
 * The subscription account's 13 top-level fields, as the interface lists them; Simplify keeps the plan and its usage.
 * The billing fields go by the interface's neutral names (the real service says `stripe…`, see `billingNamed`).
 */
const ACCOUNT_FIELDS: RecordFields = {
	id: 'id',
	simplified: ['id', 'tokenLimit', 'tokenUsage', 'quantity', 'rateLimit', 'rateTtl', 'billingStatus', 'endsAt', 'isAutoRenew', 'isEnterprise'],
	all: ['id', 'userId', 'tokenLimit', 'tokenUsage', 'quantity', 'rateLimit', 'rateTtl', 'billingSubscriptionId', 'billingStatus', 'endsAt', 'isEnterprise', 'isAutoRenew', 'user'],
};

/** First four characters and an ellipsis, as the service's dashboard shows a token: an API token never leaves the node whole. */
function maskToken(token: unknown): unknown {
	return typeof token === 'string' && token.length > 4 && !token.endsWith('…') ? `${token.slice(0, 4)}…` : token;
}

/** The account with its user's latest API token masked, whatever the service sends (the interface types it a plain string). */
function withMaskedToken(account: IDataObject): IDataObject {
	const user = account.user;
	if (typeof user !== 'object' || user === null || Array.isArray(user) || !('latestApiToken' in user)) return account;
	return { ...account, user: { ...(user as IDataObject), latestApiToken: maskToken((user as IDataObject).latestApiToken) } };
}

/** The real service's names of the two billing fields (public facts, "Account fields"), by the interface's names. */
const BILLING_NAMES = { billingSubscriptionId: 'stripeSubscriptionId', billingStatus: 'stripeStatus' } as const;

/**
 * The account with its billing fields under the interface's names, whichever the service sent, for what Simplify and
 * an agent's fields pick by those names (the whole answer keeps the service's own names).
 */
function billingNamed(account: IDataObject): IDataObject {
	const named = { ...account };
	for (const [name, sent] of Object.entries(BILLING_NAMES)) if (named[name] === undefined && named[sent] !== undefined) named[name] = named[sent];
	return named;
}

export const accountGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get subscription account',
	description: 'Get the subscription account of the token: plan limits, usage and rate limit. Proves the token works.',
	properties: simplifyProperties(ACCOUNT_FIELDS, shownFrom(PLATFORM_VERSIONS.accountSimplify)),
	async execute(itemIndex, call) {
		const shaping = this.getNode().typeVersion >= PLATFORM_VERSIONS.accountSimplify ? readSimplify(this, itemIndex, ACCOUNT_FIELDS) : undefined;
		const response = await platformRequest(call, { method: 'GET', path: '/api/v1/subscription-accounts', idempotent: true }, itemIndex);
		const account = withMaskedToken(response.data as IDataObject);
		return [{ json: shaping ? shaping(billingNamed(account)) : account }];
	},
};
