import { createHash } from 'node:crypto';

import {
	PAYMENT_IDENTIFIER,
	appendPaymentIdentifierToExtensions,
	declarePaymentIdentifierExtension,
	isPaymentIdentifierExtension,
} from '@x402/extensions/payment-identifier';
import type { PaymentRequired } from '@x402/core/types';

/**
 * x402's `payment-identifier` extension: an idempotency key the client puts in its payment payload. A gateway that
 * advertises it answers a repeat of the same key from its cache instead of charging again, so a paid request whose
 * outcome is unknown can be sent once more safely.
 */

/** The gateway's declaration in its 402: it supports payment identifiers, and whether it requires one. */
export interface PaymentIdAdvert {
	required: boolean;
}

/** The declaration of a PAYMENT-REQUIRED object, or undefined when the gateway does not advertise the extension. */
export function advertisedPaymentId(paymentRequired: PaymentRequired): PaymentIdAdvert | undefined {
	const declared: unknown = paymentRequired.extensions?.[PAYMENT_IDENTIFIER];
	return isPaymentIdentifierExtension(declared) ? { required: declared.info.required } : undefined;
}

/** What makes one paid item of one execution: the same parts give the same identifier. */
export interface PaymentIdParts {
	/** The execution, or a random value per call of the node when n8n gives no execution id. */
	execution: string;
	nodeId: string;
	runIndex: number;
	itemIndex: number;
	payer: string;
	path: string;
	body: unknown;
}

/**
 * The identifier of one paid item: a hash of the execution, node, run, item, wallet and the request itself. n8n's
 * Retry On Fail runs the same item again with the same parts, so it gets the same identifier and the gateway's
 * cached answer; two items never share one, and a changed request is a new payment. 'n8n_' and 64 hex digits fit
 * the extension's 16-128 characters of [a-zA-Z0-9_-].
 */
export function derivePaymentId(parts: PaymentIdParts): string {
	const { execution, nodeId, runIndex, itemIndex, payer, path, body } = parts;
	const hash = createHash('sha256');
	for (const part of [execution, nodeId, String(runIndex), String(itemIndex), payer.toLowerCase(), path, JSON.stringify(body)]) {
		// Length-prefixed, so no two different lists of parts hash the same text.
		hash.update(`${part.length}:${part}`);
	}
	return `n8n_${hash.digest('hex')}`;
}

/**
 * The `extensions` a payment carries: the standard declaration (never the gateway's own object, so what is signed is
 * exactly what the node built) with the item's identifier added.
 */
export function paymentIdExtensions(advert: PaymentIdAdvert, id: string): Record<string, unknown> {
	return appendPaymentIdentifierToExtensions({ [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(advert.required) }, id);
}
