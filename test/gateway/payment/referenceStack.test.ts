import { PAYMENT_IDENTIFIER, extractPaymentIdentifier, validatePaymentIdentifier } from '@x402/extensions/payment-identifier';
import type { IDataObject } from 'n8n-workflow';
import { getAddress } from 'viem';

import { runNode } from '../../harness';
import type { RunOptions, RunResult } from '../../harness';
import { LocalChain, TOKEN_ABI, type DevWallet } from '../../simulator/gateway/chain';
import { REFERENCE_PRICE, ReferenceServer } from './referenceServer';
import type { CacheHit, ReceivedRequest, ReferenceSettlement } from './referenceServer';

/**
 * The Scraper Gateway node against Coinbase's reference stack instead of our simulator: an @x402/express resource
 * server on the x402 reference facilitator and anvil, with the payment-identifier idempotency cache as Coinbase's
 * example server keeps it. Proves the node's identifiers are ones a reference server accepts and that its one resend
 * (and n8n's Retry On Fail) is answered from that cache, never charged twice.
 */

const ID_PATTERN = /^n8n_[0-9a-f]{64}$/;

let chain: LocalChain;
let reference: ReferenceServer;

beforeAll(async () => {
	chain = await LocalChain.start({ testWalletCount: 4 });
	reference = await ReferenceServer.start(chain);
});

afterAll(async () => {
	await reference?.close();
	await chain?.close();
});

/** The x402 Wallet credential for a chain wallet, pointed at the reference server. */
function credential(wallet: DevWallet) {
	return {
		x402WalletApi: {
			privateKey: wallet.privateKey,
			baseUrl: reference.url,
			network: 'custom',
			customNetwork: reference.network,
			usdcAddress: getAddress(chain.tokenAddress),
			maxPricePerRequest: 0.01,
			payTo: '',
		},
	};
}

/** Transfer events of the token paid by `payer`, over the whole chain: every charge of that wallet. */
async function transfersFrom(payer: `0x${string}`) {
	return await chain.publicClient.getContractEvents({ address: chain.tokenAddress, abi: TOKEN_ABI, eventName: 'Transfer', args: { from: payer }, fromBlock: 0n });
}

/** What one run left at the reference server and on the chain. */
interface Trace {
	result: RunResult;
	requests: ReceivedRequest[];
	/** The requests that carried a payment. */
	signed: ReceivedRequest[];
	settlements: ReferenceSettlement[];
	cacheHits: CacheHit[];
	/** Token units the payer lost and the payee gained during the run. */
	spent: bigint;
	received: bigint;
	/** Transfers from the payer on chain after the run (each wallet is used by one test only). */
	transfers: number;
}

/** Runs the node for `urls` with wallet `w` (one wallet per test, so its balance and transfers are this test's). */
async function run(w: number, urls: string[], options: Partial<Pick<RunOptions, 'retry'>> & { parameters?: IDataObject } = {}): Promise<Trace> {
	const wallet = chain.testWallets[w];
	const payerBefore = await chain.balanceOf(wallet.address);
	const payeeBefore = await chain.balanceOf(chain.payTo);
	const from = { requests: reference.requests.length, settlements: reference.settlements.length, cacheHits: reference.cacheHits.length };
	const result = await runNode({
		nodeType: 'scraperGateway',
		credentials: credential(wallet),
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', ...options.parameters },
		input: urls.map((url) => ({ url })),
		retry: options.retry,
	});
	const requests = reference.requests.slice(from.requests);
	return {
		result,
		requests,
		signed: requests.filter((request) => request.header !== undefined),
		settlements: reference.settlements.slice(from.settlements),
		cacheHits: reference.cacheHits.slice(from.cacheHits),
		spent: payerBefore - (await chain.balanceOf(wallet.address)),
		received: (await chain.balanceOf(chain.payTo)) - payeeBefore,
		transfers: (await transfersFrom(wallet.address)).length,
	};
}

