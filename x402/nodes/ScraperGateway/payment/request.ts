import type { Unit } from './ledger';
import type { Receipt, Settlement } from './receipt';
import { postJson } from '../transport/transport';
import type { HttpOutcome } from '../transport/transport';

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

/** A 200 from the gateway: its JSON body and, for a paid call, the receipt. */
export interface GatewayResult {
	body: unknown;
	receipt: Receipt | null;
	/** The settlement as the gateway reported it (undefined for an unpaid answer or a missing header). */
	settlement?: Settlement;
	/** Nonce of the signed authorization, for a paid call. */
	nonce?: string;
	/** Base64 fields of the answer decoded to bytes, by dotted path (see `PaidRequest.base64Fields`). */
	decoded: Map<string, Buffer>;
}

/** Sends a request to the gateway once, with extra headers (the payment signature, when paid). */
export type Send = (request: PaidRequest, headers: Record<string, string>) => Promise<HttpOutcome>;

/** The `Send` of the gateway at `baseUrl` (no trailing slash). */
export function sendTo(baseUrl: string): Send {
	return async (request, headers) =>
		await postJson(`${baseUrl}${request.path}`, request.body, headers, request.deadlineMs, request.base64Fields ?? []);
}
