import type { INode } from 'n8n-workflow';
import type { PaymentRequirements, ResourceInfo } from '@x402/core/types';

import { pause } from '../../../../nodes/shared/execution/pause';
import { budgetRefusal, canceledBeforePayment, firstLine, mayHaveBeenCharged, notPaidAgain, paymentNotAccepted, signingRefusal, statusError, unreachable } from './errors';
import type { SpendLedger } from './ledger';
import type { PaidItem } from './paidItems';
import { readPaidAnswer, resendable } from './paidAnswer';
import type { PaidAnswer } from './paidAnswer';
import type { PaymentIdAdvert } from './paymentId';
import { PriceRequest } from './priceRequest';
import { toReceipt } from './receipt';
import type { KnownRequirement, RequirementCache } from './requirementCache';
import { decodePaymentRequired } from './requirements';
import type { ProcessMemory } from './processMemory';
import type { GatewayResult, PaidRequest, Send } from './request';
import type { SignedPayment } from './signer';

/** Long enough for a gateway to finish recording the answer of a payment it settled as the connection dropped. */
const RESEND_PAUSE_MS = 1_000;
/** The least validity left for Retry On Fail to resend a payment of unknown outcome. */
const RESEND_VALIDITY_MS = 10_000;

/**
 * What the payments of one call of the node need. The decisions come in as functions and objects, as x402Client takes
 * its policies: which requirement may be signed (`prices`, checked against the credential's policy as it learns
 * them), how much the execution may spend (`ledger` and `maxTotalSpend`), how a payment is signed (`sign`) and which
 * identifier an item's payment carries (`paymentId`).
 */
interface PaymentsDeps {
	node: INode;
	send: Send;
	prices: RequirementCache;
	ledger: SpendLedger;
	/** Most the execution may spend, atomic units; undefined = no limit beyond the per-request cap. */
	maxTotalSpend: bigint | undefined;
	sign: (requirement: PaymentRequirements, resource: ResourceInfo, paymentId?: { advert: PaymentIdAdvert; id: string }) => Promise<SignedPayment>;
	/** The identifier of an item's payment (used when the gateway advertises the extension). */
	paymentId: (request: PaidRequest) => string;
	/** The execution's cancel signal: nothing is signed or resent after it. */
	signal?: AbortSignal;
	/** What became of each item's payment in this process, by its identifier: a retried item is not paid again. */
	paidItems: ProcessMemory<PaidItem>;
	/** Pause before the one resend of a payment whose outcome is unknown, ms (default RESEND_PAUSE_MS). */
	resendPauseMs?: number;
}

/**
 * The payments of one call of the node against one gateway, in the order of x402's own client (wrapFetchWithPayment):
 * send, read the 402, choose, sign, send once, read the receipt. The first call of a path learns its price from an
 * unpaid request; later calls sign ahead, so a paid item takes one round trip. A signed payment is sent a second time
 * only with a payment identifier, when the first sending's outcome is unknown. The ledger is released only where
 * money certainly did not move and committed everywhere else, once per item.
 */
export class GatewayPayments {
	/** The identifiers this call recorded, forgotten when it ends without an error (no retry follows). */
	private readonly recorded = new Set<string>();

	constructor(private readonly deps: PaymentsDeps) {}

	/** POSTs the request's body to its path on the gateway and pays for it, unless this item was paid already. */
	async post(request: PaidRequest): Promise<GatewayResult> {
		const earlier = this.deps.paidItems.get(this.deps.paymentId(request));
		if (earlier) return await this.again(request, earlier);
		const { node, send, prices, signal } = this.deps;
		// 1-3. The price: known for this path, or the unpaid request's 402 read and checked against the policy.
		const found = await prices.requirementFor(request.path, async () => await new PriceRequest({ node, send, requirements: prices, signal }, request).run());
		if (found.kind === 'free') return { body: found.answer.json, receipt: null, decoded: found.answer.decoded };
		// A price learned after the Stop button (or while waiting for another item's price) is not paid.
		if (signal?.aborted) throw canceledBeforePayment(node, request);
		return await this.pay(request, found.known);
	}

	/** 4-6. Signs `known` for `request`, sends it, reads the receipt; a 402 with a new price is paid once more (`mayRefresh`). */
	async pay(request: PaidRequest, known: KnownRequirement, mayRefresh = true): Promise<GatewayResult> {
		const signed = await this.signWithinBudget(request, known);
		const read = await this.deliver(request, signed);
		const { node, ledger } = this.deps;
		switch (read.kind) {
			case 'paid':
			case 'charged':
			case 'unknown':
				ledger.commit(signed.amount);
				return this.settled(request, signed, read);
			case 'unsent':
				ledger.release(signed.amount, request.unit);
				throw unreachable(node, request, read.outcome.failure);
			case 'refused':
				// Not accepted or invalid input: nothing was charged.
				ledger.release(signed.amount, request.unit);
				if (read.answer.status === 400) throw statusError(node, request, read.answer, undefined);
				return await this.refused(request, signed, read, mayRefresh);
		}
	}