const paymentOf = (trace: Trace, item = 0) => trace.result.items[item].json.payment as IDataObject;

afterEach(() => {
	// A test that failed midway must not leave its drops to the next one.
	reference.dropSettledAnswers(0);
	reference.dropCachedResends(0);
});

describe('the Scraper Gateway node against the x402 reference stack (@x402/express, reference facilitator, anvil)', () => {
	test('the node identifier is accepted: one item, one settlement on chain, the id in the payload is the output one', async () => {
		const wallet = chain.testWallets[0];
		const trace = await run(0, ['https://example.com/reference']);

		expect(trace.result.error).toBeUndefined();
		expect(trace.result.items).toHaveLength(1);
		expect(trace.result.items[0].json).toMatchObject({ url: 'https://example.com/reference', markdown: expect.stringContaining('# https://example.com/reference') });
		// The price request (no payment), then one paid request signed from the requirement it learned.
		expect(trace.requests.map((request) => request.header === undefined)).toEqual([true, false]);

		const [settled] = trace.settlements;
		expect(trace.settlements).toHaveLength(1);
		const payment = paymentOf(trace);
		expect(payment).toEqual({ transaction: settled.transaction, network: reference.network, payer: wallet.address, amount: '0.01', paymentId: settled.paymentId });
		expect(payment.paymentId).toMatch(ID_PATTERN);

		// What the server received: a payment-identifier entry valid for the extension, carrying the output's id.
		const payload = trace.signed[0].payment;
		if (!payload) throw new Error('the paid request carried no decodable payment');
		expect(validatePaymentIdentifier(payload.extensions?.[PAYMENT_IDENTIFIER])).toEqual({ valid: true });
		expect(extractPaymentIdentifier(payload)).toBe(payment.paymentId);

		expect([trace.spent, trace.received, trace.transfers]).toEqual([REFERENCE_PRICE, REFERENCE_PRICE, 1]);
		expect(settled.payer).toBe(wallet.address);
		expect(await chain.authorizationState(wallet.address, settled.nonce)).toBe(true);
		expect((await chain.publicClient.getTransactionReceipt({ hash: settled.transaction })).status).toBe('success');
		expect(trace.cacheHits).toEqual([]);
	});

	test('a resend is not charged twice: the settled answer is dropped, the same header sent once more is answered from the cache', async () => {
		reference.dropSettledAnswers(1);
		const trace = await run(1, ['https://example.com/dropped']);

		expect(trace.result.error).toBeUndefined();
		expect(trace.result.items).toHaveLength(1);
		expect(trace.result.items[0].json).toMatchObject({ url: 'https://example.com/dropped', markdown: expect.stringContaining('# https://example.com/dropped') });

		// The paid request and its one resend: byte for byte the same header; the first answer was dropped after settling.
		expect(trace.signed).toHaveLength(2);
		expect(trace.signed[1].header).toBe(trace.signed[0].header);
		expect(trace.signed.map((request) => request.dropped)).toEqual(['settled-answer', undefined]);

		const [settled] = trace.settlements;
		expect(trace.settlements).toHaveLength(1);
		expect(trace.cacheHits).toEqual([{ paymentId: settled.paymentId, payer: settled.payer, nonce: settled.nonce }]);
		const payment = paymentOf(trace);
		expect(payment.paymentId).toBe(settled.paymentId);
		expect(payment.paymentId).toMatch(ID_PATTERN);
		// The reference cache answers with the body alone, no PAYMENT-RESPONSE: the node cannot name the transaction.
		expect(payment).toMatchObject({ transaction: null, payer: settled.payer, amount: '0.01', network: reference.network });

		expect([trace.spent, trace.received, trace.transfers]).toEqual([REFERENCE_PRICE, REFERENCE_PRICE, 1]);
	});

	test('6 items, 3 in parallel, every other settled answer dropped: 6 items, 6 settlements, 6 distinct ids, 6 x 0.01 USDC', async () => {
		const urls = Array.from({ length: 6 }, (_, i) => `https://example.com/parallel/${i}`);
		reference.dropSettledAnswers((index) => index % 2 === 0);
		const trace = await run(2, urls, { parameters: { options: { parallelRequests: 3 } } });

		expect(trace.result.error).toBeUndefined();
		expect(trace.result.items.map((item) => item.json.url)).toEqual(urls);

		expect(trace.settlements).toHaveLength(6);
		const ids = trace.result.items.map((_, i) => paymentOf(trace, i).paymentId as string);
		for (const id of ids) expect(id).toMatch(ID_PATTERN);
		expect(new Set(ids).size).toBe(6);
		expect(new Set(trace.settlements.map((settled) => settled.paymentId))).toEqual(new Set(ids));

		// Three answers dropped after settling, each resent once with its own header and served from the cache.
		const dropped = trace.signed.filter((request) => request.dropped === 'settled-answer');
		expect(dropped).toHaveLength(3);
		expect(trace.cacheHits).toHaveLength(3);
		for (const request of dropped) expect(trace.signed.filter((other) => other.header === request.header)).toHaveLength(2);
		expect(trace.signed).toHaveLength(9);
		// Items answered from the cache have no transaction; the others name their own settlement's.
		const cachedIds = new Set(trace.cacheHits.map((hit) => hit.paymentId));
		trace.result.items.forEach((_, i) => {
			const payment = paymentOf(trace, i);
			const settled = trace.settlements.find((s) => s.paymentId === payment.paymentId);
			expect(payment.transaction).toBe(cachedIds.has(payment.paymentId as string) ? null : settled?.transaction);
		});

		expect([trace.spent, trace.received, trace.transfers]).toEqual([6n * REFERENCE_PRICE, 6n * REFERENCE_PRICE, 6]);
	});

	test('Retry On Fail resends the very same payment (same signature, same id): answered from the cache, one settlement', async () => {
		const wallet = chain.testWallets[3];
		// The settled answer is dropped, and so is the node's resend: the first try ends "may have been charged".
		reference.dropSettledAnswers(1);
		reference.dropCachedResends(1);
		const trace = await run(3, ['https://example.com/retried'], { retry: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } });

		expect(trace.result.error).toBeUndefined();
		expect(trace.result.items).toHaveLength(1);
		expect(trace.result.items[0].json).toMatchObject({ url: 'https://example.com/retried', markdown: expect.stringContaining('# https://example.com/retried') });

		const [settled] = trace.settlements;
		expect(trace.settlements).toHaveLength(1);
		// Try 1: price request, payment (settled, answer dropped), the same payment resent (dropped before the cache).
		// Try 2: no new price request and no new signature: the same payment once more, answered from the cache.
		expect(trace.requests.map((request) => [request.header === undefined, request.dropped, request.conflict])).toEqual([
			[true, undefined, undefined],
			[false, 'settled-answer', undefined],
			[false, 'cached-resend', undefined],
			[false, undefined, undefined],
		]);
		const [first, ...again] = trace.signed;
		for (const request of again) expect(request.header).toBe(first.header);
		const firstId = first.payment && extractPaymentIdentifier(first.payment);
		expect(firstId).toMatch(ID_PATTERN);
		expect(settled.paymentId).toBe(firstId);

		const [hit] = trace.cacheHits;
		expect(trace.cacheHits).toHaveLength(1);
		expect(hit).toMatchObject({ paymentId: firstId, nonce: settled.nonce });
		expect(await chain.authorizationState(wallet.address, settled.nonce)).toBe(true);
		expect(paymentOf(trace)).toMatchObject({ paymentId: firstId, transaction: null, payer: wallet.address, amount: '0.01' });

		expect([trace.spent, trace.received, trace.transfers]).toEqual([REFERENCE_PRICE, REFERENCE_PRICE, 1]);
	});
});
