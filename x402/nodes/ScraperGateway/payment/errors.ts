import type { INode, JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { answerableByAgent, nodeApiError, nodeOperationError, readErrorBody, refusal } from '../../../../nodes/shared/execution/errors';
import { MAX_TOTAL_SPEND, PARALLEL_REQUESTS, RESPONSE_DEADLINE } from '../descriptions/paymentOptions';
import { budgetSentence, describeOverBudget } from './ledger';
import type { OverBudget } from './ledger';
import { formatAtomic, usdc } from './money';
import { describeCharge } from './receipt';
import type { Receipt } from './receipt';
import { MAX_TIMEOUT_SECONDS } from './requirements';
import type { GatewayResult, PaidRequest } from './request';
import type { SignedPayment } from './signer';
import { GATEWAY } from '../transport/transport';
import type { HttpAnswer, HttpFailure } from '../transport/transport';
import { GATEWAY_BASE_URL, MAX_PRICE_PER_REQUEST, NETWORK, USDC_TOKEN_ADDRESS, WALLET_CREDENTIAL_NAME } from './walletFields';

/**
 * The errors of paying the gateway. Each says whether money moved: nothing was signed, nothing was paid, it was
 * charged, or it may have been (and how to check).
 */

/** What an AI agent should do after a refused payment: calling again would be refused the same way. */
const CANNOT_PAY = `This tool cannot pay this gateway's price with the user's wallet settings: do not call it again in this run; answer with what you have and say that the user must change the ${WALLET_CREDENTIAL_NAME} settings to use it.`;

/** First line only, and short: gateways and libraries may pass on multi-line errors. */
export function firstLine(text: string): string {
	return text.split('\n')[0].slice(0, 300);
}

/** A payment the wallet's settings do not allow: an agent is told not to try again. */
function paymentRefusal(node: INode, request: PaidRequest, message: string, description: string): NodeOperationError {
	const error = nodeOperationError(node, message, { itemIndex: request.itemIndex, description });
	return refusal(error, `${message}. ${CANNOT_PAY}`);
}

/** The gateway's requirement breaks the credential's policy (`reason` says how): nothing was signed. */
export function policyRefusal(node: INode, request: PaidRequest, reason: string): NodeOperationError {
	return paymentRefusal(
		node,
		request,
		`Payment refused, nothing was signed: ${reason}`,
		`The node pays only what the '${WALLET_CREDENTIAL_NAME}' credential allows: the exact scheme on its network, its USDC token, its pinned payee (if set), at most its '${MAX_PRICE_PER_REQUEST.displayName}', and an authorization valid for at most ${MAX_TIMEOUT_SECONDS} seconds. If you trust this gateway's new terms, change the credential; otherwise do not use this gateway.`,
	);
}

/** The library refused to sign (its own spend controls) or could not: nothing left the node. */
export function signingRefusal(node: INode, request: PaidRequest, error: unknown): NodeOperationError {
	return paymentRefusal(
		node,
		request,
		`Payment refused, nothing was sent: ${firstLine((error as Error).message)}`,
		`Check the '${WALLET_CREDENTIAL_NAME}' credential: '${NETWORK.displayName}', '${USDC_TOKEN_ADDRESS.displayName}' and '${MAX_PRICE_PER_REQUEST.displayName}'.`,
	);
}

/** The execution's spending limit would be passed: nothing was signed for this item. */
export function budgetRefusal(node: INode, request: PaidRequest, over: OverBudget): NodeOperationError {
	const message = `Spending limit reached, nothing was signed for this item: ${describeOverBudget(over)}`;
	const error = nodeOperationError(node, message, {
		itemIndex: request.itemIndex,
		description: `Raise '${MAX_TOTAL_SPEND.label}' in the node options, or send fewer items per execution.`,
	});
	return refusal(error, budgetSentence(over, request.unit));
}

/** A 402 whose requirement cannot be read: nothing was signed. */
export function unreadableRequirement(node: INode, request: PaidRequest, answer: HttpAnswer): NodeApiError {
	return nodeApiError(node, { status: answer.status } as JsonObject, {
		message: 'The gateway asked for payment (402) without a readable PAYMENT-REQUIRED header; nothing was signed',
		description: `Check the '${GATEWAY_BASE_URL.displayName}' in the ${WALLET_CREDENTIAL_NAME} credential: it must point to an x402 version 2 gateway.`,
		httpCode: '402',
		itemIndex: request.itemIndex,
	});
}

/** A 402 to a signed payment: the gateway did not accept it (`reason`), so nothing was charged. */
export function paymentNotAccepted(node: INode, request: PaidRequest, signed: SignedPayment, reason: string): NodeApiError {
	return nodeApiError(node, { status: 402, reason } as JsonObject, {
		message: `The gateway did not accept the payment (402: ${reason}); nothing was charged`,
		description: `Check that the wallet ${signed.payer} holds enough USDC (${usdc(signed.amount)} per request) on ${signed.network}, and that the '${WALLET_CREDENTIAL_NAME}' credential matches the gateway (network and token).`,
		httpCode: '402',
		itemIndex: request.itemIndex,
	});
}

/** A request that never got an answer, before any payment left (`attempts` times, for the price request): nothing was paid. */
export function unreachable(node: INode, request: PaidRequest, failure: HttpFailure, attempts = 1): NodeApiError {
	const tries = attempts > 1 ? ` on ${attempts} attempts` : '';
	return nodeApiError(node, { message: failure.cause } as JsonObject, {
		message: `Could not reach ${GATEWAY}: ${failure.cause}${tries}; nothing was paid`,
		description: failure.timedOut
			? `The gateway did not answer an unpaid request in time. Try again later, or raise '${RESPONSE_DEADLINE.label}'.`
			: `Check the '${GATEWAY_BASE_URL.displayName}' in the '${WALLET_CREDENTIAL_NAME}' credential and your network, then try again.`,
		itemIndex: request.itemIndex,
	});
}

/** How the unpaid price request was retried before the node gave up on it. */
interface PriceTries {
	attempts: number;
	/** Waited for 429 answers in all, ms. */
	rateLimitWaitedMs: number;
	/** A Retry-After (ms) longer than the node may still wait, when that ended the retries. */
	refusedWaitMs?: number;
	/** The most the node waits for 429 answers of one request, ms. */
	budgetMs: number;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The unpaid price request still answered 429 or 5xx after the node's retries: nothing was signed or paid. */
export function priceUnavailable(node: INode, request: PaidRequest, answer: HttpAnswer, tries: PriceTries): NodeApiError {
	const detail = describeBody(answer);
	const attempts = `${tries.attempts} unpaid ${tries.attempts === 1 ? 'attempt' : 'attempts'}`;
	const last = `the last answered with status ${answer.status}${detail ? ` (${detail})` : ''}`;
	const safe = 'Nothing was signed, so no payment can have been taken.';
	let message: string;
	let description: string;
	if (answer.status === 429) {
		message = `The gateway's rate limit held: ${attempts} at its price, ${last}; nothing was signed or paid`;
		const waited =
			tries.refusedWaitMs !== undefined
				? `The gateway asked to wait ${seconds(tries.refusedWaitMs)} more, past the ${seconds(tries.budgetMs)} the node waits for a rate limit.`
				: `The node waited ${seconds(tries.rateLimitWaitedMs)} in all between attempts, as the gateway asked.`;
		description = `${waited} ${safe} Wait a little before running again, or lower '${PARALLEL_REQUESTS.label}' in the node options.`;
	} else {
		message = `The gateway did not give its price: ${attempts}, ${last}; nothing was signed or paid`;
		description = `The node asked again with growing pauses, which is safe for a request that carries no payment. ${safe} The gateway is unavailable on its side: try again later.`;
	}
	return nodeApiError(node, { status: answer.status, body: answer.text.slice(0, 500) } as JsonObject, {
		message,
		description,
		httpCode: String(answer.status),
		itemIndex: request.itemIndex,
	});
}

/** The execution was stopped before this item's payment (while asking the price, or before signing): nothing was signed. */
export function canceledBeforePayment(node: INode, request: PaidRequest): NodeOperationError {
	return nodeOperationError(node, 'The execution was canceled before this item was paid; nothing was signed or paid', {
		itemIndex: request.itemIndex,
		description: 'Nothing more was sent. Run the workflow again when you are ready.',
	});
}

/**
 * A signed payment went out and no clear answer came back (`resent`: not to its one resend with the same payment
 * identifier either): say what could have been taken, how to check, and what Retry On Fail does (`on`: this was
 * Retry On Fail's run of the item, which never signs anew).
 */
export function mayHaveBeenCharged(node: INode, request: PaidRequest, signed: SignedPayment, cause: string, resent = false, on?: 'retry'): NodeApiError {
	const expiry = /^\d+$/.test(signed.validBefore) ? new Date(Number(signed.validBefore) * 1000).toISOString() : 'unknown';
	const amount = formatAtomic(signed.amount);
	const { payer, nonce, network, paymentId } = signed;
	const id = paymentId ? `, payment identifier ${paymentId}` : '';
	return nodeApiError(node, { payer, nonce, amount, network, ...(paymentId ? { paymentId } : {}) } as JsonObject, {
		message: `The payment may have been charged: ${cause} after a signed payment of ${usdc(signed.amount)} was sent (payer ${payer}, nonce ${nonce}, amount ${amount} USDC, network ${network}${id})`,
		description: `The gateway settles before it fetches the page, so it may have taken the payment while the node stopped waiting. ${unknownOutcomeSteps(signed, resent, on, expiry)} Before running it again in a new execution, look for a transfer from ${payer} to ${signed.payTo} with authorization nonce ${nonce} on ${network} (the authorization expires at ${expiry}). If pages are slow, raise '${RESPONSE_DEADLINE.label}' in the node options.`,
		itemIndex: request.itemIndex,
	});
}

/** What the node did with a payment of unknown outcome, and what Retry On Fail does or did with it, exactly. */
function unknownOutcomeSteps(signed: SignedPayment, resent: boolean, on: 'retry' | undefined, expiry: string): string {
	const never = 'It never signs a new payment for this item in this execution.';
	if (on === 'retry') {
		if (resent) return `Retry On Fail resent the same payment, which cannot be charged twice (one authorization nonce), and got no clear answer either. ${never}`;
		if (signed.paymentId) return `Retry On Fail did not send it again: its authorization expires (at ${expiry}) before an answer could come, or the execution was stopped. ${never}`;
		return `Retry On Fail did not pay for it again: this gateway takes no payment identifier, so a resend could not be told apart from a new payment. ${never}`;
	}
	const sent = resent
		? 'The node sent the same payment once more, which cannot be charged twice (one authorization nonce), and got no clear answer either.'
		: 'The node did not send it again, so this item was not paid twice.';
	const retry = signed.paymentId
		? ` Retry On Fail in the node settings resends this very payment (the same signature and identifier) while its authorization is valid, which a gateway that took it answers from its records without a second charge. ${never}`
		: ' Retry On Fail in the node settings does not pay for this item again: it reports it as here.';
	return `${sent}${retry}`;
}

/** An item charged on an earlier try of this run while the gateway failed: Retry On Fail does not pay for it again. */
export function notPaidAgain(node: INode, request: PaidRequest, firstError: string): NodeOperationError {
	const first = firstError.replace(/\s*\[item \d+\]$/, '');
	return nodeOperationError(node, `Not paid again: an earlier try of this item in this execution was charged and failed (${first})`, {
		itemIndex: request.itemIndex,
		description: 'Retry On Fail never pays twice for one item in one execution, and the gateway does not refund the first payment. To pay for another attempt, run the item in a new execution.',
	});
}

/** A non-success status. With a receipt, the error says the call was charged and names the transaction. */
export function statusError(node: INode, request: PaidRequest, answer: HttpAnswer, receipt: Receipt | undefined): NodeApiError {
	const { itemIndex } = request;
	const detail = describeBody(answer);
	const errorBody: JsonObject =
		answer.json && typeof answer.json === 'object' && !Array.isArray(answer.json) ? (answer.json as JsonObject) : { body: answer.text.slice(0, 500) };
	if (answer.status === 400) {
		return nodeApiError(node, errorBody, {
			message: `The gateway rejected the input: ${detail}; nothing was paid`,
			description: 'Correct the field named in the message and run the node again.',
			httpCode: '400',
			itemIndex,
		});
	}
	const charged = receipt ? ` It was ${describeCharge(receipt)}.` : '';
	return nodeApiError(node, errorBody, {
		message: `The gateway answered with status ${answer.status}${detail ? `: ${detail}` : ''}.${charged}`,
		description:
			answer.status >= 500
				? 'This is on the gateway side. Try again later.'
				: `Check the '${GATEWAY_BASE_URL.displayName}' in the '${WALLET_CREDENTIAL_NAME}' credential and the node's parameters.`,
		httpCode: String(answer.status),
		itemIndex,
	});
}

/** A short readable summary of an error body: its issues, else its `message` or `error`, else its text. */
function describeBody(answer: HttpAnswer): string {
	if (!answer.json || typeof answer.json !== 'object') return answer.text.slice(0, 200);
	const body = readErrorBody(answer.json);
	if (body.issues.length > 0) return body.issues.map(({ field, message }) => message ?? `${String(field)} is invalid`).join('; ');
	return body.message ?? body.error ?? '';
}

/**
 * A paid call whose work failed after the gateway took the payment (settled before the upstream work, never
 * refunded): the error says it was charged and names the transaction. Without a settlement receipt the charge
 * is unknown, and the error gives the payer and nonce to check it.
 */
export function chargedError(node: INode, itemIndex: number, result: Pick<GatewayResult, 'receipt' | 'nonce'>, what: string, upstreamError: string): NodeApiError {
	const { receipt, nonce } = result;
	let charged: string;
	if (receipt?.transaction) charged = describeCharge(receipt);
	else if (receipt) charged = `may have charged ${receipt.amount} USDC (it sent no settlement receipt; payer ${receipt.payer}, nonce ${nonce ?? 'unknown'})`;
	else charged = 'answered';
	const message = `The gateway ${charged} but ${what} failed: ${upstreamError}`;
	const error = nodeApiError(node, { upstreamError, ...(receipt ?? {}) } as JsonObject, {
		message,
		description: receipt
			? 'The gateway takes the payment before the upstream work and does not refund it when that work fails. Check the input (is the page public and up?) or try later. Retry On Fail does not pay for this item again in this execution; running it in a new execution pays again.'
			: 'Check the input and try again later.',
		itemIndex,
	});
	// Settled with a known transaction: nothing is in doubt, so an agent may learn it and try another page.
	if (receipt?.transaction) answerableByAgent(error, `${message}. It is paid and will not be refunded; do not retry it: try another page or answer with what you have.`);
	return error;
}
