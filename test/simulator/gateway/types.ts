/**
 * The gateway simulator's vocabulary: its two paid operations, its options, the records tests read
 * (settlements, refused payments, replays, upstream requests) and the hooks tests install.
 */
import type { PaymentRequirements } from '@x402/core/types';
import type { Hex } from 'viem';

import type { SimClock } from '../core/clock';
import type { PaymentIdentifierMode } from './paymentIds';

/** The two paid operations of section A. */
export type GatewayService = 'scraperAPI' | 'webSearch';

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

/** A paid request answered from the idempotency cache: nothing verified, nothing charged. */
export interface ReplayRecord {
	service: GatewayService;
	paymentId: string;
	/** Checksummed payer address of the replayed payload. */
	payer: `0x${string}`;
	/** EIP-3009 nonce of the replayed payload (unused on chain unless it is the settled payload itself). */
	nonce: Hex;
	/** Simulated time of the replay (ms). */
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
