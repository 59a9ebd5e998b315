import type { INode } from 'n8n-workflow';

import { canceledBeforePayment } from './errors';
import type { SpendLedger } from './ledger';
import { PaidCaller } from './paidCall';
import { derivePaymentId } from './paymentId';
import type { PaymentIdParts } from './paymentId';
import { PriceRequest } from './priceRequest';
import { RequirementCache } from './requirementCache';
import { MAX_TIMEOUT_SECONDS } from './requirements';
import { sendTo } from './request';
import type { GatewayResult, PaidRequest, Send } from './request';
import { PaymentSigner } from './signer';
import type { Wallet } from './wallet';

export interface SessionOptions {
	/** Most the execution may spend in total, atomic units; undefined = no limit beyond the per-request cap. */
	maxTotalSpend?: bigint;
	/** The execution's cancel signal: the price request's retries end on it, and nothing is signed after it. */
	signal?: AbortSignal;
	/** Where this run of the node stands in its execution, the parts of each item's payment identifier. */
	paymentIdScope: PaymentIdScope;
}

/** The parts of a payment identifier shared by every item of one run of the node (see `derivePaymentId`). */
export type PaymentIdScope = Pick<PaymentIdParts, 'execution' | 'nodeId' | 'runIndex'>;

/**
 * The payments of one run of the node against one gateway. It learns the payment requirement from the first
 * 402 and then signs each further call ahead, so a paid item takes one round trip. It checks every requirement
 * against the credential's policy before signing (RequirementCache), keeps the execution's total within the limit
 * and never sends a signed payment twice (PaidCaller).
 */
export class GatewaySession {
	private readonly send: Send;

	private readonly requirements: RequirementCache;

	private readonly caller: PaidCaller;

	private readonly signal: AbortSignal | undefined;

	private readonly paymentIdScope: PaymentIdScope;

	private readonly payer: string;

	/** `ledger`: the spend of this node in this execution, shared by every run of it (see `ledgerFor`). */
	constructor(
		private readonly node: INode,
		wallet: Wallet,
		ledger: SpendLedger,
		options: SessionOptions,
	) {
		this.send = sendTo(wallet.baseUrl);
		this.signal = options.signal;
		this.paymentIdScope = options.paymentIdScope;
		this.payer = wallet.address;
		this.requirements = new RequirementCache(node, {
			network: wallet.network,
			asset: wallet.tokenAddress,
			maxAmount: wallet.maxAmount,
			payTo: wallet.payTo,
			maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
		});
		const signer = new PaymentSigner(wallet.account, wallet.network, wallet.tokenAddress, wallet.maxAmount);
		const { send, requirements } = this;
		this.caller = new PaidCaller({ node, signer, ledger, maxTotalSpend: options.maxTotalSpend, send, requirements, signal: options.signal });
	}

	/**
	 * POSTs the request's body to its path on the gateway and pays for it. The first call of a run goes unpaid and
	 * learns the requirement from the 402 (retried while it spends nothing, see PriceRequest); later calls (and
	 * parallel calls waiting for that first answer) carry a payment signed from the known requirement, sent once.
	 */
	async post(request: PaidRequest): Promise<GatewayResult> {
		const { node, send, requirements, signal } = this;
		const found = await requirements.requirementFor(request.path, async () => await new PriceRequest({ node, send, requirements, signal }, request).run());
		if (found.kind === 'free') return { body: found.answer.json, receipt: null, decoded: found.answer.decoded };
		// A price learned after the Stop button (or while waiting for another item's price) is not paid.
		if (signal?.aborted) throw canceledBeforePayment(node, request);
		const paymentId = derivePaymentId({ ...this.paymentIdScope, itemIndex: request.itemIndex, payer: this.payer, path: request.path, body: request.body });
		return await this.caller.pay(request, found.known, paymentId);
	}
}
