/**
 * x402's `payment-identifier` extension on the gateway simulator: the declaration in every 402, the reading of a
 * payload's identifier (400 when it is malformed or missing but required), and the idempotency cache that answers a
 * repeat of a settled identifier without charging again. `requestOrder.ts` wires it into the request order.
 */
import type { PaymentPayload } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import {
	PAYMENT_IDENTIFIER,
	declarePaymentIdentifierExtension,
	extractPaymentIdentifier,
	isValidPaymentId,
	validatePaymentIdentifier,
	type PaymentIdentifierExtension,
} from '@x402/extensions/payment-identifier';
import { verifyTypedData, type Hex } from 'viem';

import type { SimClock } from '../core/clock';
import type { SimReply } from '../core/http';
import type { ValidationIssue } from './validation';

/** Whether the gateway advertises the extension, and whether a paid request must carry an identifier. */
export type PaymentIdentifierMode = 'optional' | 'required' | 'off';

export const DEFAULT_PAYMENT_IDENTIFIER_MODE: PaymentIdentifierMode = 'optional';

/** The `extensions` of a PAYMENT-REQUIRED object in this mode; undefined when the extension is off. */
export function paymentIdentifierExtensions(mode: PaymentIdentifierMode): Record<string, PaymentIdentifierExtension> | undefined {
	if (mode === 'off') return undefined;
	return { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(mode === 'required') };
}

const ID_RULE = '16-128 characters of [a-zA-Z0-9_-]';

/**
 * The identifier a payload carries, read with the extension package's helpers: `{ id }` (undefined when there is
 * none), or the 400 issue: `pattern` for an `info.id` string that is not 16-128 characters of `[a-zA-Z0-9_-]`,
 * `type` for any other malformed `payment-identifier` entry (not an object, no boolean `info.required`, a non-string
 * `id`, or `info` against the entry's own schema), `required` for none when the mode requires one. Mode `off` ignores
 * the extension (always `{ id: undefined }`).
 */
export function readPaymentId(payload: PaymentPayload, mode: PaymentIdentifierMode): { id?: string } | { issue: ValidationIssue } {
	if (mode === 'off') return {};
	const field = PAYMENT_IDENTIFIER;
	const extension: unknown = payload.extensions?.[PAYMENT_IDENTIFIER];
	if (extension !== undefined) {
		const validation = validatePaymentIdentifier(extension);
		if (!validation.valid) {
			const id = extractPaymentIdentifier(payload, false);
			const rule = typeof id === 'string' && !isValidPaymentId(id) ? 'pattern' : 'type';
			const details = (validation.errors ?? []).join('; ');
			return { issue: { field, rule, message: `${field}: ${details || `info.id must be ${ID_RULE}`}` } };
		}
	}
	const id = extractPaymentIdentifier(payload, false);
	if (id !== null) return { id };
	if (mode === 'required') {
		const message = `${field}: this gateway requires a payment identifier (extensions["${field}"].info.id, ${ID_RULE})`;
		return { issue: { field, rule: 'required', message } };
	}
	return {};
}

/**
 * Whether the payload's EIP-3009 authorization is signed by its `from` (an EOA), under the EIP-712 domain of the
 * requirement it names. Offline: the chain is not asked, so a settled (used) authorization still proves its payer.
 * A payload that names someone else's address without their signature never reaches their cached answers.
 */
export async function signedByPayer(payload: PaymentPayload): Promise<boolean> {
	try {
		const { authorization, signature } = payload.payload as {
			authorization: { from: Hex; to: Hex; value: string; validAfter: string; validBefore: string; nonce: Hex };
			signature: Hex;
		};
		const { network, asset, extra } = payload.accepted;
		const chain = /^eip155:(\d+)$/.exec(network);
		if (!chain || typeof extra?.name !== 'string' || typeof extra.version !== 'string') return false;
		return await verifyTypedData({
			address: authorization.from,
			domain: { name: extra.name, version: extra.version, chainId: Number(chain[1]), verifyingContract: asset as Hex },
			types: authorizationTypes,
			primaryType: 'TransferWithAuthorization',
			message: {
				from: authorization.from,
				to: authorization.to,
				value: BigInt(authorization.value),
				validAfter: BigInt(authorization.validAfter),
				validBefore: BigInt(authorization.validBefore),
				nonce: authorization.nonce,
			},
			signature,
		});
	} catch {
		return false;
	}
}

