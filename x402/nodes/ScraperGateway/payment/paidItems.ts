import { ProcessMemory } from './processMemory';
import type { GatewayResult } from './request';
import type { SignedPayment } from './signer';

/**
 * What became of each item's payment in this process, by the item's payment identifier (`derivePaymentId`: the
 * execution, node, run, item, wallet and the request itself, so only the very same request of the very same item
 * finds it). n8n's Retry On Fail runs a node's whole `execute()` again, every item, in the same process and run: an
 * item already paid is then not paid again. One answered gives its answer again; one charged while the gateway
 * failed is reported again; one whose outcome is unknown is never signed anew (with a payment identifier the very
 * same signed payment is resent while its authorization is valid, which the gateway answers from its records).
 */
export type PaidItem =
	| { kind: 'answered'; result: GatewayResult }
	| { kind: 'charged'; error: Error }
	| { kind: 'unknown'; signed: SignedPayment; cause: string };

/** Retries follow within seconds (n8n waits at most 5 s between at most 5 tries); a run that returns forgets its own. */
const IDLE_MS = 60 * 60 * 1000;
/** Answers carry pages and screenshots: the items of a few failed runs at most. */
const MAX_ENTRIES = 500;

/** The record of this n8n process (one per loaded copy of the node's code). */
export const PAID_ITEMS = new ProcessMemory<PaidItem>({ idleMs: IDLE_MS, maxEntries: MAX_ENTRIES });
