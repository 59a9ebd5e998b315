/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the simulator is test code that runs in plain Node, never inside n8n */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { SimClock } from './clock';
import { ConcurrencyLimiter, RETRY_AFTER_CONCURRENCY_SECONDS } from './concurrency';
import { FaultInjector } from './faults';
import { RequestLog } from './log';
import type { LoggedRequest } from './log';

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

interface Route {
	name: string;
	method: string;
	segments: string[];
	handler: Handler;
}

export interface SimServerOptions {
	name: string;
	clock: SimClock;
	/** The section's documented body for an error status, used by injected `status` faults. */
	errorBody: (status: number) => unknown;
	/** Seed for the fault injector's randomness. */
	seed?: number | string;
	/** Real-time latency (ms) of a route by its name (`METHOD /pattern`); none when omitted. See `SimServer.latencyFor`. */
	latencyMs?: (route: string) => number | undefined;
}

interface PendingWait {
	timer: NodeJS.Timeout;
	resolve: (completed: boolean) => void;
}

/**
 * A tiny HTTP server for one simulated API: routes with `:param` segments, JSON bodies, a request log,
 * fault injection. Each section of the interface (gateway, platform, marketplace) is one SimServer on its
 * own loopback port, as the real service has a host per API.
 */
export class SimServer {
	readonly log = new RequestLog();
	readonly faults: FaultInjector;
	readonly clock: SimClock;
	readonly name: string;
	/** Requests in flight per account (see `SimRequest.admit`), with peak and refusal statistics. */
	readonly concurrency = new ConcurrencyLimiter();
	/**
	 * Real-time latency (ms) of each request of a route (`METHOD /pattern`), read when the request arrives; 0 or
	 * undefined for none. Every request of the route waits it before its answer, except a concurrency 429 (answered at
	 * once): an admitted request waits it in flight, right after admission and before the handler's work; a request
	 * never admitted (401, unknown path, a section without accounts) waits it after the handler, as do injected
	 * `status`/`malformed` faults. Replaceable at run time.
	 */
	latencyFor: (route: string) => number | undefined;
	private readonly routes: Route[] = [];
	private readonly errorBody: (status: number) => unknown;
	private server?: http.Server;
	private baseUrl?: string;
	/** Real-time waits (latency, `slow` faults) in progress: `close()` ends them so it never hangs on a timer. */
	private readonly waits = new Set<PendingWait>();

	/**
	 * Test control: runs after a request is logged and before faults and the handler, e.g. to move the clock or
	 * add a fault between two pages of one poll.
	 */
	beforeHandle?: (request: LoggedRequest) => void | Promise<void>;

	/**
	 * Test control: rewrites a handled answer before it is sent, e.g. a listing page whose `meta` lies or that repeats
	 * an earlier page, which no faithful state produces. Returning undefined keeps the answer.
	 */
	afterHandle?: (request: LoggedRequest, reply: SimReply) => SimReply | undefined | Promise<SimReply | undefined>;

	constructor(options: SimServerOptions) {
		this.name = options.name;
		this.clock = options.clock;
		this.errorBody = options.errorBody;
		this.faults = new FaultInjector(options.seed ?? options.name);
		this.latencyFor = options.latencyMs ?? (() => undefined);
	}

	/** Registers a route; its name (`METHOD /pattern`) is what the log and faults refer to. */
	route(method: string, pattern: string, handler: Handler): string {
		const name = `${method} ${pattern}`;
		this.routes.push({ name, method, segments: pattern.split('/').filter(Boolean), handler });
		return name;
	}

	get url(): string {
		if (!this.baseUrl) throw new Error(`${this.name} simulator is not listening`);
		return this.baseUrl;
	}

