import type { INode, JsonObject, NodeApiError } from 'n8n-workflow';
import type { PaymentRequired, PaymentRequirements, ResourceInfo } from '@x402/core/types';

import { nodeApiError, nodeOperationError, refusal } from '../../../../nodes/shared/errors';
import { budgetSentence, describeOverBudget } from './ledger';
import type { SpendLedger, Unit } from './ledger';
import { formatAtomic, usdc } from './money';
import { decodeSettlement, toReceipt } from './receipt';
import type { Receipt, Settlement } from './receipt';
import { chooseRequirement, decodePaymentRequired, MAX_TIMEOUT_SECONDS } from './requirements';
import type { PaymentPolicy } from './requirements';
import { PaymentSigner } from './signer';
import type { SignedPayment } from './signer';
import { postJson } from '../transport';
import type { HttpAnswer, HttpFailure } from '../transport';
import type { Wallet } from './wallet';

const SERVICE = 'the gateway';
const CREDENTIAL = 'x402 Wallet';
/** What an AI agent should do after a refused payment: calling again would be refused the same way. */
const CANNOT_PAY = "This tool cannot pay this gateway's price with the user's wallet settings: do not call it again in this run; answer with what you have and say that the user must change the x402 Wallet settings to use it.";

/** A requirement learned from a 402 of this execution, with the resource it was offered for. */
interface KnownRequirement {
	requirement: PaymentRequirements;
	resource: ResourceInfo;
}

/** A 200 from the gateway: its JSON body and, for a paid call, the receipt. */
export interface GatewayResult {
	body: unknown;
	receipt: Receipt | null;
	/** The settlement as the gateway reported it (undefined for an unpaid answer or a missing header). */
	settlement?: Settlement;
	/** Nonce of the signed authorization, for a paid call. */
	nonce?: string;
	/** Base64 fields of the answer decoded to bytes, by dotted path (see `post`). */
	decoded: Map<string, Buffer>;
}

export interface SessionOptions {
	/** Most the execution may spend in total, atomic units; undefined = no limit beyond the per-request cap. */
	maxTotalSpend?: bigint;
}

/** One paid call: where, what, how long to wait, and what one call buys (plural, for the agent's budget sentence). */
export interface PaidRequest {
	itemIndex: number;
	path: string;
	body: unknown;
	deadlineMs: number;
	/** String fields of the answer, e.g. ['data', 'screenshot'], decoded into bytes while it streams in. */
	base64Fields?: ReadonlyArray<readonly string[]>;
	/** What one call buys, for the agent's budget sentence: "Budget reached: 5 pages paid, ...". */
	unit: Unit;
}

/**
 * The payments of one run of the node against one gateway. It learns the payment requirement from the first
 * 402 and then signs each further call ahead, so a paid item takes one round trip. It checks every requirement
 * against the credential's policy before signing, keeps the execution's total (its ledger) within the limit, and never
 * sends a signed payment twice.
 */
export class GatewaySession {
	private readonly signer: PaymentSigner;

	private readonly policy: PaymentPolicy;

	private readonly known = new Map<string, KnownRequirement>();

	private readonly discovering = new Map<string, Promise<KnownRequirement | undefined>>();

	private readonly maxTotalSpend: bigint | undefined;

	/** `ledger`: the spend of this node in this execution, shared by every run of it (see `ledgerFor`). */
	constructor(
		private readonly node: INode,
		private readonly wallet: Wallet,
		private readonly ledger: SpendLedger,
		options: SessionOptions = {},
	) {
		this.policy = {
			network: wallet.network,
			asset: wallet.tokenAddress,
			maxAmount: wallet.maxAmount,
			payTo: wallet.payTo,
			maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
		};
		this.signer = new PaymentSigner(wallet.account, wallet.network, wallet.tokenAddress, wallet.maxAmount);
		this.maxTotalSpend = options.maxTotalSpend;
	}

	/**
	 * POSTs `body` to `path` on the gateway and pays for it. The first call of a run goes unpaid and
	 * learns the requirement from the 402; later calls (and parallel calls waiting for that first answer) carry
	 * a payment signed from the known requirement.
	 */
	async post(request: PaidRequest): Promise<GatewayResult> {
		const { path } = request;
		const url = `${this.wallet.baseUrl}${path}`;
		let known = this.known.get(path);
		if (!known) {
			const pending = this.discovering.get(path);
			if (pending) known = await pending;
		}
		if (!known) {
			const discovery = this.discover(request, url);
			const shared = discovery.then(
				(outcome) => (outcome.kind === 'required' ? outcome.known : undefined),
				() => undefined,
			);
			this.discovering.set(path, shared);
			let outcome: Awaited<typeof discovery>;
			try {
				outcome = await discovery;
			} finally {
				this.discovering.delete(path);
			}
			if (outcome.kind === 'free') return { body: outcome.answer.json, receipt: null, decoded: outcome.answer.decoded };
			known = outcome.known;
		}
		return await this.payAndSend(request, url, known, true);
	}

