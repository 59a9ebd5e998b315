import type { INode } from 'n8n-workflow';

import { budgetRefusal, firstLine, mayHaveBeenCharged, paymentNotAccepted, signingRefusal, statusError, unreachable } from './errors';
import type { SpendLedger } from './ledger';
import { decodeSettlement, toReceipt } from './receipt';
import type { RequirementCache, KnownRequirement } from './requirementCache';
import { decodePaymentRequired } from './requirements';
import type { GatewayResult, PaidRequest, Send } from './request';
import type { PaymentSigner, SignedPayment } from './signer';
import type { HttpAnswer, HttpFailure } from '../transport';

/** What a paid call needs: the signer, the books it keeps, where it sends, and where a changed price is learned. */
export interface PaidCallDeps {
	node: INode;
	signer: PaymentSigner;
	ledger: SpendLedger;
	/** Most the execution may spend, atomic units; undefined = no limit beyond the per-request cap. */
	maxTotalSpend: bigint | undefined;
	send: Send;
	requirements: RequirementCache;
}

/**
 * Paid calls: reserve the price in the ledger, sign, send once, and read the answer. The ledger is released only
 * where money certainly did not move (never sent, 402, 400) and committed everywhere else; a signed payment is
 * never sent twice.
 */
export class PaidCaller {
	constructor(private readonly deps: PaidCallDeps) {}

	/** Pays `known` for `request`. A 402 with a new requirement is learned and paid once more (`mayRefresh`). */
	async pay(request: PaidRequest, known: KnownRequirement, mayRefresh = true): Promise<GatewayResult> {
		const signed = await this.reserveAndSign(request, known);
		const outcome = await this.deps.send(request, { 'PAYMENT-SIGNATURE': signed.header });
		if (!outcome.ok) throw this.lost(request, signed, outcome.failure);
		return await this.read(request, signed, outcome.answer, mayRefresh);
	}

	/** Reserves the price, then signs; a refusal of either leaves the ledger as it was. */
	private async reserveAndSign(request: PaidRequest, known: KnownRequirement): Promise<SignedPayment> {
		const { node, ledger, signer } = this.deps;
		const amount = BigInt(known.requirement.amount);
		const overBudget = ledger.reserve(amount, this.deps.maxTotalSpend, request.unit);
		if (overBudget) throw budgetRefusal(node, request, overBudget);
		let signed: SignedPayment | undefined;
		let failure: unknown;
		try {
			signed = await signer.sign(known.requirement, known.resource);
		} catch (error) {
			failure = error;
		}
		if (signed) return signed;
		ledger.release(amount, request.unit);
		throw signingRefusal(node, request, failure);
	}

	/** No answer to a sent payment: released if it never left this machine, otherwise it may have been charged. */
	private lost(request: PaidRequest, signed: SignedPayment, failure: HttpFailure): Error {
		if (failure.neverSent) {
			this.deps.ledger.release(signed.amount, request.unit);
			return unreachable(this.deps.node, request, failure);
		}
		this.deps.ledger.commit(signed.amount);
		return mayHaveBeenCharged(this.deps.node, request, signed, failure.cause);
	}

	/** The answer to a sent payment, and what it means for the ledger. */
	private async read(request: PaidRequest, signed: SignedPayment, answer: HttpAnswer, mayRefresh: boolean): Promise<GatewayResult> {
		const { node, ledger } = this.deps;
		const settlement = decodeSettlement(answer.headers['payment-response']);
		if (answer.status >= 200 && answer.status < 300) {
			ledger.commit(signed.amount);
			return { body: answer.json, receipt: toReceipt(signed, settlement), settlement, nonce: signed.nonce, decoded: answer.decoded };
		}
		if (answer.status === 402) {
			// The payment was not accepted or not settled: nothing was charged.
			ledger.release(signed.amount, request.unit);
			const fresh = decodePaymentRequired(answer.headers['payment-required']);
			if (mayRefresh && fresh) return await this.pay(request, this.deps.requirements.learn(request, answer), false);
			throw paymentNotAccepted(node, request, signed, firstLine(fresh?.error ?? settlement?.errorMessage ?? settlement?.errorReason ?? 'no reason given'));
		}
		if (answer.status === 400) {
			// Invalid input is rejected before payment.
			ledger.release(signed.amount, request.unit);
			throw statusError(node, request, answer, undefined);
		}
		// Any other answer: charged if the gateway says it settled, otherwise unknown.
		ledger.commit(signed.amount);
		if (settlement?.success) throw statusError(node, request, answer, toReceipt(signed, settlement));
		throw mayHaveBeenCharged(node, request, signed, `the gateway answered with status ${answer.status}`);
	}
}
