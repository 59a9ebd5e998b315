import type { INode } from 'n8n-workflow';

import type { SpendLedger } from './ledger';
import { PAID_ITEMS } from './paidItems';
import { derivePaymentId } from './paymentId';
import type { PaymentIdParts } from './paymentId';
import { GatewayPayments } from './payments';
import { RequirementCache } from './requirementCache';
import { chooseRequirement, MAX_TIMEOUT_SECONDS } from './requirements';
import type { PaymentPolicy } from './requirements';
import { sendTo } from './request';
import { PaymentSigner } from './signer';
import type { Wallet } from './wallet';

/** The parts of a payment identifier shared by every item of one call of the node (see `derivePaymentId`). */
export type PaymentIdScope = Pick<PaymentIdParts, 'execution' | 'nodeId' | 'runIndex'>;

interface CallPaymentOptions {
	/** Most the execution may spend in total, atomic units; undefined = no limit beyond the per-request cap. */
	maxTotalSpend?: bigint;
	/** The execution's cancel signal: the price request's retries end on it, and nothing is signed after it. */
	signal?: AbortSignal;
	/** Where this call of the node stands in its execution, the parts of each item's payment identifier. */
	paymentIdScope: PaymentIdScope;
}

/**
 * The payments of one call of the node from `wallet`: its gateway, its policy (the credential's network, token, payee,
 * price cap, and an authorization valid for at most an hour), its signer, and `ledger`, the execution's spend shared
 * by every call of the node (see `SpendRegistry`).
 */
export function paymentsFor(node: INode, wallet: Wallet, ledger: SpendLedger, options: CallPaymentOptions): GatewayPayments {
	const policy: PaymentPolicy = {
		network: wallet.network,
		asset: wallet.tokenAddress,
		maxAmount: wallet.maxAmount,
		payTo: wallet.payTo,
		maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
	};
	const signer = new PaymentSigner(wallet.account, wallet.network, wallet.tokenAddress, wallet.maxAmount);
	return new GatewayPayments({
		node,
		send: sendTo(wallet.baseUrl),
		prices: new RequirementCache(node, (offer) => chooseRequirement(offer, policy)),
		ledger,
		maxTotalSpend: options.maxTotalSpend,
		sign: async (requirement, resource, paymentId) => await signer.sign(requirement, resource, paymentId),
		paymentId: ({ itemIndex, path, body }) => derivePaymentId({ ...options.paymentIdScope, itemIndex, payer: wallet.address, path, body }),
		signal: options.signal,
		paidItems: PAID_ITEMS,
	});
}
