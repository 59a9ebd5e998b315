/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code in plain Node, never inside n8n: a loopback HTTP server (node:http, node:net, express) */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { x402Facilitator } from '@x402/core/facilitator';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import type { FacilitatorClient, HTTPRequestContext, HTTPTransportContext, RoutesConfig } from '@x402/core/server';
import type { PaymentPayload, SupportedResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { paymentMiddlewareFromHTTPServer, x402HTTPResourceServer, x402ResourceServer } from '@x402/express';
import { declarePaymentIdentifierExtension, extractPaymentIdentifier, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { getAddress, type Hex } from 'viem';

import type { LocalChain } from '../../simulator/gateway/chain';
import { createLocalFacilitator } from '../../simulator/gateway/facilitator';

/**
 * Coinbase's reference stack as a Scraper Gateway: an @x402/express resource server with the x402 reference
 * facilitator in process, on a local chain, declaring the `payment-identifier` extension and keeping the idempotency
 * cache the way Coinbase's payment-identifier example server does (the answer cached by identifier after settlement;
 * a request whose identifier is cached is let through without payment and answered from the cache), with the
 * identifier bound to the exact payment that settled under it, as the extension's specification asks (another
 * payment under the same identifier is answered 409). Nothing here is
 * our gateway simulator: the reference packages decide the 402, the verification, the settlement and the headers.
 */

export const REFERENCE_PATH = '/api/service/scraperAPI';
/** 0.01 USDC of the local token, atomic units. */
export const REFERENCE_PRICE = 10_000n;
const MAX_TIMEOUT_SECONDS = 120;

/**
 * Set on every request before the payment middleware (any value a client sent is overwritten), so the idempotency
 * hook, which sees the request only through x402's adapter, can tell the route which request it let through.
 */
const REQUEST_TAG = 'x-reference-request';

/** A payment the reference facilitator settled on chain. */
export interface ReferenceSettlement {
	payer: `0x${string}`;
	nonce: Hex;
	transaction: Hex;
	/** The payload's payment identifier; null when it carried none. */
	paymentId: string | null;
}

/** A paid request let through by the idempotency hook and answered from the cache: nothing verified, nothing settled. */
export interface CacheHit {
	paymentId: string;
	payer: `0x${string}`;
	nonce: Hex;
}

/** One request to the route as it arrived, before any middleware decided anything. */
export interface ReceivedRequest {
	/** The raw PAYMENT-SIGNATURE header, when the request carried one. */
	header?: string;
	/** Its decoded payload, when it was decodable. */
	payment?: PaymentPayload;
	/** Where the connection was destroyed instead of answered, if it was (see `dropSettledAnswers`, `dropCachedResends`). */
	dropped?: 'settled-answer' | 'cached-resend';
	/** Answered 409: its payment identifier is bound to another payment that settled under it. */
	conflict?: boolean;
}

/** A cached answer, as the route handler wrote it before settlement. */
interface CachedAnswer {
	body: Buffer;
	contentType: string;
	/** The authorization nonce of the payment the identifier is bound to. */
	nonce: Hex;
}

function authorizationOf(payload: PaymentPayload): { from: `0x${string}`; nonce: Hex } {
	return (payload.payload as { authorization: { from: `0x${string}`; nonce: Hex } }).authorization;
}

function decodeOrUndefined(header: string | undefined): PaymentPayload | undefined {
	if (!header) return undefined;
	try {
		return decodePaymentSignatureHeader(header);
	} catch {
		return undefined;
	}
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The gateway's answer envelope for a fetched page: deterministic per URL, no screenshot. */
function pageAnswer(url: string) {
	return {
		ok: true,
		service: 'fetchHtml',
		data: {
			html: `<html><head><title>Reference page</title></head><body><h1>${escapeHtml(url)}</h1><p>Served by the x402 reference stack.</p></body></html>`,
			markdown: `# ${url}\n\nServed by the x402 reference stack.`,
			screenshot: null,
			runtime: 0.25,
			token_usage: 1,
			retry_count: 0,
			error: null,
		},
	};
}

/**
 * The in-process facilitator as the resource server's client. Settlements are queued: the relayer account sends one
 * transaction per settlement, and two prepared at once would read the same account nonce from the chain.
 */
function facilitatorClient(facilitator: x402Facilitator): FacilitatorClient {
	let queue: Promise<unknown> = Promise.resolve();
	return {
		verify: async (payload, requirements) => await facilitator.verify(payload, requirements),
		settle: async (payload, requirements) => {
			const run = queue.then(async () => await facilitator.settle(payload, requirements));
			queue = run.catch(() => undefined);
			return await run;
		},
		getSupported: async () => facilitator.getSupported() as SupportedResponse,
	};
}

export class ReferenceServer {
	/** Settlements on chain, in order. */
	readonly settlements: ReferenceSettlement[] = [];
	/** Paid requests answered from the idempotency cache, in order. */
	readonly cacheHits: CacheHit[] = [];
	/** Every request to the route, in arrival order. */
	readonly requests: ReceivedRequest[] = [];

	private readonly cache = new Map<string, CachedAnswer>();
	/** Request tag -> the identifier whose cached answer the hook granted it. */
	private readonly granted = new Map<string, string>();
	private dropSettled: (index: number) => boolean = () => false;
	private settledAnswers = 0;
	private resendDrops = 0;
	private tags = 0;

	private constructor(
		private readonly chain: LocalChain,
		private server?: Server,
	) {}

	/** Listens on a free port of 127.0.0.1 for the chain's token, payee and network. */
	static async start(chain: LocalChain): Promise<ReferenceServer> {
		const reference = new ReferenceServer(chain);
		const app = reference.app();
		await new Promise<void>((resolve, reject) => {
			const server = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve()));
			reference.server = server;
		});
		return reference;
	}

	get url(): string {
		const address = this.server?.address() as AddressInfo | null;
		if (!address) throw new Error('the reference server is not listening');
		return `http://127.0.0.1:${address.port}`;
	}

	/** CAIP-2 network of the chain, `eip155:31337`. */
	get network(): `${string}:${string}` {
		return `eip155:${this.chain.chainId}`;
	}

	/**
	 * Destroys the connection of settled answers instead of sending them: the settlement happened and its answer is
	 * cached, but the client gets no answer (an unknown outcome). `which`: the next n settled answers, or the ones
	 * whose index (settled answers counted from 0 since this call) it selects. 0 stops dropping.
	 */
	dropSettledAnswers(which: number | ((index: number) => boolean)): void {
		this.dropSettled = typeof which === 'number' ? (index) => index < which : which;
		this.settledAnswers = 0;
	}

	/** Destroys the connection of the next `count` requests whose identifier is cached, before the payment middleware. */
	dropCachedResends(count: number): void {
		this.resendDrops = count;
	}

	/** Stops listening and closes every open connection; the chain is the caller's. Safe to call twice. */
	async close(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		if (!server) return;
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}

	private app(): express.Express {
		const { chain } = this;
		const routes: RoutesConfig = {
			[`POST ${REFERENCE_PATH}`]: {
				accepts: {
					scheme: 'exact',
					network: this.network,
					payTo: chain.payTo,
					// An explicit asset amount: the local token is no asset the reference server knows a price table for.
					price: { amount: REFERENCE_PRICE.toString(), asset: chain.tokenAddress, extra: { name: 'USD Coin', version: '2' } },
					maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
				},
				description: 'Fetch one public web page',
				mimeType: 'application/json',
				extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) },
			},
		};
		const resourceServer = new x402ResourceServer(facilitatorClient(createLocalFacilitator(chain)))
			.register(this.network, new ExactEvmScheme())
			.onAfterSettle(async ({ paymentPayload, result, transportContext }) => this.afterSettle(paymentPayload as PaymentPayload, result.transaction, transportContext));
		const httpServer = new x402HTTPResourceServer(resourceServer, routes).onProtectedRequest(async (context) => this.cachedAnswerFor(context));

		const app = express();
		app.use(express.json());
		app.use((req, res, next) => this.observe(req, res, next));
		app.use(paymentMiddlewareFromHTTPServer(httpServer));
		app.post(REFERENCE_PATH, (req, res) => this.serve(req, res));
		return app;
	}

	/** Records the request, tags it, drops a cached resend when asked, and watches its answer for a settled-answer drop. */
	private observe(req: Request, res: Response, next: NextFunction): void {
		const header = req.get('payment-signature');
		const payment = decodeOrUndefined(header);
		const received: ReceivedRequest = { header, payment };
		this.requests.push(received);
		req.headers[REQUEST_TAG] = String(++this.tags);
		const id = payment ? extractPaymentIdentifier(payment) : null;
		// The identifier is bound to the payment that settled under it: another payment with it is a conflict.
		const bound = id === null ? undefined : this.cache.get(id);
		if (payment && bound && bound.nonce !== authorizationOf(payment).nonce) {
			received.conflict = true;
			res.status(409).json({ error: 'payment_identifier_conflict', message: `payment-identifier ${id} is bound to another payment` });
			return;
		}
		if (id !== null && this.cache.has(id) && this.resendDrops > 0) {
			this.resendDrops--;
			received.dropped = 'cached-resend';
			req.socket.destroy();
			return;
		}
		this.interceptSettledAnswer(req, res, received);
		next();
	}

	/**
	 * Wraps the response's output below the payment middleware: @x402/express buffers the route's answer, settles,
	 * sets PAYMENT-RESPONSE and only then writes through these. An answer carrying PAYMENT-RESPONSE is therefore
	 * settled (and cached); when a drop is pending its connection is destroyed instead of written to.
	 */
	private interceptSettledAnswer(req: Request, res: Response, received: ReceivedRequest): void {
		let verdict: boolean | undefined;
		const dropping = (): boolean => {
			if (verdict === undefined && res.getHeader('payment-response') !== undefined) {
				verdict = this.dropSettled(this.settledAnswers++);
				if (verdict) {
					received.dropped = 'settled-answer';
					req.socket.destroy();
				}
			}
			return verdict === true;
		};
		const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
		const write = res.write.bind(res) as (...args: unknown[]) => boolean;
		const end = res.end.bind(res) as (...args: unknown[]) => Response;
		res.writeHead = ((...args: unknown[]) => (dropping() ? res : writeHead(...args))) as Response['writeHead'];
		res.write = ((...args: unknown[]) => (dropping() ? true : write(...args))) as Response['write'];
		res.end = ((...args: unknown[]) => (dropping() ? res : end(...args))) as Response['end'];
	}

	/** The idempotency hook: a payment header whose identifier has a cached answer gets access without payment. */
	private async cachedAnswerFor(context: HTTPRequestContext): Promise<void | { grantAccess: true }> {
		const payment = decodeOrUndefined(context.paymentHeader);
		const id = payment ? extractPaymentIdentifier(payment) : null;
		if (!payment || id === null || !this.cache.has(id)) return undefined;
		const tag = context.adapter.getHeader(REQUEST_TAG);
		if (tag === undefined) return undefined;
		this.granted.set(tag, id);
		const { from, nonce } = authorizationOf(payment);
		this.cacheHits.push({ paymentId: id, payer: getAddress(from), nonce });
		return { grantAccess: true };
	}

	/** Records a settlement and caches the answer the route wrote for it under the payload's identifier. */
	private async afterSettle(payload: PaymentPayload, transaction: string, transportContext: unknown): Promise<void> {
		const id = extractPaymentIdentifier(payload);
		const { from, nonce } = authorizationOf(payload);
		this.settlements.push({ payer: getAddress(from), nonce, transaction: transaction as Hex, paymentId: id });
		const http = transportContext as HTTPTransportContext | undefined;
		if (id === null || !http?.responseBody) return;
		this.cache.set(id, { body: http.responseBody, contentType: http.responseHeaders?.['content-type'] ?? 'application/json', nonce });
	}

	/** The route: the cached answer for a request the hook let through, otherwise the page for the posted url. */
	private serve(req: Request, res: Response): void {
		const tag = req.get(REQUEST_TAG);
		const id = tag === undefined ? undefined : this.granted.get(tag);
		if (tag !== undefined) this.granted.delete(tag);
		const cached = id === undefined ? undefined : this.cache.get(id);
		if (cached) {
			res.status(200).type(cached.contentType).send(cached.body);
			return;
		}
		const url: unknown = (req.body as { url?: unknown } | undefined)?.url;
		if (typeof url !== 'string' || url === '') {
			res.status(400).json({ error: 'invalid_request', field: 'url', message: 'url is required' });
			return;
		}
		res.json(pageAnswer(url));
	}
}
