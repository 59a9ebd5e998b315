import { Agent, request } from 'undici';

import { networkCause } from '../../../../nodes/shared/transport/network';
import { readWithBase64Fields } from './base64Fields';

/** What came back over HTTP. Header names are lower case. */
export interface HttpAnswer {
	status: number;
	headers: Record<string, string>;
	/** Parsed JSON body, or undefined when the body was empty or not JSON. */
	json: unknown;
	text: string;
	/** The base64 fields asked for, decoded while the body streamed in, by dotted path; `json` holds "" there. */
	decoded: Map<string, Buffer>;
}

/** A request that got no complete HTTP answer. */
export interface HttpFailure {
	/** Readable cause, e.g. "no answer within 360 s". Never holds request headers. */
	cause: string;
	/** True when the request certainly never reached the server (connection refused, host unknown). */
	neverSent: boolean;
	timedOut: boolean;
}

export type HttpOutcome = { ok: true; answer: HttpAnswer } | { ok: false; failure: HttpFailure };

/** How the gateway is named in network causes and errors: "connection reset by the gateway (ECONNRESET)". */
export const GATEWAY = 'the gateway';

/** The shared network causes, with the deadline named as the user set it: whichever undici timer fired, it is that. */
function describeFailure(error: unknown, deadlineMs: number): HttpFailure {
	const { text, neverSent, timedOut } = networkCause(error, GATEWAY);
	if (timedOut) return { cause: `no complete answer within the ${Math.round(deadlineMs / 1000)} s deadline`, neverSent: false, timedOut };
	return { cause: text, neverSent, timedOut };
}

const CONNECT_TIMEOUT_MS = 15_000;

/**
 * POSTs JSON with undici and a hard deadline: an Agent whose header and body timeouts are the deadline, plus
 * an abort signal for the whole exchange. The gateway sends headers only after the upstream work and the
 * settlement, so the deadline must cover both. undici's `request` is used directly (its `fetch` rejects the
 * Node Request objects other wrappers build). Nothing is retried here.
 */
export async function postJson(
	url: string,
	body: unknown,
	headers: Record<string, string>,
	deadlineMs: number,
	base64Fields: ReadonlyArray<readonly string[]> = [],
): Promise<HttpOutcome> {
	const agent = new Agent({ headersTimeout: deadlineMs, bodyTimeout: deadlineMs, connectTimeout: Math.min(CONNECT_TIMEOUT_MS, deadlineMs) });
	try {
		const response = await request(url, {
			method: 'POST',
			dispatcher: agent,
			headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(deadlineMs),
		});
		const length = Number(response.headers['content-length']);
		const { text, decoded } =
			base64Fields.length > 0
				? await readWithBase64Fields(response.body, base64Fields, Number.isFinite(length) ? length : undefined)
				: { text: await response.body.text(), decoded: new Map<string, Buffer>() };
		const flat: Record<string, string> = {};
		for (const [name, value] of Object.entries(response.headers)) {
			if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
		}
		let json: unknown;
		try {
			json = text === '' ? undefined : (JSON.parse(text) as unknown);
		} catch {
			json = undefined;
		}
		return { ok: true, answer: { status: response.statusCode, headers: flat, json, text, decoded } };
	} catch (error) {
		return { ok: false, failure: describeFailure(error, deadlineMs) };
	} finally {
		// Every request gets its own Agent and so a fresh connection: a pooled one the gateway has just closed would
		// fail a paid request in a way that cannot be told from one that reached it, and paid requests are never
		// retried. The cost is a connection (and TLS handshake) per call. Free its sockets now.
		void agent.destroy().catch(() => undefined);
	}
}