	/**
	 * A sending that may have moved money, booked already: the item's result, or its error. Either is recorded, so a
	 * retry of the item in this run gets the same without paying again.
	 */
	private settled(request: PaidRequest, signed: SignedPayment, read: Extract<PaidAnswer, { kind: 'paid' | 'charged' | 'unknown' }> & { resent?: boolean }): GatewayResult {
		const { node } = this.deps;
		if (read.kind === 'paid') {
			const result = { body: read.answer.json, receipt: toReceipt(signed, read.settlement), settlement: read.settlement, nonce: signed.nonce, decoded: read.answer.decoded };
			this.record(request, { kind: 'answered', result });
			return result;
		}
		if (read.kind === 'charged') {
			const error = statusError(node, request, read.answer, toReceipt(signed, read.settlement));
			this.record(request, { kind: 'charged', error });
			throw error;
		}
		this.record(request, { kind: 'unknown', signed, cause: read.cause });
		throw mayHaveBeenCharged(node, request, signed, read.cause, read.resent);
	}

	/**
	 * An item this run already paid, run again by Retry On Fail: its answer again, or its charge reported again, or,
	 * where the outcome is unknown, the very same signed payment resent while valid (with a payment identifier, which
	 * the gateway answers from its records); never a new payment.
	 */
	private async again(request: PaidRequest, earlier: PaidItem): Promise<GatewayResult> {
		const { node, send, signal } = this.deps;
		if (earlier.kind === 'answered') return earlier.result;
		if (earlier.kind === 'charged') throw notPaidAgain(node, request, earlier.error.message);
		const { signed } = earlier;
		// A gateway settles as the request arrives: an authorization about to expire could not be settled anyway.
		const validFor = Number(signed.validBefore) * 1000 - Date.now();
		if (signed.paymentId === undefined || !(validFor > RESEND_VALIDITY_MS) || signal?.aborted) throw mayHaveBeenCharged(node, request, signed, earlier.cause, false, 'retry');
		const read = readPaidAnswer(await send(request, { 'PAYMENT-SIGNATURE': signed.header }), true);
		if (read.kind === 'unknown') throw mayHaveBeenCharged(node, request, signed, `${earlier.cause}, and ${read.cause} when Retry On Fail resent the same payment`, true, 'retry');
		// A resend's answer is paid, charged or unknown: a 402 or 400 to it proves nothing, so it reads as unknown.
		return this.settled(request, signed, read as Extract<PaidAnswer, { kind: 'paid' | 'charged' }>);
	}

	private record(request: PaidRequest, item: PaidItem): void {
		const id = this.deps.paymentId(request);
		this.deps.paidItems.set(id, item);
		this.recorded.add(id);
	}

	/** The call ended without an error, so n8n runs no retry of it: what it recorded is no longer needed. */
	forgetRecorded(): void {
		for (const id of this.recorded) this.deps.paidItems.delete(id);
		this.recorded.clear();
	}

	/** Reserves the price in the execution's budget, then signs; a refusal of either leaves the ledger as it was. */
	private async signWithinBudget(request: PaidRequest, known: KnownRequirement): Promise<SignedPayment> {
		const { node, ledger, sign, paymentId } = this.deps;
		const amount = BigInt(known.requirement.amount);
		const overBudget = ledger.reserve(amount, this.deps.maxTotalSpend, request.unit);
		if (overBudget) throw budgetRefusal(node, request, overBudget);
		try {
			return await sign(known.requirement, known.resource, known.paymentId && { advert: known.paymentId, id: paymentId(request) });
		} catch (error) {
			ledger.release(amount, request.unit);
			throw signingRefusal(node, request, error);
		}
	}

	/**
	 * Sends the payment once. With a payment identifier, an unknown outcome is sent once more, the very same payment,
	 * which the gateway answers from its records if it settled the first (and which cannot be charged twice anyway).
	 */
	private async deliver(request: PaidRequest, signed: SignedPayment): Promise<PaidAnswer & { resent?: boolean }> {
		const headers = { 'PAYMENT-SIGNATURE': signed.header };
		const first = await this.deps.send(request, headers);
		if (signed.paymentId === undefined || !resendable(first)) return readPaidAnswer(first);
		const unknown = readPaidAnswer(first);
		const cause = unknown.kind === 'unknown' ? unknown.cause : '';
		await pause(this.deps.resendPauseMs ?? RESEND_PAUSE_MS, this.deps.signal);
		if (this.deps.signal?.aborted) return { kind: 'unknown', cause: `${cause}; the execution was stopped before the resend` };
		const again = readPaidAnswer(await this.deps.send(request, headers), true);
		if (again.kind !== 'unknown') return again;
		return { kind: 'unknown', cause: `${cause}, and ${again.cause} when resent once with the same payment identifier`, resent: true };
	}

	/** A 402 to a payment: a new price is learned, checked and paid once more; otherwise the refusal, nothing charged. */
	private async refused(request: PaidRequest, signed: SignedPayment, read: Extract<PaidAnswer, { kind: 'refused' }>, mayRefresh: boolean): Promise<GatewayResult> {
		const fresh = decodePaymentRequired(read.answer.headers['payment-required']);
		if (mayRefresh && fresh) return await this.pay(request, this.deps.prices.learn(request, read.answer), false);
		const reason = fresh?.error ?? read.settlement?.errorMessage ?? read.settlement?.errorReason ?? 'no reason given';
		throw paymentNotAccepted(this.deps.node, request, signed, firstLine(reason));
	}
}
