import type { INode } from 'n8n-workflow';
import type { PaymentRequired, PaymentRequirements, ResourceInfo } from '@x402/core/types';

import { policyRefusal, unreadableRequirement } from './errors';
import { advertisedPaymentId } from './paymentId';
import type { PaymentIdAdvert } from './paymentId';
import { decodePaymentRequired } from './requirements';
import type { RequirementChoice } from './requirements';
import type { PaidRequest } from './request';
import type { HttpAnswer } from '../transport/transport';

/** A requirement learned from a 402 of this execution, with the resource it was offered for. */
export interface KnownRequirement {
	requirement: PaymentRequirements;
	resource: ResourceInfo;
	/** The gateway's payment-identifier declaration; undefined when it does not advertise the extension. */
	paymentId?: PaymentIdAdvert;
}

/** What the unpaid first request of a path found: the price, or an answer that needed no payment. */
export type Discovery = { kind: 'required'; known: KnownRequirement } | { kind: 'free'; answer: HttpAnswer };

/**
 * The requirements of one run's gateway, by path, each checked by `choose` (the credential's policy, passed in as a
 * function as x402Client takes its policies) before it is kept.
 * Parallel calls of a path the run has not priced yet wait for the one discovery in flight instead of each sending
 * an unpaid request.
 */
export class RequirementCache {
	private readonly known = new Map<string, KnownRequirement>();

	private readonly discovering = new Map<string, Promise<KnownRequirement | undefined>>();

	constructor(
		private readonly node: INode,
		private readonly choose: (offer: PaymentRequired) => RequirementChoice,
	) {}

	/**
	 * The requirement of `path`: known, or learned by the discovery in flight, or else found by `discover` (the unpaid
	 * first request), which parallel calls then wait for. Its answer is passed on when it asked for no payment.
	 * Nothing is awaited before `discover` starts: two calls that find nothing cannot both start one.
	 */
	async requirementFor(path: string, discover: () => Promise<Discovery>): Promise<Discovery> {
		let known = this.known.get(path);
		if (!known) {
			const pending = this.discovering.get(path);
			if (pending) known = await pending;
		}
		if (known) return { kind: 'required', known };
		const discovery = discover();
		this.discovering.set(
			path,
			discovery.then(
				(outcome) => (outcome.kind === 'required' ? outcome.known : undefined),
				() => undefined,
			),
		);
		try {
			return await discovery;
		} finally {
			this.discovering.delete(path);
		}
	}

	/** Reads and checks the requirement of a 402; remembers it for the next calls. Refuses what the policy does not allow. */
	learn(request: PaidRequest, answer: HttpAnswer): KnownRequirement {
		const paymentRequired = decodePaymentRequired(answer.headers['payment-required']);
		if (!paymentRequired) throw unreadableRequirement(this.node, request, answer);
		const choice = this.choose(paymentRequired);
		if (!choice.ok) {
			this.known.delete(request.path);
			throw policyRefusal(this.node, request, choice.reason);
		}
		const known: KnownRequirement = { requirement: choice.requirement, resource: paymentRequired.resource, paymentId: advertisedPaymentId(paymentRequired) };
		this.known.set(request.path, known);
		return known;
	}
}
