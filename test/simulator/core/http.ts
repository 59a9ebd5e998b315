/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the simulator is test code that runs in plain Node, never inside n8n */
/**
 * The HTTP exchange of every simulated API: the request a section's handler receives (`SimRequest`), the answer it
 * gives (`SimReply`), and how both are read from and written to Node's http messages (`server.ts` does the rest).
 */
import type http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export interface SimRequest {
	method: string;
	path: string;
	params: Record<string, string>;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	rawBody: string;
	/** Parsed JSON body; undefined when the body is empty or not JSON (see `bodyIsInvalidJson`). */
	body: unknown;
	bodyIsInvalidJson: boolean;
	route: string;
	/**
	 * Admission of an authenticated request, called by a section right after authentication: takes one of the
	 * account's `limit` concurrency slots (held until the answer is sent), then waits the route's latency (real time,
	 * in flight). Resolves undefined when admitted; otherwise to the answer to send instead: 429 (the section's
	 * documented body, `Retry-After`) when `account` already has `limit` requests in flight (nothing held, nothing
	 * waited), or a 503 when the simulator closed during the latency (the connection is then dropped anyway).
	 * A second call for the same request does nothing.
	 */
	admit(account: string, limit: number): Promise<SimReply | undefined>;
}

export interface SimReply {
	status: number;
	headers?: Record<string, string>;
	/** Serialised as JSON with content-type application/json. */
	json?: unknown;
	/** Sent as is; content-type defaults to text/plain. */
	text?: string;
	/** Sent as is. */
	buffer?: Buffer;
	/**
	 * Destroys the connection instead of answering (nothing is written; `status` is ignored and the log entry keeps
	 * no status, as with a `reset` fault): a handler's way to lose an answer after doing its work.
	 */
	drop?: true;
}

export type Handler = (req: SimRequest) => SimReply | Promise<SimReply>;

/** A request as read off the wire, before routing: method, URL, the body as text and as JSON (when it is JSON). */
export interface IncomingRequest {
	method: string;
	url: URL;
	rawBody: string;
	body: unknown;
	bodyIsInvalidJson: boolean;
}

/** Reads the whole request; a body that is not JSON is kept as text and flagged. */
export async function readRequest(req: http.IncomingMessage): Promise<IncomingRequest> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const rawBody = Buffer.concat(chunks).toString('utf8');
	let body: unknown;
	let bodyIsInvalidJson = false;
	if (rawBody.length > 0) {
		try {
			body = JSON.parse(rawBody);
		} catch {
			bodyIsInvalidJson = true;
		}
	}
	return { method: (req.method ?? 'GET').toUpperCase(), url: new URL(req.url ?? '/', 'http://simulator'), rawBody, body, bodyIsInvalidJson };
}

/** Writes an answer: JSON, text or bytes, with a content type unless the reply sets its own. */
export function writeReply(res: http.ServerResponse, reply: SimReply): void {
	const headers: Record<string, string> = { ...(reply.headers ?? {}) };
	let payload: string | Buffer = '';
	if (reply.json !== undefined) {
		payload = JSON.stringify(reply.json);
		headers['content-type'] ??= 'application/json; charset=utf-8';
	} else if (reply.text !== undefined) {
		payload = reply.text;
		headers['content-type'] ??= 'text/plain; charset=utf-8';
	} else if (reply.buffer !== undefined) {
		payload = reply.buffer;
	}
	res.writeHead(reply.status, headers);
	res.end(payload);
}
