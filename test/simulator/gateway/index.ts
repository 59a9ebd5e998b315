/**
 * The gateway simulator (section A) and its public API: `GatewaySimulator`, its options and what tests read. The
 * request order lives in `requestOrder.ts`, the settlement in `settlement.ts`, the requirement in `requirements.ts`.
 */
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { getAddress, type Hex, type TransactionReceipt } from 'viem';

import { SimClock } from '../core/clock';
import type { SimReply } from '../core/http';
import { SimServer } from '../core/server';
import { LocalChain, PRICE_ATOMIC, type DevWallet } from './chain';
import { gatewayErrorBody } from './errors';
import { createLocalFacilitator } from './facilitator';
import { DEFAULT_PAYMENT_IDENTIFIER_MODE } from './paymentIds';
import { RequestOrder } from './requestOrder';
import { DEFAULT_MAX_TIMEOUT_SECONDS, paymentRequiredObject, paymentRequiredReply, withOverride } from './requirements';
import { Settlement } from './settlement';
import type {
	AfterSettleFault,
	BeforeSettleHook,
	GatewayRuntimeOptions,
	GatewayService,
	GatewaySimulatorOptions,
	PaymentRejection,
	ReplayRecord,
	RequirementOverride,
	SettlementRecord,
	UpstreamRequest,
} from './types';

export { ANVIL_MNEMONIC, DEFAULT_FUNDING_ATOMIC, PRICE_ATOMIC, deriveDevWallets, type DevWallet } from './chain';
export { decodeJpeg, type DecodedJpeg } from './jpeg/decode';
export { encodeJpeg } from './jpeg/encode';
export { padJpegToBytes } from './jpeg/pad';
export { DEFAULT_PAYMENT_IDENTIFIER_MODE, type PaymentIdentifierMode } from './paymentIds';
export { classifyHost } from './publicHost';
export { SCREENSHOT_HEIGHT, SCREENSHOT_WIDTH } from './screenshot';
export type { GatewaySimulatorOptions, ReplayRecord, RequirementOverride, SettlementRecord } from './types';
export { UPSTREAM_DEFAULTS, type FetchData } from './upstream';
export { checkPublicUrl, validateFetchRequest, validateSearchRequest, type ValidationIssue } from './validation';
export { RESULTS_PER_PAGE, type SearchData, type SearchResult } from './webSearch';

/** Route names (`METHOD /pattern`) as the request log and fault injection refer to them. */
export const GATEWAY_ROUTES = {
	scraperAPI: 'POST /api/service/scraperAPI',
	webSearch: 'POST /api/service/webSearch',
} as const;

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
	readonly settlements: SettlementRecord[];
	/** Refused payments (nothing charged), in order. */
	readonly rejections: PaymentRejection[] = [];
	/** What went upstream for accepted requests, in order. */
	readonly upstreamRequests: UpstreamRequest[];
	/** Paid requests answered from the payment-identifier cache (no verify, no charge), in order. */
	readonly replays: ReplayRecord[];
	/** Mutable behaviour; changes apply to the next request. */
	readonly options: GatewayRuntimeOptions;
	readonly chain: LocalChain;

	private readonly maxTimeoutSeconds: number;
	private override?: RequirementOverride;
	private readonly settlement: Settlement;
	private readonly requestOrder: RequestOrder;
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
		const shared = {
			clock: this.clock,
			options: this.options,
			reject: (service: GatewayService, rejection: Omit<PaymentRejection, 'service' | 'at'>) =>
				this.rejections.push({ service, ...rejection, at: this.clock.now() }),
			paymentRequiredReply: (service: GatewayService, error: string): SimReply => paymentRequiredReply(this.paymentRequired(service, error)),
		};
		this.settlement = new Settlement({ ...shared, facilitator: createLocalFacilitator(chain), requirement: () => this.paymentRequirements() });
		this.requestOrder = new RequestOrder({ ...shared, settlement: this.settlement });
		this.settlements = this.settlement.settlements;
		this.upstreamRequests = this.settlement.upstreamRequests;
		this.replays = this.requestOrder.replays;
		this.server = new SimServer({ name: 'gateway', clock: this.clock, errorBody: gatewayErrorBody, seed: options.seed });
		this.server.route('POST', '/api/service/scraperAPI', (req) => this.requestOrder.handle(req, 'scraperAPI'));
		this.server.route('POST', '/api/service/webSearch', (req) => this.requestOrder.handle(req, 'webSearch'));
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
		return withOverride(base, this.override);
	}

	/** The full PAYMENT-REQUIRED object for an operation (what the 402 header carries, base64-decoded). */
	paymentRequired(service: GatewayService, error = 'Payment required'): PaymentRequired {
		return paymentRequiredObject(this.url, service, this.paymentRequirements(), this.options.paymentIdentifier, error);
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
		this.settlement.beforeSettleHook = hook;
	}

	/**
	 * Installs (or with undefined removes) a fault applied after a settlement and its upstream work, just before the
	 * answer: the unknown outcome of a paid request. `'reset'` destroys the connection without an answer; a status
	 * (e.g. 500) answers it with the documented error body and no PAYMENT-RESPONSE header. The answer of a request
	 * with a payment identifier is cached before the fault, so a resend gets it; replayed answers are not faulted.
	 */
	setAfterSettleFault(fault?: AfterSettleFault): void {
		this.settlement.setAfterSettleFault(fault);
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
		this.settlement.reset();
		this.requestOrder.reset();
		this.rejections.length = 0;
		this.server.log.clear();
		this.server.faults.clear();
		this.override = undefined;
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
}
