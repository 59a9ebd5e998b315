/**
 * The PAYMENT-SIGNATURE header of a paid request: present, base64 JSON, and an `exact` EIP-3009 payload of x402
 * version 2 in shape (the facilitator checks the cryptography). What fails names the rejection stage and reason.
 */
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';

/** A readable payload, or why there is none: the rejection stage, its reason and the 402's `error`. */
type PaymentSignature =
	| { payload: PaymentPayload; payer: string; nonce: string }
	| { stage: 'missing' | 'decode'; reason: string; error: string };

function firstHeader(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

function isHexString(value: unknown): value is string {
	return typeof value === 'string' && /^0x[0-9a-fA-F]*$/.test(value);
}

/** Structural check of an `exact` EIP-3009 payload; the facilitator checks the cryptography. */
function payloadShapeProblem(payload: unknown): string | undefined {
	if (typeof payload !== 'object' || payload === null) return 'payload must be an object';
	const p = payload as Partial<PaymentPayload>;
	if (p.x402Version !== 2) return `unsupported x402Version ${JSON.stringify(p.x402Version)} (this gateway speaks version 2)`;
	if (typeof p.accepted !== 'object' || p.accepted === null) return 'payload.accepted is missing';
	const inner = p.payload as { authorization?: Record<string, unknown>; signature?: unknown } | undefined;
	if (typeof inner !== 'object' || inner === null) return 'payload.payload is missing';
	if (!isHexString(inner.signature)) return 'payload.payload.signature must be a hex string';
	const auth = inner.authorization;
	if (typeof auth !== 'object' || auth === null) return 'payload.payload.authorization is missing';
	for (const key of ['from', 'to', 'nonce']) if (!isHexString(auth[key])) return `authorization.${key} must be a hex string`;
	for (const key of ['value', 'validAfter', 'validBefore']) {
		if (typeof auth[key] !== 'string' || !/^\d+$/.test(auth[key] as string)) return `authorization.${key} must be a decimal string`;
	}
	return undefined;
}

/** Reads the PAYMENT-SIGNATURE header (first value, trimmed): the payload with its payer and nonce, or the failure. */
export function readPaymentSignature(headerValue: string | string[] | undefined): PaymentSignature {
	const header = firstHeader(headerValue);
	if (header === undefined || header.trim() === '') {
		return { stage: 'missing', reason: 'no PAYMENT-SIGNATURE header', error: 'Payment required: send PAYMENT-SIGNATURE' };
	}
	let payload: PaymentPayload;
	try {
		payload = decodePaymentSignatureHeader(header.trim());
	} catch (error) {
		const reason = `PAYMENT-SIGNATURE is not base64-encoded JSON (${(error as Error).message})`;
		return { stage: 'decode', reason, error: reason };
	}
	const shapeProblem = payloadShapeProblem(payload);
	if (shapeProblem) return { stage: 'decode', reason: shapeProblem, error: `Invalid payment payload: ${shapeProblem}` };
	const { from, nonce } = (payload.payload as { authorization: { from: string; nonce: string } }).authorization;
	return { payload, payer: from, nonce };
}
