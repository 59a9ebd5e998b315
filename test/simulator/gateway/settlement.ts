/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the simulator is test code that runs in plain Node, never inside n8n; it delays answers in real time */
/**
 * The settlement of a paid request without a cached answer: the payload must name the requirement in force, the
 * facilitator verifies it, it settles on chain (one at a time), then the upstream work runs and the 200 envelope
 * carries the PAYMENT-RESPONSE receipt. Records every charge and what went upstream; applies the after-settle fault.
 */
import type { x402Facilitator } from '@x402/core/facilitator';
import { encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { getAddress, type Hex } from 'viem';

import type { SimClock } from '../core/clock';
import type { SimReply } from '../core/http';
import { gatewayErrorBody } from './errors';
import type { PaymentIdClaim } from './paymentIds';
import { matchesRequirement } from './requirements';
import type {
	AfterSettleFault,
	BeforeSettleHook,
	GatewayRuntimeOptions,
	GatewayService,
	PaymentRejection,
	SettlementRecord,
	UpstreamRequest,
} from './types';
import { simulateFetch, type FetchData } from './upstream';
import { validateFetchRequest, validateSearchRequest } from './validation';
import { simulateSearch, type SearchData } from './webSearch';

/** `service` value of the 200 envelope per operation. */
const ENVELOPE_SERVICE: Record<GatewayService, string> = { scraperAPI: 'fetchHtml', webSearch: 'webSearch' };

/** What the settlement needs from the gateway simulator. */
interface SettlementContext {
	clock: SimClock;
	facilitator: x402Facilitator;
	options: GatewayRuntimeOptions;
	/** The requirement in force now (override applied). */
	requirement(): PaymentRequirements;
	/** Records a refused payment (nothing charged). */
	reject(service: GatewayService, rejection: Omit<PaymentRejection, 'service' | 'at'>): void;
	/** The 402 asking for payment again, with this error. */
	paymentRequiredReply(service: GatewayService, error: string): SimReply;
}

/** A paid request that passed validation and the payment header: its operation, body, payload and payer. */
export interface PaidRequest {
	service: GatewayService;
	body: unknown;
	payload: PaymentPayload;
	who: { payer: string; nonce: string };
	/** The payload's payment identifier and this request's claim on it, when the extension applies. */
	paymentId?: { id: string; claim: PaymentIdClaim };
}

interface UpstreamOutcome {
	ok: boolean;
	data: FetchData | SearchData;
	delayMs: number;
	forwarded: Record<string, unknown>;
}

/** The simulated upstream work of a validated body. */
function upstreamWork(service: GatewayService, body: unknown, options: GatewayRuntimeOptions): UpstreamOutcome {
	if (service === 'scraperAPI') {
		const fetchRequest = validateFetchRequest(body);
		if (!fetchRequest.ok) throw new Error('unreachable: validated above');
		return simulateFetch(fetchRequest.value, options);
	}
	const searchRequest = validateSearchRequest(body);
	if (!searchRequest.ok) throw new Error('unreachable: validated above');
	return { ...simulateSearch(searchRequest.value, options), forwarded: { ...searchRequest.value } };
}

export class Settlement {
	/** Successful settlements (charges), in order. */
	readonly settlements: SettlementRecord[] = [];
	/** What went upstream for accepted requests, in order. */
	readonly upstreamRequests: UpstreamRequest[] = [];
	beforeSettleHook?: BeforeSettleHook;
	private afterSettleFault?: AfterSettleFault;
	private afterSettleCount = 0;
	private settleQueue: Promise<unknown> = Promise.resolve();

	constructor(private readonly context: SettlementContext) {}

	/** See `GatewaySimulator.setAfterSettleFault`; the count of settlements the fault saw starts again. */
	setAfterSettleFault(fault?: AfterSettleFault): void {
		this.afterSettleFault = fault;
		this.afterSettleCount = 0;
	}

	/** Forgets the records and the hooks. */
	reset(): void {
		this.settlements.length = 0;
		this.upstreamRequests.length = 0;
		this.beforeSettleHook = undefined;
		this.setAfterSettleFault(undefined);
	}

	/** Match, verify, settle, work, answer: one paid request without a cached answer. */
	async charge(request: PaidRequest): Promise<SimReply> {
		const { service, payload, who } = request;
		const requirement = this.context.requirement();
		if (!matchesRequirement(requirement, payload.accepted)) {
			this.context.reject(service, { stage: 'match', reason: 'No matching payment requirements', ...who });
			return this.context.paymentRequiredReply(service, 'No matching payment requirements');
		}
		const invalidReason = await this.verify(payload, requirement);
		if (invalidReason !== undefined) {
			this.context.reject(service, { stage: 'verify', reason: invalidReason, ...who });
			return this.context.paymentRequiredReply(service, invalidReason);
		}

		if (this.beforeSettleHook) await this.beforeSettleHook({ service, ...who });
		const settled = await this.settle(payload, requirement);
		const receipt: SettleResponse = { ...settled, amount: settled.amount ?? requirement.amount };
		const receiptHeader = { 'PAYMENT-RESPONSE': encodePaymentResponseHeader(receipt) };
		if (!settled.success) {
			const reason = [settled.errorReason ?? 'settlement_failed', settled.errorMessage].filter(Boolean).join(': ');
			this.context.reject(service, { stage: 'settle', reason, ...who });
			return {
				status: 402,
				headers: receiptHeader,
				json: { x402Version: 2, error: settled.errorReason ?? 'settlement_failed', settlement: receipt },
			};
		}
		const record = this.record(request, receipt, requirement);
		return await this.work(request, record, receiptHeader, requirement);
	}

	/** The facilitator's verdict: undefined when valid, else the reason (its code and message). */
	private async verify(payload: PaymentPayload, requirement: PaymentRequirements): Promise<string | undefined> {
		try {
			const verified = await this.context.facilitator.verify(payload, requirement);
			if (verified.isValid) return undefined;
			return [verified.invalidReason ?? 'invalid_payment', verified.invalidMessage].filter(Boolean).join(': ');
		} catch (error) {
			return `verification failed: ${(error as Error).message}`;
		}
	}

	/** Settles one payment at a time: the relayer account's nonces stay in order, and replays lose cleanly. */
	private async settle(payload: PaymentPayload, requirement: PaymentRequirements): Promise<SettleResponse> {
		const run = this.settleQueue.then(async (): Promise<SettleResponse> => {
			try {
				return await this.context.facilitator.settle(payload, requirement);
			} catch (error) {
				return {
					success: false,
					errorReason: 'settlement_error',
					errorMessage: (error as Error).message,
					transaction: '',
					network: requirement.network as PaymentRequirements['network'],
				};
			}
		});
		this.settleQueue = run.catch(() => undefined);
		return await run;
	}

	/** Records the charge of a successful settlement. */
	private record({ service, body, who, paymentId }: PaidRequest, receipt: SettleResponse, requirement: PaymentRequirements): SettlementRecord {
		const record: SettlementRecord = {
			service,
			transaction: receipt.transaction as Hex,
			network: receipt.network,
			payer: getAddress(receipt.payer ?? who.payer),
			payTo: getAddress(requirement.payTo),
			asset: getAddress(requirement.asset),
			amount: receipt.amount as string,
			nonce: who.nonce as Hex,
			at: this.context.clock.now(),
			target: service === 'scraperAPI' ? (body as { url: string }).url : (body as { query: string }).query,
		};
		if (paymentId) record.paymentId = paymentId.id;
		this.settlements.push(record);
		return record;
	}

	/** Upstream work after settlement (its failure is reported inside a 200 and is not refunded), then the answer. */
	private async work(
		{ service, body, paymentId }: PaidRequest,
		record: SettlementRecord,
		receiptHeader: Record<string, string>,
		requirement: PaymentRequirements,
	): Promise<SimReply> {
		const { ok, data, delayMs, forwarded } = upstreamWork(service, body, this.context.options);
		this.upstreamRequests.push({ service, forwarded, at: this.context.clock.now() });
		record.upstreamOk = ok;
		const answer: SimReply = { status: 200, headers: receiptHeader, json: { ok, service: ENVELOPE_SERVICE[service], data } };
		// Kept for the validity window the payment was made under, before any after-settle fault.
		paymentId?.claim.store(answer, record.at, requirement.maxTimeoutSeconds * 1000);
		if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));

		const fault = this.afterSettleFault ? this.afterSettleFault(record, this.afterSettleCount++) : undefined;
		if (fault === 'reset') return { status: 0, drop: true };
		if (typeof fault === 'number') return { status: fault, json: gatewayErrorBody(fault) };
		return answer;
	}
}