	/** The unpaid first request: its 402 names the price. Nothing is signed here. */
	private async discover(request: PaidRequest, url: string): Promise<{ kind: 'required'; known: KnownRequirement } | { kind: 'free'; answer: HttpAnswer }> {
		const { itemIndex, path } = request;
		const outcome = await postJson(url, request.body, {}, request.deadlineMs, request.base64Fields ?? []);
		if (!outcome.ok) throw this.unreachable(itemIndex, outcome.failure);
		const answer = outcome.answer;
		if (answer.status === 402) {
			const known = this.learn(itemIndex, path, answer);
			return { kind: 'required', known };
		}
		if (answer.status >= 200 && answer.status < 300) return { kind: 'free', answer };
		throw this.statusError(itemIndex, answer, undefined);
	}

	/** Reads and checks the requirement of a 402; remembers it for the next calls. Refuses what the policy does not allow. */
	private learn(itemIndex: number, path: string, answer: HttpAnswer): KnownRequirement {
		const paymentRequired: PaymentRequired | undefined = decodePaymentRequired(answer.headers['payment-required']);
		if (!paymentRequired) {
			throw nodeApiError(this.node, { status: answer.status } as JsonObject, {
				message: 'The gateway asked for payment (402) without a readable PAYMENT-REQUIRED header; nothing was signed',
				description: 'Check the Gateway Base URL in the x402 Wallet credential: it must point to an x402 version 2 gateway.',
				httpCode: '402',
				itemIndex,
			});
		}
		const choice = chooseRequirement(paymentRequired, this.policy);
		if (!choice.ok) {
			this.known.delete(path);
			const message = `Payment refused, nothing was signed: ${choice.reason}`;
			const error = nodeOperationError(this.node, message, {
				itemIndex,
				description: `The node pays only what the "${CREDENTIAL}" credential allows: the exact scheme on its network, its USDC token, its pinned payee (if set), at most its Max Price per Request, and an authorization valid for at most ${MAX_TIMEOUT_SECONDS} seconds. If you trust this gateway's new terms, change the credential; otherwise do not use this gateway.`,
			});
			throw refusal(error, `${message}. ${CANNOT_PAY}`);
		}
		const known: KnownRequirement = { requirement: choice.requirement, resource: paymentRequired.resource };
		this.known.set(path, known);
		return known;
	}

	private async payAndSend(request: PaidRequest, url: string, known: KnownRequirement, mayRefresh: boolean): Promise<GatewayResult> {
		const { itemIndex, path, body, deadlineMs } = request;
		const base64Fields = request.base64Fields ?? [];
		const amount = BigInt(known.requirement.amount);
		const overBudget = this.ledger.reserve(amount, this.maxTotalSpend, request.unit);
		if (overBudget) {
			const message = `Spending limit reached, nothing was signed for this item: ${describeOverBudget(overBudget)}`;
			const error = nodeOperationError(this.node, message, {
				itemIndex,
				description: 'Raise "Max Total Spend per Execution (USDC)" in the node options, or send fewer items per execution.',
			});
			throw refusal(error, budgetSentence(overBudget, request.unit));
		}
		let signed: SignedPayment;
		try {
			signed = await this.signer.sign(known.requirement, known.resource);
		} catch (error) {
			this.ledger.release(amount, request.unit);
			// The library refused (its own spend controls) or could not sign: nothing left the node.
			const message = `Payment refused, nothing was sent: ${(error as Error).message.split('\n')[0].slice(0, 300)}`;
			const refused = nodeOperationError(this.node, message, {
				itemIndex,
				description: `Check the "${CREDENTIAL}" credential: network, USDC token address and Max Price per Request.`,
			});
			throw refusal(refused, `${message}. ${CANNOT_PAY}`);
		}

		const outcome = await postJson(url, body, { 'PAYMENT-SIGNATURE': signed.header }, deadlineMs, base64Fields);
		if (!outcome.ok) {
			if (outcome.failure.neverSent) {
				// The signed authorization never left this machine: nothing can be settled with it.
				this.ledger.release(amount, request.unit);
				throw this.unreachable(itemIndex, outcome.failure);
			}
			this.ledger.commit(amount);
			throw this.mayHaveBeenCharged(itemIndex, signed, outcome.failure.cause);
		}
		const answer = outcome.answer;
		const settlement = decodeSettlement(answer.headers['payment-response']);

		if (answer.status >= 200 && answer.status < 300) {
			this.ledger.commit(amount);
			return { body: answer.json, receipt: toReceipt(signed, settlement), settlement, nonce: signed.nonce, decoded: answer.decoded };
		}
		if (answer.status === 402) {
			// A 402 means the payment was not accepted or not settled: nothing was charged.
			this.ledger.release(amount, request.unit);
			const fresh = decodePaymentRequired(answer.headers['payment-required']);
			if (mayRefresh && fresh) {
				const refreshed = this.learn(itemIndex, path, answer);
				return await this.payAndSend(request, url, refreshed, false);
			}
			// First line only: gateways may pass on multi-line library errors.
			const reason = (fresh?.error ?? settlement?.errorMessage ?? settlement?.errorReason ?? 'no reason given').split('\n')[0].slice(0, 300);
			throw nodeApiError(this.node, { status: 402, reason } as JsonObject, {
				message: `The gateway did not accept the payment (402: ${reason}); nothing was charged`,
				description: `Check that the wallet ${signed.payer} holds enough USDC (${usdc(signed.amount)} per request) on ${signed.network}, and that the "${CREDENTIAL}" credential matches the gateway (network and token).`,
				httpCode: '402',
				itemIndex,
			});
		}
		if (answer.status === 400) {
			// Invalid input is rejected before payment.
			this.ledger.release(amount, request.unit);
			throw this.statusError(itemIndex, answer, undefined);
		}
		// Any other answer to a paid request: charged if the gateway says it settled, otherwise unknown.
		this.ledger.commit(amount);
		if (settlement?.success) throw this.statusError(itemIndex, answer, toReceipt(signed, settlement));
		throw this.mayHaveBeenCharged(itemIndex, signed, `the gateway answered with status ${answer.status}`);
	}

