import { decodeSettlement } from './receipt';
import type { Settlement } from './receipt';
import type { HttpAnswer, HttpOutcome } from '../transport/transport';

/**
 * What the gateway's answer to a signed payment means for the money, read without side effects: the flow
 * (`payments.ts`) books it in the ledger and turns it into the item's result or error.
 */
export type PaidAnswer =
	/** A 2xx: the work was done and paid for. */
	| { kind: 'paid'; answer: HttpAnswer; settlement?: Settlement }
	/** A 402 or 400 to a payment sent once: refused before any charge (a 402 may carry a new price). */
	| { kind: 'refused'; answer: HttpAnswer; settlement?: Settlement }
	/** Another status with a settlement that succeeded: charged, and the work failed. */
	| { kind: 'charged'; answer: HttpAnswer; settlement: Settlement }
	/** Sent, and no answer says whether it was charged. */
	| { kind: 'unknown'; cause: string }
	/** Certainly never reached the gateway (connection refused, host unknown). */
	| { kind: 'unsent'; outcome: Extract<HttpOutcome, { ok: false }> };

/** "the gateway answered with status 503": how an answer that settles nothing is named in errors. */
function answerCause(answer: HttpAnswer): string {
	return `the gateway answered with status ${answer.status}`;
}

/**
 * Reads one sending of a payment. `resent`: this was the one resend of a payment whose first sending has an unknown
 * outcome; a 402 or 400 to it proves nothing about that first sending, so it stays unknown.
 */
export function readPaidAnswer(outcome: HttpOutcome, resent = false): PaidAnswer {
	if (!outcome.ok) return outcome.failure.neverSent && !resent ? { kind: 'unsent', outcome } : { kind: 'unknown', cause: outcome.failure.cause };
	const { answer } = outcome;
	const settlement = decodeSettlement(answer.headers['payment-response']);
	if (answer.status >= 200 && answer.status < 300) return { kind: 'paid', answer, settlement };
	if (settlement?.success) return { kind: 'charged', answer, settlement };
	if (!resent && (answer.status === 402 || answer.status === 400)) return { kind: 'refused', answer, settlement };
	return { kind: 'unknown', cause: answerCause(answer) };
}

/**
 * Whether a payment identifier resolves this outcome by one resend: no answer after the request left this machine
 * (reset, deadline), or a 5xx that reports no settlement. A 429 or 404 without a receipt stays unknown, unsent again.
 */
export function resendable(outcome: HttpOutcome): boolean {
	if (!outcome.ok) return !outcome.failure.neverSent;
	return outcome.answer.status >= 500 && decodeSettlement(outcome.answer.headers['payment-response'])?.success === undefined;
}
