import type { INode } from 'n8n-workflow';

import { statusError, unreachable } from './errors';
import type { SpendLedger } from './ledger';
import { PaidCaller } from './paidCall';
import { RequirementCache } from './requirementCache';
import type { Discovery } from './requirementCache';
import { MAX_TIMEOUT_SECONDS } from './requirements';
import { sendTo } from './request';
import type { GatewayResult, PaidRequest, Send } from './request';
import { PaymentSigner } from './signer';
import type { Wallet } from './wallet';

export interface SessionOptions {
	/** Most the execution may spend in total, atomic units; undefined = no limit beyond the per-request cap. */
	maxTotalSpend?: bigint;
}

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

	/** `ledger`: the spend of this node in this execution, shared by every run of it (see `ledgerFor`). */
	constructor(
		private readonly node: INode,
		wallet: Wallet,
		ledger: SpendLedger,
		options: SessionOptions = {},
	) {
		this.send = sendTo(wallet.baseUrl);
		this.requirements = new RequirementCache(node, {
			network: wallet.network,
			asset: wallet.tokenAddress,
			maxAmount: wallet.maxAmount,
			payTo: wallet.payTo,
			maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
		});
		const signer = new PaymentSigner(wallet.account, wallet.network, wallet.tokenAddress, wallet.maxAmount);
		const { send, requirements } = this;
		this.caller = new PaidCaller({ node, signer, ledger, maxTotalSpend: options.maxTotalSpend, send, requirements });
	}

	/**
	 * POSTs the request's body to its path on the gateway and pays for it. The first call of a run goes unpaid and
	 * learns the requirement from the 402; later calls (and parallel calls waiting for that first answer) carry
	 * a payment signed from the known requirement.
	 */
	async post(request: PaidRequest): Promise<GatewayResult> {
		const found = await this.requirements.requirementFor(request.path, () => this.discover(request));
		if (found.kind === 'free') return { body: found.answer.json, receipt: null, decoded: found.answer.decoded };
		return await this.caller.pay(request, found.known);
	}

	/** The unpaid first request: its 402 names the price. Nothing is signed here. */
	private async discover(request: PaidRequest): Promise<Discovery> {
		const outcome = await this.send(request, {});
		if (!outcome.ok) throw unreachable(this.node, request, outcome.failure);
		const answer = outcome.answer;
		if (answer.status === 402) return { kind: 'required', known: this.requirements.learn(request, answer) };
		if (answer.status >= 200 && answer.status < 300) return { kind: 'free', answer };
		throw statusError(this.node, request, answer, undefined);
	}
}
