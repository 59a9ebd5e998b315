import type { INode } from 'n8n-workflow';

import { pause } from '../../../../nodes/shared/execution/pause';
import { budgetRefusal, firstLine, mayHaveBeenCharged, paymentNotAccepted, signingRefusal, statusError, unreachable } from './errors';
import type { SpendLedger } from './ledger';
import { decodeSettlement, toReceipt } from './receipt';
import type { RequirementCache, KnownRequirement } from './requirementCache';
import { decodePaymentRequired } from './requirements';
import type { GatewayResult, PaidRequest, Send } from './request';
import type { PaymentSigner, SignedPayment } from './signer';
import type { HttpAnswer, HttpFailure, HttpOutcome } from '../transport';

/** What a paid call needs: the signer, the books it keeps, where it sends, and where a changed price is learned. */
export interface PaidCallDeps {
	node: INode;
	signer: PaymentSigner;
	ledger: SpendLedger;
	/** Most the execution may spend, atomic units; undefined = no limit beyond the per-request cap. */
	maxTotalSpend: bigint | undefined;
	send: Send;
	requirements: RequirementCache;
	/** The execution's cancel signal: a stopped execution resends nothing. */
	signal?: AbortSignal;
	/** Pause before the one resend of a payment whose outcome is unknown, ms (default RESEND_PAUSE_MS). */
	resendPauseMs?: number;
}

/** Long enough for a gateway to finish recording the answer of a payment it settled as the connection dropped. */
export const RESEND_PAUSE_MS = 1_000;

/**
 * Paid calls: reserve the price in the ledger, sign, send, and read the answer. The ledger is released only where
 * money certainly did not move (never sent, 402, 400) and committed everywhere else, once per item. A signed payment
 * is sent a second time only with a payment identifier, which the gateway answers from its cache without charging
 * again, and only when the first sending's outcome is unknown.
 */
export class PaidCaller {
	constructor(private readonly deps: PaidCallDeps) {}

	/**
	 * Pays `known` for `request`, with `paymentId` when the gateway advertises the extension. A 402 with a new
	 * requirement is learned and paid once more (`mayRefresh`).
	 */
	async pay(request: PaidRequest, known: KnownRequirement, paymentId: string, mayRefresh = true): Promise<GatewayResult> {
		const signed = await this.reserveAndSign(request, known, paymentId);
		const headers = { 'PAYMENT-SIGNATURE': signed.header };
		const outcome = await this.deps.send(request, headers);
		const unknown = unknownOutcome(outcome);
		if (unknown === undefined || signed.paymentId === undefined) {
			if (!outcome.ok) throw this.lost(request, signed, outcome.failure);
			return await this.read(request, signed, outcome.answer, paymentId, mayRefresh);
		}
		// The same payment and identifier once more: the gateway answers it from its cache if it settled the first.
		await pause(this.deps.resendPauseMs ?? RESEND_PAUSE_MS, this.deps.signal);
		if (this.deps.signal?.aborted) throw this.unresolved(request, signed, `${unknown}; the execution was stopped before the resend`);
		const again = await this.deps.send(request, headers);
		if (again.ok && again.answer.status >= 200 && again.answer.status < 300) return this.paid(signed, again.answer);
		const settlement = again.ok ? decodeSettlement(again.answer.headers['payment-response']) : undefined;
		if (again.ok && settlement?.success) {
			this.deps.ledger.commit(signed.amount);
			throw statusError(this.deps.node, request, again.answer, toReceipt(signed, settlement));
		}
		const second = again.ok ? answerCause(again.answer) : again.failure.cause;
		throw this.unresolved(request, signed, `${unknown}, and ${second} when resent once with the same payment identifier`, true);
	}

	/** Reserves the price, then signs; a refusal of either leaves the ledger as it was. */
	private async reserveAndSign(request: PaidRequest, known: KnownRequirement, paymentId: string): Promise<SignedPayment> {
		const { node, ledger, signer } = this.deps;
		const amount = BigInt(known.requirement.amount);
		const overBudget = ledger.reserve(amount, this.deps.maxTotalSpend, request.unit);
		if (overBudget) throw budgetRefusal(node, request, overBudget);
		let signed: SignedPayment | undefined;
		let failure: unknown;
		try {
			signed = await signer.sign(known.requirement, known.resource, known.paymentId && { advert: known.paymentId, id: paymentId });
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
		return this.unresolved(request, signed, failure.cause);
	}

	/** The payment's outcome stays unknown: it counts as spent, and the error says how to check it. */
	private unresolved(request: PaidRequest, signed: SignedPayment, cause: string, resent = false): Error {
		this.deps.ledger.commit(signed.amount);
		return mayHaveBeenCharged(this.deps.node, request, signed, cause, resent);
	}

	/** A 2xx to a sent payment: spent, with the receipt. */
	private paid(signed: SignedPayment, answer: HttpAnswer): GatewayResult {
		this.deps.ledger.commit(signed.amount);
		const settlement = decodeSettlement(answer.headers['payment-response']);
		return { body: answer.json, receipt: toReceipt(signed, settlement), settlement, nonce: signed.nonce, decoded: answer.decoded };
	}

	/** The answer to a payment sent once, and what it means for the ledger. */
	private async read(request: PaidRequest, signed: SignedPayment, answer: HttpAnswer, paymentId: string, mayRefresh: boolean): Promise<GatewayResult> {
		const { node, ledger } = this.deps;
		if (answer.status >= 200 && answer.status < 300) return this.paid(signed, answer);
		const settlement = decodeSettlement(answer.headers['payment-response']);
		if (answer.status === 402) {
			// The payment was not accepted or not settled: nothing was charged.
			ledger.release(signed.amount, request.unit);
			const fresh = decodePaymentRequired(answer.headers['payment-required']);
			if (mayRefresh && fresh) return await this.pay(request, this.deps.requirements.learn(request, answer), paymentId, false);
			throw paymentNotAccepted(node, request, signed, firstLine(fresh?.error ?? settlement?.errorMessage ?? settlement?.errorReason ?? 'no reason given'));
		}
		if (answer.status === 400) {
			// Invalid input is rejected before payment.
			ledger.release(signed.amount, request.unit);
			throw statusError(node, request, answer, undefined);
		}
		// Any other answer: charged if the gateway says it settled, otherwise unknown.
		if (settlement?.success) {
			ledger.commit(signed.amount);
			throw statusError(node, request, answer, toReceipt(signed, settlement));
		}
		throw this.unresolved(request, signed, answerCause(answer));
	}
}

/** "the gateway answered with status 503": how an answer that settles nothing is named in errors. */
function answerCause(answer: HttpAnswer): string {
	return `the gateway answered with status ${answer.status}`;
}

/**
 * Why the outcome of a sent payment is unknown, when it is one a payment identifier resolves: no answer after the
 * request left this machine (reset, deadline), or a 5xx that reports no settlement. Undefined otherwise.
 */
function unknownOutcome(outcome: HttpOutcome): string | undefined {
	if (!outcome.ok) return outcome.failure.neverSent ? undefined : outcome.failure.cause;
	const { answer } = outcome;
	if (answer.status < 500 || decodeSettlement(answer.headers['payment-response'])?.success !== undefined) return undefined;
	return answerCause(answer);
}