	async listen(port = 0, host = '127.0.0.1'): Promise<string> {
		const server = http.createServer((req, res) => void this.handle(req, res));
		server.keepAliveTimeout = 5_000;
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, host, () => resolve());
		});
		this.server = server;
		const address = server.address() as AddressInfo;
		this.baseUrl = `http://${host}:${address.port}`;
		return this.baseUrl;
	}

	async close(): Promise<void> {
		const server = this.server;
		if (!server) return;
		this.server = undefined;
		// Pending latencies and slow faults end now: their requests are dropped, never handled.
		for (const wait of [...this.waits]) {
			clearTimeout(wait.timer);
			this.waits.delete(wait);
			wait.resolve(false);
		}
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	/** Waits `ms` of real time; resolves true when done, false when `close()` cut it short. */
	private sleep(ms: number): Promise<boolean> {
		if (!(ms > 0)) return Promise.resolve(true);
		return new Promise<boolean>((resolve) => {
			const wait: PendingWait = {
				timer: setTimeout(() => {
					this.waits.delete(wait);
					resolve(true);
				}, ms),
				resolve,
			};
			this.waits.add(wait);
		});
	}

	private latencyOf(route: string): number {
		const ms = this.latencyFor(route);
		return typeof ms === 'number' && ms > 0 ? ms : 0;
	}

	private match(method: string, path: string): { route?: Route; params: Record<string, string> } {
		const parts = path.split('/').filter(Boolean);
		for (const route of this.routes) {
			if (route.method !== method || route.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			const ok = route.segments.every((segment, i) => {
				if (segment.startsWith(':')) {
					params[segment.slice(1)] = decodeURIComponent(parts[i]);
					return true;
				}
				return segment === parts[i];
			});
			if (ok) return { route, params };
		}
		return { params: {} };
	}

	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks).toString('utf8');
		const url = new URL(req.url ?? '/', 'http://simulator');
		const method = (req.method ?? 'GET').toUpperCase();
		const { route, params } = this.match(method, url.pathname);
		const routeName = route?.name ?? `${method} <unmatched>`;

		let body: unknown;
		let bodyIsInvalidJson = false;
		if (rawBody.length > 0) {
			try {
				body = JSON.parse(rawBody);
			} catch {
				bodyIsInvalidJson = true;
			}
		}

		const entry = {
			route: routeName,
			method,
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: req.headers,
			body: bodyIsInvalidJson ? rawBody : body,
			status: undefined as number | undefined,
			at: this.clock.now(),
		};
		this.log.add(entry);
		await this.beforeHandle?.(entry);

		// Admission state of this request (see `SimRequest.admit`): the slot it holds, whether it waited its latency.
		let release: (() => void) | undefined;
		let latencyWaited = false;
		let refusedForConcurrency = false;
		let aborted = false;
		const waitLatency = async (): Promise<boolean> => {
			latencyWaited = true;
			const completed = await this.sleep(this.latencyOf(routeName));
			if (!completed) aborted = true;
			return completed;
		};
		const admit = async (account: string, limit: number): Promise<SimReply | undefined> => {
			if (release || latencyWaited || refusedForConcurrency) return undefined;
			release = this.concurrency.acquire(account, limit);
			if (!release) {
				refusedForConcurrency = true;
				return { status: 429, json: this.errorBody(429), headers: { 'retry-after': String(RETRY_AFTER_CONCURRENCY_SECONDS) } };
			}
			if (!(await waitLatency())) return { status: 503, json: this.errorBody(503) };
			return undefined;
		};

		try {
			let reply: SimReply | undefined;
			for (const fault of this.faults.pick(routeName)) {
				if (fault.kind === 'reset') {
					req.socket.destroy();
					return;
				}
				if (fault.kind === 'slow' && !(await this.sleep(fault.delayMs ?? 1_000))) {
					req.socket.destroy();
					return;
				}
				if (fault.kind === 'malformed') reply = { status: 200, text: '{"message":"ok","data":{"id":', headers: { 'content-type': 'application/json' } };
				if (fault.kind === 'status') {
					const status = fault.status ?? 500;
					reply = { status, json: fault.body ?? this.errorBody(status) };
					if (status === 429) reply.headers = { 'retry-after': String(fault.retryAfterSeconds ?? 1) };
				}
			}

			if (!reply) {
				if (!route) {
					reply = { status: 404, json: this.errorBody(404) };
				} else {
					try {
						reply = await route.handler({
							method,
							path: url.pathname,
							params,
							query: url.searchParams,
							headers: req.headers,
							rawBody,
							body,
							bodyIsInvalidJson,
							route: routeName,
							admit,
						});
					} catch (error) {
						reply = { status: 500, json: this.errorBody(500) };
						// A handler bug must be visible to the test that hit it, not only as a 500.
						process.emitWarning(`${this.name} simulator handler ${routeName} threw: ${(error as Error).stack}`);
					}
					if (this.afterHandle) reply = (await this.afterHandle(entry, reply)) ?? reply;
				}
			}

			// A request that was never admitted waits the route's latency before its answer (a concurrency 429 does not).
			if (!latencyWaited && !refusedForConcurrency) await waitLatency();
			if (aborted || reply.drop) {
				// The simulator closed during the wait, or the handler drops its answer: close the connection, answer nothing.
				req.socket.destroy();
				return;
			}

			entry.status = reply.status;
			if (res.destroyed) return;
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
		} finally {
			// The answer is sent (or the request dropped): the account's slot is free.
			release?.();
		}
	}
}

/** A simulated API on its own SimServer: how every section is started, stopped and addressed. */
export abstract class SimSection {
	abstract readonly server: SimServer;

	listen(port?: number): Promise<string> {
		return this.server.listen(port);
	}

	close(): Promise<void> {
		return this.server.close();
	}

	/** Root URL of the section, e.g. http://127.0.0.1:4010. */
	get url(): string {
		return this.server.url;
	}
}