interface CachedAnswer {
	reply: SimReply;
	/** Simulated time (ms) from which the answer is no longer served. */
	expiresAt: number;
	/** The authorization nonce of the payment the identifier is bound to. */
	nonce: string;
}

/** The right to handle one payer+identifier: the only request doing so until `release()`. */
export interface PaymentIdClaim {
	/** Keeps the answer of the settled request for `windowMs` from `settledAt` (simulated ms). */
	store(reply: SimReply, settledAt: number, windowMs: number): void;
	/** Ends the claim; requests waiting for it go on (to the cached answer, if one was stored). */
	release(): void;
}

function copyReply(reply: SimReply): SimReply {
	return { ...reply, headers: reply.headers ? { ...reply.headers } : undefined };
}

/**
 * Answers of settled requests by payer (lower case) + identifier, for their validity window on the simulated clock,
 * and the payer+identifier pairs being handled now. One identifier of one payer is never settled twice: a request
 * either gets the cached answer, or waits for the request in flight with its key and then looks again, or claims it.
 * An identifier is bound to the exact payment that settled under it (its authorization nonce), as the extension's
 * specification asks: the same identifier with another payment is then a conflict (409), never answered from the
 * cache; one whose payment did not settle stays free.
 */
export class PaymentIdCache {
	private readonly answers = new Map<string, CachedAnswer>();
	private readonly inFlight = new Map<string, { done: Promise<void> }>();
	/** Bumped by `clear()`: a claim from before a clear stores nothing. */
	private generation = 0;

	constructor(private readonly clock: SimClock) {}

	/**
	 * The cached answer for this payer and identifier (a copy), or a claim to handle it; waits while another request
	 * with the same key is in flight.
	 */
	async enter(payer: string, id: string, nonce: string): Promise<{ cached: SimReply } | { claim: PaymentIdClaim } | { conflict: true }> {
		const key = `${payer.toLowerCase()} ${id}`;
		for (;;) {
			const cached = this.lookup(key);
			if (cached) return cached.nonce === nonce ? { cached: copyReply(cached.reply) } : { conflict: true };
			// Another request with this key is being handled: its outcome decides (a settled payment binds the id).
			const running = this.inFlight.get(key);
			if (!running) break;
			await running.done;
		}
		let done!: () => void;
		const running = { done: new Promise<void>((resolve) => (done = resolve)) };
		this.inFlight.set(key, running);
		const generation = this.generation;
		return {
			claim: {
				store: (reply, settledAt, windowMs) => {
					if (generation === this.generation) this.answers.set(key, { reply: copyReply(reply), expiresAt: settledAt + windowMs, nonce });
				},
				release: () => {
					if (this.inFlight.get(key) === running) this.inFlight.delete(key);
					done();
				},
			},
		};
	}

	/** Number of answers currently kept (expired ones are dropped first). */
	get size(): number {
		for (const key of [...this.answers.keys()]) this.lookup(key);
		return this.answers.size;
	}

	/** Drops every answer and forgets the requests in flight (they still end; what they store is discarded). */
	clear(): void {
		this.generation += 1;
		this.answers.clear();
		this.inFlight.clear();
	}

	private lookup(key: string): CachedAnswer | undefined {
		const cached = this.answers.get(key);
		if (cached && this.clock.now() >= cached.expiresAt) {
			this.answers.delete(key);
			return undefined;
		}
		return cached;
	}
}