	private unreachable(itemIndex: number, failure: HttpFailure): NodeApiError {
		return nodeApiError(this.node, { message: failure.cause } as JsonObject, {
			message: `Could not reach ${SERVICE}: ${failure.cause}; nothing was paid`,
			description: failure.timedOut
				? 'The gateway did not answer an unpaid request in time. Try again later, or raise "Response Deadline (Seconds)".'
				: `Check the Gateway Base URL in the "${CREDENTIAL}" credential and your network, then try again.`,
			itemIndex,
		});
	}

	/** A signed payment went out and no clear answer came back: say what could have been taken, and how to check. */
	private mayHaveBeenCharged(itemIndex: number, signed: SignedPayment, cause: string): NodeApiError {
		const expiry = /^\d+$/.test(signed.validBefore) ? new Date(Number(signed.validBefore) * 1000).toISOString() : 'unknown';
		const message = `The payment may have been charged: ${cause} after a signed payment of ${usdc(signed.amount)} was sent (payer ${signed.payer}, nonce ${signed.nonce}, amount ${formatAtomic(signed.amount)} USDC, network ${signed.network})`;
		return nodeApiError(
			this.node,
			{ payer: signed.payer, nonce: signed.nonce, amount: formatAtomic(signed.amount), network: signed.network } as JsonObject,
			{
				message,
				description: `The gateway settles before it fetches the page, so it may have taken the payment while the node stopped waiting. The node never resends a paid request, so this item was not paid twice. Before running it again, look for a transfer from ${signed.payer} to ${signed.payTo} with authorization nonce ${signed.nonce} on ${signed.network} (the authorization expires at ${expiry}). If pages are slow, raise "Response Deadline (Seconds)" in the node options.`,
				itemIndex,
			},
		);
	}

	/** A non-success status. With a receipt, the error says the call was charged and names the transaction. */
	private statusError(itemIndex: number, answer: HttpAnswer, receipt: Receipt | undefined): NodeApiError {
		const detail = describeBody(answer);
		const charged = receipt
			? ` It was charged ${receipt.amount} USDC (transaction ${receipt.transaction ?? 'not reported'}, payer ${receipt.payer}).`
			: '';
		const errorBody: JsonObject =
			answer.json && typeof answer.json === 'object' && !Array.isArray(answer.json) ? (answer.json as JsonObject) : { body: answer.text.slice(0, 500) };
		if (answer.status === 400) {
			return nodeApiError(this.node, errorBody, {
				message: `The gateway rejected the input: ${detail}; nothing was paid`,
				description: 'Correct the field named in the message and run the node again.',
				httpCode: '400',
				itemIndex,
			});
		}
		return nodeApiError(this.node, errorBody, {
			message: `The gateway answered with status ${answer.status}${detail ? `: ${detail}` : ''}.${charged}`,
			description:
				answer.status >= 500
					? 'This is on the gateway side. Try again later.'
					: `Check the Gateway Base URL in the "${CREDENTIAL}" credential and the node's parameters.`,
			httpCode: String(answer.status),
			itemIndex,
		});
	}
}

/** A short readable summary of an error body: `message`, `error`, or `field: message` issues. */
function describeBody(answer: HttpAnswer): string {
	const body = answer.json as Record<string, unknown> | undefined;
	if (!body || typeof body !== 'object') return answer.text.slice(0, 200);
	const issues = (body.issues ?? body.errors) as unknown;
	if (Array.isArray(issues) && issues.length > 0) {
		return issues
			.map((issue) => {
				if (issue && typeof issue === 'object') {
					const { field, message } = issue as Record<string, unknown>;
					return typeof message === 'string' ? message : `${String(field)} is invalid`;
				}
				return String(issue);
			})
			.join('; ');
	}
	for (const key of ['message', 'error']) {
		const value = body[key];
		if (typeof value === 'string' && value !== '') return value;
		if (value && typeof value === 'object' && typeof (value as Record<string, unknown>).message === 'string') {
			return (value as Record<string, unknown>).message as string;
		}
	}
	return '';
}
