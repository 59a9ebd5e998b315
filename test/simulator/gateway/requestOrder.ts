/**
 * The request order of both paid operations (README, "Request order"): the body is validated first (400, before
 * anything payment-related), then the PAYMENT-SIGNATURE header (402), then the payment identifier (400, or the cached
 * answer of a settled one), then the settlement. Records the refused payments of the first stages and the replays.
 */
import { getAddress, type Hex } from 'viem';

import type { SimClock } from '../core/clock';
import type { SimReply, SimRequest } from '../core/http';
import { paymentIdConflictReply, validationReply } from './errors';
import { readPaymentSignature } from './payload';
import { PaymentIdCache, readPaymentId, signedByPayer } from './paymentIds';
import type { PaidRequest, Settlement } from './settlement';
import type { GatewayRuntimeOptions, GatewayService, PaymentRejection, ReplayRecord } from './types';
import { validateFetchRequest, validateSearchRequest, type ValidationIssue } from './validation';

/** What the request order needs from the gateway simulator. */
interface RequestOrderContext {
	clock: SimClock;
	options: GatewayRuntimeOptions;
	settlement: Settlement;
	/** Records a refused payment (nothing charged). */
	reject(service: GatewayService, rejection: Omit<PaymentRejection, 'service' | 'at'>): void;
	/** The 402 asking for payment, with this error. */
	paymentRequiredReply(service: GatewayService, error: string): SimReply;
}

/** The issues of the request's body (invalid JSON included), or undefined when it is valid. */
function bodyIssues(req: SimRequest, service: GatewayService): ValidationIssue[] | undefined {
	if (req.bodyIsInvalidJson) return [{ field: 'body', rule: 'type', message: 'the request body must be valid JSON' }];
	const validation = service === 'scraperAPI' ? validateFetchRequest(req.body) : validateSearchRequest(req.body);
	return validation.ok ? undefined : validation.issues;
}

export class RequestOrder {
	/** Paid requests answered from the payment-identifier cache (no verify, no charge), in order. */
	readonly replays: ReplayRecord[] = [];
	readonly paymentIds: PaymentIdCache;

	constructor(private readonly context: RequestOrderContext) {
		this.paymentIds = new PaymentIdCache(context.clock);
	}

	/** Forgets the replays and the payment-identifier cache. */
	reset(): void {
		this.replays.length = 0;
		this.paymentIds.clear();
	}

	async handle(req: SimRequest, service: GatewayService): Promise<SimReply> {
		// (a) Input first: an invalid request is refused before any payment is asked for or taken.
		const issues = bodyIssues(req, service);
		if (issues) return validationReply(issues);

		// (b) Payment header present and decodable (the requirement it names is matched at settlement).
		const signature = readPaymentSignature(req.headers['payment-signature']);
		if ('stage' in signature) {
			this.context.reject(service, { stage: signature.stage, reason: signature.reason });
			return this.context.paymentRequiredReply(service, signature.error);
		}
		const { payload, payer, nonce } = signature;
		const request: PaidRequest = { service, body: req.body, payload, who: { payer, nonce } };

		// (c) payment-identifier: malformed, or missing while required -> 400; a settled one -> its cached answer.
		const read = readPaymentId(payload, this.context.options.paymentIdentifier);
		if ('issue' in read) {
			this.context.reject(service, { stage: 'paymentId', reason: read.issue.message, payer, nonce });
			return validationReply([read.issue]);
		}
		// Only the payer's own signature reaches the payer's cached answers (the facilitator refuses the rest anyway).
		if (read.id === undefined || !(await signedByPayer(payload))) return await this.context.settlement.charge(request);
		return await this.withPaymentId(request, read.id);
	}

	/** The cached answer of this payer's identifier, or the settlement under a claim on it (others with it wait). */
	private async withPaymentId(request: PaidRequest, id: string): Promise<SimReply> {
		const { service, who } = request;
		const entry = await this.paymentIds.enter(who.payer, id, who.nonce);
		if ('conflict' in entry) {
			this.context.reject(service, { stage: 'paymentId', reason: 'identifier bound to another payment', payer: who.payer, nonce: who.nonce });
			return paymentIdConflictReply(id);
		}
		if ('cached' in entry) {
			this.replays.push({ service, paymentId: id, payer: getAddress(who.payer), nonce: who.nonce as Hex, at: this.context.clock.now() });
			return entry.cached;
		}
		try {
			return await this.context.settlement.charge({ ...request, paymentId: { id, claim: entry.claim } });
		} finally {
			entry.claim.release();
		}
	}
}
