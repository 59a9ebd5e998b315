/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the simulator is test code that runs in plain Node, never inside n8n; it delays answers in real time */
import type { x402Facilitator } from '@x402/core/facilitator';
import { decodePaymentSignatureHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { getAddress, type Hex, type TransactionReceipt } from 'viem';

import { SimClock } from '../core/clock';
import { SimServer, type SimReply, type SimRequest } from '../core/server';
import { LocalChain, PRICE_ATOMIC, type DevWallet } from './chain';
import { createLocalFacilitator } from './facilitator';
import {
	DEFAULT_PAYMENT_IDENTIFIER_MODE,
	PaymentIdCache,
	paymentIdentifierExtensions,
	readPaymentId,
	signedByPayer,
	type PaymentIdClaim,
	type PaymentIdentifierMode,
	type ReplayRecord,
} from './paymentIds';
import { simulateFetch, simulateSearch, type FetchData, type SearchData } from './upstream';
import { validateFetchRequest, validateSearchRequest, type ValidationIssue, type ValidationResult } from './validation';

export { ANVIL_MNEMONIC, DEFAULT_FUNDING_ATOMIC, PRICE_ATOMIC, deriveDevWallets, type DevWallet } from './chain';
export { decodeJpeg, encodeJpeg, padJpegToBytes, type DecodedJpeg } from './jpeg';
export { DEFAULT_PAYMENT_IDENTIFIER_MODE, type PaymentIdentifierMode, type ReplayRecord } from './paymentIds';
export {
	RESULTS_PER_PAGE,
	SCREENSHOT_HEIGHT,
	SCREENSHOT_WIDTH,
	UPSTREAM_DEFAULTS,
	type FetchData,
	type SearchData,
	type SearchResult,
} from './upstream';
export { checkPublicUrl, classifyHost, validateFetchRequest, validateSearchRequest, type ValidationIssue } from './validation';

/** The two paid operations of section A. */
export type GatewayService = 'scraperAPI' | 'webSearch';

/** Route names (`METHOD /pattern`) as the request log and fault injection refer to them. */
export const GATEWAY_ROUTES = {
	scraperAPI: 'POST /api/service/scraperAPI',
	webSearch: 'POST /api/service/webSearch',
} as const;

/** `service` value of the 200 envelope per operation. */
export const ENVELOPE_SERVICE: Record<GatewayService, string> = { scraperAPI: 'fetchHtml', webSearch: 'webSearch' };

const RESOURCE_DESCRIPTION: Record<GatewayService, string> = {
	scraperAPI: 'Fetch one public web page: rendered HTML, Markdown and a JPEG screenshot',
	webSearch: 'Localized search-engine results',
};

export const DEFAULT_MAX_TIMEOUT_SECONDS = 120;

/** Mutable behaviour of a running simulator; changes apply to the next request. */
export interface GatewayRuntimeOptions {
	/** Real-time delay (ms) added to every paid answer, after settlement: client-deadline tests. */
	upstreamDelayMs: number;
	/** Grow every screenshot to this many bytes (still a valid JPEG): memory benchmarks. Undefined: natural size. */
	screenshotBytes: number | undefined;
	/**
	 * x402 `payment-identifier` extension: advertised in every 402 (`required: false` / `true`) and honoured (an
	 * identifier's settled answer is replayed, never charged twice), or `off` (not advertised, identifiers ignored).
	 */
	paymentIdentifier: PaymentIdentifierMode;
}

export interface GatewaySimulatorOptions extends Partial<GatewayRuntimeOptions> {
	/** Shared simulated clock (timestamps of records and the request log); a new one when omitted. */
	clock?: SimClock;
	/** HTTP port on 127.0.0.1; a free one when omitted. */
	port?: number;
	/** anvil RPC port on 127.0.0.1; a free one when omitted. */
	anvilPort?: number;
	/** Funded test wallets besides the demo wallet. Default 5. */
	testWalletCount?: number;
	/** USDC (atomic, 6 decimals) minted to the demo wallet and to each test wallet. Default 1000 USDC. */
	fundingAtomic?: bigint;
	/** maxTimeoutSeconds advertised in the requirement. Default 120. */
	maxTimeoutSeconds?: number;
	/** Seed of fault-injection randomness. */
	seed?: number | string;
}

/** A payment settled on chain: the caller was charged. */
export interface SettlementRecord {
	service: GatewayService;
	transaction: Hex;
	network: string;
	payer: `0x${string}`;
	payTo: `0x${string}`;
	asset: `0x${string}`;
	/** Atomic units. */
	amount: string;
	/** EIP-3009 nonce of the authorization. */
	nonce: Hex;
	/** Simulated time of settlement (ms). */
	at: number;
	/** `url` of a fetch, `query` of a search. */
	target: string;
	/** Whether the upstream work after settlement succeeded; undefined until it finished. */
	upstreamOk?: boolean;
	/** The payload's `payment-identifier` id, when it carried one and the extension is on. */
	paymentId?: string;
}

/** A paid request that was refused: nothing was charged. */
export interface PaymentRejection {
	service: GatewayService;
	/**
	 * Where it stopped: no header, header not decodable, `payment-identifier` malformed or missing while required
	 * (a 400), payload not for a current requirement, verify, settle.
	 */
	stage: 'missing' | 'decode' | 'paymentId' | 'match' | 'verify' | 'settle';
	reason: string;
	payer?: string;
	nonce?: string;
	at: number;
}

/** What the gateway forwarded upstream for an accepted request. */
export interface UpstreamRequest {
	service: GatewayService;
	/** Fetch: supplied optional settings only, plus url and geoCode. Search: query, country, language, page. */
	forwarded: Record<string, unknown>;
	at: number;
}

/** Runs after a payment verified and before it settles: tests change chain state in between (front-run, drain). */
export type BeforeSettleHook = (payment: { service: GatewayService; payer: string; nonce: string }) => Promise<void> | void;

/**
 * Runs after a settlement and its upstream work, just before the answer (see `setAfterSettleFault`): `'reset'` drops
 * the connection without an answer, a status answers it with the documented error body and no PAYMENT-RESPONSE,
 * undefined answers normally. `index` counts the settlements the hook saw since it was set, from 0.
 */
export type AfterSettleFault = (settled: SettlementRecord, index: number) => 'reset' | number | undefined;

/** Fields of the advertised `accepts` entry a test can override; `extra: undefined` removes `extra`. */
export type RequirementOverride = Partial<PaymentRequirements>;

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

function deepEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
	const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
	if (ka.length !== kb.length) return false;
	return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Does the `accepted` entry of a payload name this requirement? Like the x402 resource server: every field but
 * `extra` equal, and `extra` of the requirement contained in the accepted one.
 */
function matchesRequirement(requirement: PaymentRequirements, accepted: PaymentRequirements): boolean {
	const { extra: requiredExtra, ...requiredCore } = requirement;
	const { extra: acceptedExtra, ...acceptedCore } = accepted;
	if (!deepEqual(requiredCore, acceptedCore)) return false;
	if (requiredExtra === undefined) return true;
	if (typeof acceptedExtra !== 'object' || acceptedExtra === null) return false;
	return Object.entries(requiredExtra).every(([k, v]) => deepEqual(v, (acceptedExtra as Record<string, unknown>)[k]));
}

function validationReply(issues: ValidationIssue[]): SimReply {
	const [first] = issues;
	return {
		status: 400,
		json: { error: 'invalid_request', field: first.field, rule: first.rule, message: first.message, issues },
	};
}

function gatewayErrorBody(status: number): unknown {
	switch (status) {
		case 400:
			return { error: 'invalid_request', message: 'Bad request' };
		case 404:
			return { error: 'not_found', message: 'Not found' };
		case 429:
			return { error: 'rate_limited', message: 'Too many requests. Please try again later.' };
		case 502:
			return { error: 'bad_gateway', message: 'Upstream unavailable' };
		case 503:
			return { error: 'service_unavailable', message: 'Service temporarily unavailable' };
		default:
			return { error: status >= 500 ? 'internal_error' : 'error', message: 'An unexpected error occurred' };
	}
}

/**
 * Section A of the interface: the x402 v2 pay-per-request gateway, with real payments. Each accepted request
 * moves 0.01 USDC of a local EIP-3009 token on a local anvil chain, verified and settled by an in-process
 * x402 facilitator (@x402/core + @x402/evm). Order per request: validate (400) -> payment header (402) ->
 * payment-identifier (400, or the cached answer of a settled identifier) -> verify -> settle on chain -> upstream
 * work -> 200 envelope with PAYMENT-RESPONSE.
 */
export class GatewaySimulator {
	readonly server: SimServer;
	readonly clock: SimClock;
	readonly chainId: number;
	/** CAIP-2 network of the chain, `eip155:31337`. */
	readonly network: `${string}:${string}`;
	readonly rpcUrl: string;
	readonly tokenAddress: `0x${string}`;
	/** The service's payee (anvil account 1). */
	readonly payTo: `0x${string}`;
	/** The facilitator's relayer (anvil account 0): pays gas, mints. */
	readonly facilitatorAddress: `0x${string}`;
	/** Funded with 1000 USDC at start (anvil account 2). */
	readonly demoWallet: DevWallet;
	/** Funded with 1000 USDC each at start (anvil accounts 3..). */
	readonly testWallets: DevWallet[];
	/** Successful settlements (charges), in order. */
	readonly settlements: SettlementRecord[] = [];
	/** Refused payments (nothing charged), in order. */
	readonly rejections: PaymentRejection[] = [];
	/** What went upstream for accepted requests, in order. */
	readonly upstreamRequests: UpstreamRequest[] = [];
	/** Paid requests answered from the payment-identifier cache (no verify, no charge), in order. */
	readonly replays: ReplayRecord[] = [];
	/** Mutable behaviour; changes apply to the next request. */
	readonly options: GatewayRuntimeOptions;
	readonly chain: LocalChain;

	private readonly facilitator: x402Facilitator;
	private readonly maxTimeoutSeconds: number;
	private override?: RequirementOverride;
	private beforeSettleHook?: BeforeSettleHook;
	private afterSettleFault?: AfterSettleFault;
	private afterSettleCount = 0;
	private readonly paymentIds: PaymentIdCache;
	private settleQueue: Promise<unknown> = Promise.resolve();
	private closed = false;

	private constructor(chain: LocalChain, options: GatewaySimulatorOptions) {
		this.chain = chain;
		this.clock = options.clock ?? new SimClock();
		this.chainId = chain.chainId;
		this.network = `eip155:${chain.chainId}`;
		this.rpcUrl = chain.rpcUrl;
		this.tokenAddress = getAddress(chain.tokenAddress);
		this.payTo = getAddress(chain.payTo);
		this.facilitatorAddress = getAddress(chain.facilitator.address);
		this.demoWallet = chain.demoWallet;
		this.testWallets = chain.testWallets;
		this.maxTimeoutSeconds = options.maxTimeoutSeconds ?? DEFAULT_MAX_TIMEOUT_SECONDS;
		this.options = {
			upstreamDelayMs: options.upstreamDelayMs ?? 0,
			screenshotBytes: options.screenshotBytes,
			paymentIdentifier: options.paymentIdentifier ?? DEFAULT_PAYMENT_IDENTIFIER_MODE,
		};
		this.paymentIds = new PaymentIdCache(this.clock);
		this.facilitator = createLocalFacilitator(chain);
		this.server = new SimServer({ name: 'gateway', clock: this.clock, errorBody: gatewayErrorBody, seed: options.seed });
		this.server.route('POST', '/api/service/scraperAPI', (req) => this.handle(req, 'scraperAPI'));
		this.server.route('POST', '/api/service/webSearch', (req) => this.handle(req, 'webSearch'));
	}

	/** Starts anvil, deploys and funds the token, and listens on 127.0.0.1. */
	static async start(options: GatewaySimulatorOptions = {}): Promise<GatewaySimulator> {
		const chain = await LocalChain.start({
			anvilPort: options.anvilPort,
			testWalletCount: options.testWalletCount,
			fundingAtomic: options.fundingAtomic,
		});
		let started = false;
		try {
			const simulator = new GatewaySimulator(chain, options);
			await simulator.server.listen(options.port ?? 0);
			started = true;
			return simulator;
		} finally {
			// A failed listen must not leave anvil running.
			if (!started) await chain.close();
		}
	}

	/** Base URL of the gateway, e.g. `http://127.0.0.1:41234` (`{base_url}`). */
	get url(): string {
		return this.server.url;
	}

	/** The requirement advertised (and enforced) for an operation now, override applied. */
	paymentRequirements(): PaymentRequirements {
		const base: PaymentRequirements = {
			scheme: 'exact',
			network: this.network,
			amount: PRICE_ATOMIC.toString(),
			asset: this.tokenAddress,
			payTo: this.payTo,
			maxTimeoutSeconds: this.maxTimeoutSeconds,
			extra: { name: 'USD Coin', version: '2' },
		};
		if (!this.override) return base;
		const merged = { ...base, ...this.override } as PaymentRequirements;
		if ('extra' in this.override && this.override.extra === undefined) delete (merged as Partial<PaymentRequirements>).extra;
		return merged;
	}

	/** The full PAYMENT-REQUIRED object for an operation (what the 402 header carries, base64-decoded). */
	paymentRequired(service: GatewayService, error = 'Payment required'): PaymentRequired {
		const paymentRequired: PaymentRequired = {
			x402Version: 2,
			error,
			resource: {
				url: `${this.url}/api/service/${service}`,
				description: RESOURCE_DESCRIPTION[service],
				mimeType: 'application/json',
			},
			accepts: [this.paymentRequirements()],
		};
		const extensions = paymentIdentifierExtensions(this.options.paymentIdentifier);
		if (extensions) paymentRequired.extensions = extensions;
		return paymentRequired;
	}

	/**
	 * Makes the gateway misbehave: advertise (and verify against) a changed requirement, e.g. `{ amount: '20000' }`,
	 * another network/asset/payTo, a huge maxTimeoutSeconds, or `{ extra: undefined }`. Undefined restores it.
	 */
	setRequirementOverride(override?: RequirementOverride): void {
		this.override = override ? { ...override } : undefined;
	}

	/**
	 * Installs (or with undefined removes) a hook run between a successful verify and the settlement, e.g. to
	 * settle the same authorization first so this settlement fails on chain (the settle-failure path).
	 */
	setBeforeSettleHook(hook?: BeforeSettleHook): void {
		this.beforeSettleHook = hook;
	}

	/**
	 * Installs (or with undefined removes) a fault applied after a settlement and its upstream work, just before the
	 * answer: the unknown outcome of a paid request. `'reset'` destroys the connection without an answer; a status
	 * (e.g. 500) answers it with the documented error body and no PAYMENT-RESPONSE header. The answer of a request
	 * with a payment identifier is cached before the fault, so a resend gets it; replayed answers are not faulted.
	 */
	setAfterSettleFault(fault?: AfterSettleFault): void {
		this.afterSettleFault = fault;
		this.afterSettleCount = 0;
	}

	/** USDC balance (atomic) of an address on the local chain. */
	async balanceOf(address: `0x${string}`): Promise<bigint> {
		return await this.chain.balanceOf(address);
	}

	/** The receipt of a transaction, or undefined when the chain has no such transaction. */
	async getTransactionReceipt(hash: Hex): Promise<TransactionReceipt | undefined> {
		try {
			return await this.chain.publicClient.getTransactionReceipt({ hash });
		} catch {
			return undefined;
		}
	}

	/** Whether a transaction with this hash was mined successfully on the local chain. */
	async txExists(hash: Hex): Promise<boolean> {
		return (await this.getTransactionReceipt(hash))?.status === 'success';
	}

	/** Whether an EIP-3009 nonce of an authorizer was used on chain. */
	async authorizationUsed(authorizer: `0x${string}`, nonce: Hex): Promise<boolean> {
		return await this.chain.authorizationState(authorizer, nonce);
	}

	/** Mints USDC (atomic) to any address, e.g. to fund a fresh wallet. */
	async mintUsdc(to: `0x${string}`, amountAtomic: bigint): Promise<void> {
		await this.chain.mint(to, amountAtomic);
	}

	/**
	 * Clears records, the request log, faults, hooks, the requirement override, the options and the payment-identifier
	 * cache; chain state stays.
	 */
	reset(): void {
		this.settlements.length = 0;
		this.rejections.length = 0;
		this.upstreamRequests.length = 0;
		this.replays.length = 0;
		this.paymentIds.clear();
		this.server.log.clear();
		this.server.faults.clear();
		this.override = undefined;
		this.beforeSettleHook = undefined;
		this.setAfterSettleFault(undefined);
		this.options.upstreamDelayMs = 0;
		this.options.screenshotBytes = undefined;
		this.options.paymentIdentifier = DEFAULT_PAYMENT_IDENTIFIER_MODE;
	}

	/** Stops the HTTP server and anvil (waits until the anvil process is gone). Safe to call twice. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.server.close();
		await this.chain.close();
	}

	private reject(service: GatewayService, rejection: Omit<PaymentRejection, 'service' | 'at'>): void {
		this.rejections.push({ service, ...rejection, at: this.clock.now() });
	}

	private paymentRequiredReply(service: GatewayService, error: string): SimReply {
		const paymentRequired = this.paymentRequired(service, error);
		return {
			status: 402,
			headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(paymentRequired), 'cache-control': 'no-store' },
			json: paymentRequired,
		};
	}

	private async handle(req: SimRequest, service: GatewayService): Promise<SimReply> {
		// (a) Input first: an invalid request is refused before any payment is asked for or taken.
		const validation: ValidationResult<unknown> = req.bodyIsInvalidJson
			? { ok: false, issues: [{ field: 'body', rule: 'type', message: 'the request body must be valid JSON' }] }
			: service === 'scraperAPI'
				? validateFetchRequest(req.body)
				: validateSearchRequest(req.body);
		if (!validation.ok) return validationReply(validation.issues);

		// (b) Payment header present and decodable, and naming the requirement in force.
		const header = firstHeader(req.headers['payment-signature']);
		if (header === undefined || header.trim() === '') {
			this.reject(service, { stage: 'missing', reason: 'no PAYMENT-SIGNATURE header' });
			return this.paymentRequiredReply(service, 'Payment required: send PAYMENT-SIGNATURE');
		}
		let payload: PaymentPayload;
		try {
			payload = decodePaymentSignatureHeader(header.trim());
		} catch (error) {
			const reason = `PAYMENT-SIGNATURE is not base64-encoded JSON (${(error as Error).message})`;
			this.reject(service, { stage: 'decode', reason });
			return this.paymentRequiredReply(service, reason);
		}
		const shapeProblem = payloadShapeProblem(payload);
		if (shapeProblem) {
			this.reject(service, { stage: 'decode', reason: shapeProblem });
			return this.paymentRequiredReply(service, `Invalid payment payload: ${shapeProblem}`);
		}
		const authorization = (payload.payload as { authorization: { from: string; nonce: string } }).authorization;
		const who = { payer: authorization.from, nonce: authorization.nonce };

		// (c) payment-identifier: malformed, or missing while required -> 400; a settled one -> its cached answer.
		const read = readPaymentId(payload, this.options.paymentIdentifier);
		if ('issue' in read) {
			this.reject(service, { stage: 'paymentId', reason: read.issue.message, ...who });
			return validationReply([read.issue]);
		}
		// Only the payer's own signature reaches the payer's cached answers (the facilitator refuses the rest anyway).
		if (read.id === undefined || !(await signedByPayer(payload))) return await this.charge(req, service, payload);
		const entry = await this.paymentIds.enter(authorization.from, read.id);
		if ('cached' in entry) {
			this.replays.push({
				service,
				paymentId: read.id,
				payer: getAddress(authorization.from),
				nonce: authorization.nonce as Hex,
				at: this.clock.now(),
			});
			return entry.cached;
		}
		try {
			return await this.charge(req, service, payload, { id: read.id, claim: entry.claim });
		} finally {
			entry.claim.release();
		}
	}

	/** Match, verify, settle, work, answer: one paid request without a cached answer. */
	private async charge(
		req: SimRequest,
		service: GatewayService,
		payload: PaymentPayload,
		paymentId?: { id: string; claim: PaymentIdClaim },
	): Promise<SimReply> {
		const authorization = (payload.payload as { authorization: { from: string; nonce: string } }).authorization;
		const who = { payer: authorization.from, nonce: authorization.nonce };
		const requirement = this.paymentRequirements();
		if (!matchesRequirement(requirement, payload.accepted)) {
			this.reject(service, { stage: 'match', reason: 'No matching payment requirements', ...who });
			return this.paymentRequiredReply(service, 'No matching payment requirements');
		}

		// (d) Verify, then settle on chain, then work.
		let invalidReason: string | undefined;
		try {
			const verified = await this.facilitator.verify(payload, requirement);
			if (!verified.isValid) {
				invalidReason = [verified.invalidReason ?? 'invalid_payment', verified.invalidMessage].filter(Boolean).join(': ');
			}
		} catch (error) {
			invalidReason = `verification failed: ${(error as Error).message}`;
		}
		if (invalidReason !== undefined) {
			this.reject(service, { stage: 'verify', reason: invalidReason, ...who });
			return this.paymentRequiredReply(service, invalidReason);
		}

		if (this.beforeSettleHook) await this.beforeSettleHook({ service, ...who });
		const settled = await this.settle(payload, requirement);
		const receipt: SettleResponse = { ...settled, amount: settled.amount ?? requirement.amount };
		const receiptHeader = { 'PAYMENT-RESPONSE': encodePaymentResponseHeader(receipt) };
		if (!settled.success) {
			const reason = [settled.errorReason ?? 'settlement_failed', settled.errorMessage].filter(Boolean).join(': ');
			this.reject(service, { stage: 'settle', reason, ...who });
			return {
				status: 402,
				headers: receiptHeader,
				json: { x402Version: 2, error: settled.errorReason ?? 'settlement_failed', settlement: receipt },
			};
		}

		const record: SettlementRecord = {
			service,
			transaction: settled.transaction as Hex,
			network: settled.network,
			payer: getAddress(settled.payer ?? authorization.from),
			payTo: getAddress(requirement.payTo),
			asset: getAddress(requirement.asset),
			amount: receipt.amount as string,
			nonce: authorization.nonce as Hex,
			at: this.clock.now(),
			target: service === 'scraperAPI' ? (req.body as { url: string }).url : (req.body as { query: string }).query,
		};
		if (paymentId) record.paymentId = paymentId.id;
		this.settlements.push(record);

		// Upstream work after settlement: its failure is reported inside a 200 and is not refunded.
		let ok: boolean;
		let data: FetchData | SearchData;
		let delayMs: number;
		if (service === 'scraperAPI') {
			const fetchRequest = validateFetchRequest(req.body);
			if (!fetchRequest.ok) throw new Error('unreachable: validated above');
			const outcome = simulateFetch(fetchRequest.value, this.options);
			this.upstreamRequests.push({ service, forwarded: outcome.forwarded, at: this.clock.now() });
			({ ok, data, delayMs } = outcome);
		} else {
			const searchRequest = validateSearchRequest(req.body);
			if (!searchRequest.ok) throw new Error('unreachable: validated above');
			const outcome = simulateSearch(searchRequest.value, this.options);
			this.upstreamRequests.push({ service, forwarded: { ...searchRequest.value }, at: this.clock.now() });
			({ ok, data, delayMs } = outcome);
		}
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

	/** Settles one payment at a time: the relayer account's nonces stay in order, and replays lose cleanly. */
	private async settle(payload: PaymentPayload, requirement: PaymentRequirements): Promise<SettleResponse> {
		const run = this.settleQueue.then(async (): Promise<SettleResponse> => {
			try {
				return await this.facilitator.settle(payload, requirement);
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
}

