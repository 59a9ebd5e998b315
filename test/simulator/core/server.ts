/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the simulator is test code that runs in plain Node, never inside n8n */
/**
 * The server of one simulated API (`SimServer`) and the base of every section (`SimSection`): routing, the request
 * log, fault injection, per-account admission and per-route latency around each section's handlers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { Admission } from './admission';
import type { SimClock } from './clock';
import { ConcurrencyLimiter } from './concurrency';
import { FaultInjector } from './faults';
import { readRequest, writeReply, type Handler, type IncomingRequest, type SimReply } from './http';
import { RequestLog, type LoggedRequest } from './log';
import { RouteTable, type RouteMatch } from './routes';
import { RealTimeWaits } from './waits';

interface SimServerOptions {
	name: string;
	clock: SimClock;
	/** The section's documented body for an error status, used by injected `status` faults. */
	errorBody: (status: number) => unknown;
	/** Seed for the fault injector's randomness. */
	seed?: number | string;
	/** Real-time latency (ms) of a route by its name (`METHOD /pattern`); none when omitted. See `SimServer.latencyFor`. */
	latencyMs?: (route: string) => number | undefined;
}

/** What the injected faults of a request decided: drop the connection now, or the answer they force (if any). */
type FaultOutcome = { drop: true } | { reply?: SimReply };

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
	private readonly routes = new RouteTable();
	private readonly errorBody: (status: number) => unknown;
	private server?: http.Server;
	private baseUrl?: string;
	/** Real-time waits (latency, `slow` faults) in progress: `close()` ends them so it never hangs on a timer. */
	private readonly waits = new RealTimeWaits();

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
		return this.routes.add(method, pattern, handler);
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
		this.waits.endAll();
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	private latencyOf(route: string): number {
		const ms = this.latencyFor(route);
		return typeof ms === 'number' && ms > 0 ? ms : 0;
	}

	/** Log, faults, handler, latency, answer: one request from arrival to the answer (or the dropped connection). */
	private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
		const incoming = await readRequest(req);
		const match = this.routes.match(incoming.method, incoming.url.pathname);
		const routeName = match.route?.name ?? `${incoming.method} <unmatched>`;
		const entry: LoggedRequest = {
			route: routeName,
			method: incoming.method,
			path: incoming.url.pathname,
			query: Object.fromEntries(incoming.url.searchParams),
			headers: req.headers,
			body: incoming.bodyIsInvalidJson ? incoming.rawBody : incoming.body,
			status: undefined,
			at: this.clock.now(),
		};
		this.log.add(entry);
		await this.beforeHandle?.(entry);

		const admission = new Admission({
			concurrency: this.concurrency,
			waits: this.waits,
			latencyMs: () => this.latencyOf(routeName),
			errorBody: this.errorBody,
		});
		try {
			const faulted = await this.injectedFaults(routeName);
			const reply = 'drop' in faulted ? undefined : (faulted.reply ?? (await this.handled(req, incoming, match, entry, admission)));
			if (reply) await admission.beforeAnswer();
			if (!reply || admission.aborted || reply.drop) {
				// A reset or cut-short fault, the simulator closed during the wait, or the handler drops its answer.
				req.socket.destroy();
				return;
			}
			entry.status = reply.status;
			if (!res.destroyed) writeReply(res, reply);
		} finally {
			admission.release();
		}
	}

	/** Applies the route's injected faults in order: a reset (or a `slow` cut short by `close()`) drops the connection. */
	private async injectedFaults(routeName: string): Promise<FaultOutcome> {
		let reply: SimReply | undefined;
		for (const fault of this.faults.pick(routeName)) {
			if (fault.kind === 'reset') return { drop: true };
			if (fault.kind === 'slow' && !(await this.waits.sleep(fault.delayMs ?? 1_000))) return { drop: true };
			if (fault.kind === 'malformed') reply = { status: 200, text: '{"message":"ok","data":{"id":', headers: { 'content-type': 'application/json' } };
			if (fault.kind === 'status') {
				const status = fault.status ?? 500;
				reply = { status, json: fault.body ?? this.errorBody(status) };
				if (status === 429) reply.headers = { 'retry-after': String(fault.retryAfterSeconds ?? 1) };
			}
		}
		return { reply };
	}

	/** The route's handler answer (404 without a route, 500 when it throws), passed through `afterHandle`. */
	private async handled(
		req: http.IncomingMessage,
		incoming: IncomingRequest,
		{ route, params }: RouteMatch,
		entry: LoggedRequest,
		admission: Admission,
	): Promise<SimReply> {
		if (!route) return { status: 404, json: this.errorBody(404) };
		let reply: SimReply;
		try {
			reply = await route.handler({
				method: incoming.method,
				path: incoming.url.pathname,
				params,
				query: incoming.url.searchParams,
				headers: req.headers,
				rawBody: incoming.rawBody,
				body: incoming.body,
				bodyIsInvalidJson: incoming.bodyIsInvalidJson,
				route: route.name,
				admit: admission.admit,
			});
		} catch (error) {
			reply = { status: 500, json: this.errorBody(500) };
			// A handler bug must be visible to the test that hit it, not only as a 500.
			process.emitWarning(`${this.name} simulator handler ${route.name} threw: ${(error as Error).stack}`);
		}
		if (this.afterHandle) reply = (await this.afterHandle(entry, reply)) ?? reply;
		return reply;
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
