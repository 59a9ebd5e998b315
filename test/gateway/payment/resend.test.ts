import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { newExecutionId, runNode } from '../../harness';
import type { RunNodeRetry, RunResult } from '../../harness';
import { balances, FETCH_ROUTE, jsonOf, PRICE, requestsSince, signedRequests, useGatewaySimulator, walletCredential } from '../support';

/**
 * x402 payment identifiers through n8n's engine against the simulated gateway on anvil: a paid request whose outcome
 * is unknown is sent once more with the same payment, the gateway answers it from its records, and the chain shows
 * one transfer per item. Without the extension, nothing is resent (safety.test.ts holds today's rules).
 */

const gateway = useGatewaySimulator({ testWalletCount: 6 });

const MAY_HAVE_BEEN_CHARGED = /^The payment may have been charged/;

interface Fetch {
	urls: string[];
	wallet: number;
	options?: IDataObject;
	retry?: RunNodeRetry;
	executionId?: string;
}

async function fetchPages({ urls, wallet, options = {}, retry, executionId }: Fetch): Promise<RunResult> {
	return await runNode({
		nodeType: 'scraperGateway',
		credentials: walletCredential(gateway.sim, gateway.sim.testWallets[wallet]),
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', additionalFields: { screenshot: false }, options } as INodeParameters,
		input: urls.map((url) => ({ url })),
		continueOnFail: true,
		retry,
		executionId,
	});
}

const pages = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `https://example.com/${tag}-${i + 1}`);

/** Where this run's records start, to read only what it did. */
function mark(wallet: number) {
	const address = gateway.sim.testWallets[wallet].address;
	return { address, log: gateway.sim.server.log.entries.length, settlements: gateway.sim.settlements.length, replays: gateway.sim.replays.length };
}

describe('with payment identifiers, a lost answer is resent once and never charged twice', () => {
	test('200 paid items, the connection dropped after every fifth settlement: 200 settlements, 200 answers, none "may have been charged"', async () => {
		const at = mark(0);
		const before = await balances(gateway.sim, at.address);
		gateway.sim.setAfterSettleFault((_settled, index) => (index % 5 === 4 ? 'reset' : undefined));
		const urls = pages(200, 'bulk');
		const result = await fetchPages({ urls, wallet: 0, options: { parallelRequests: 10 } });

		const json = jsonOf(result.items);
		expect(json.filter((j) => typeof j.error === 'string')).toEqual([]);
		expect(json.map((j) => j.url)).toEqual(urls);
		expect(result.items.map((i) => i.pairedItem)).toEqual(urls.map((_, item) => ({ item })));
		const settlements = gateway.sim.settlements.slice(at.settlements);
		expect(settlements).toHaveLength(200);
		expect(gateway.sim.replays.length - at.replays).toBe(40);
		// One payment per item: 200 distinct identifiers, each settled once, each the one its receipt names.
		const ids = json.map((j) => (j.payment as IDataObject).paymentId as string);
		expect(new Set(ids).size).toBe(200);
		for (const id of ids) expect(id).toMatch(/^n8n_[0-9a-f]{64}$/);
		expect(new Set(settlements.map((s) => s.paymentId)).size).toBe(200);
		const byId = new Map(settlements.map((s) => [s.paymentId, s]));
		for (const j of json) {
			const payment = j.payment as IDataObject;
			expect(payment.transaction).toBe(byId.get(payment.paymentId as string)?.transaction);
		}
		// The 40 resends carried the very payment of their first sending: 240 signed requests, 200 distinct signatures.
		const signed = signedRequests(gateway.sim, at.log).map((entry) => entry.headers['payment-signature']);
		expect(signed).toHaveLength(240);
		expect(new Set(signed).size).toBe(200);
		// On chain: exactly 200 x 0.01 USDC moved.
		const after = await balances(gateway.sim, at.address);
		expect(before.payer - after.payer).toBe(200n * PRICE);
		expect(after.payee - before.payee).toBe(200n * PRICE);
	});

	test('a 5xx without a receipt after the settlement: resent, answered with the receipt of the one settlement', async () => {
		const at = mark(1);
		gateway.sim.setAfterSettleFault((_settled, index) => (index === 0 ? 503 : undefined));
		const result = await fetchPages({ urls: pages(2, 'busy'), wallet: 1 });
		const json = jsonOf(result.items);
		const settlements = gateway.sim.settlements.slice(at.settlements);
		expect(settlements).toHaveLength(2);
		expect(json.map((j) => (j.payment as IDataObject).transaction)).toEqual(settlements.map((s) => s.transaction));
		expect(json.map((j) => (j.payment as IDataObject).paymentId)).toEqual(settlements.map((s) => s.paymentId));
		// 1 unpaid price request, item 0 sent twice (503, then its cached answer), item 1 once.
		expect(requestsSince(gateway.sim, at.log).map((entry) => entry.status)).toEqual([402, 503, 200, 200]);
	});

	test('no answer to the resend either: "may have been charged" with the identifier, saying Retry On Fail would resend this very payment', async () => {
		const at = mark(2);
		const before = await balances(gateway.sim, at.address);
		// The first settled answer is dropped, and so is the next request (the resend) before the gateway reads it.
		gateway.sim.setAfterSettleFault((_settled, index) => {
			if (index !== 0) return undefined;
			gateway.sim.server.faults.add({ kind: 'reset', routes: [FETCH_ROUTE], times: 1 });
			return 'reset';
		});
		const failed = await fetchPages({ urls: ['https://example.com/flaky'], wallet: 2, executionId: newExecutionId() });
		const [item] = jsonOf(failed.items);
		expect(item.error).toMatch(MAY_HAVE_BEEN_CHARGED);
		const [, id] = /payment identifier (n8n_[0-9a-f]{64})\)/.exec(item.error as string) ?? [];
		expect(id).toBe(gateway.sim.settlements[at.settlements].paymentId);
		expect(item.description).toMatch(/The node sent the same payment once more, which cannot be charged twice .* Retry On Fail in the node settings resends this very payment \(the same signature and identifier\) while its authorization is valid.* It never signs a new payment for this item in this execution\./);
		// The payment and its one resend, the same header; nothing else.
		const signed = signedRequests(gateway.sim, at.log);
		expect(signed).toHaveLength(2);
		expect(signed[1].headers['payment-signature']).toBe(signed[0].headers['payment-signature']);
		expect(gateway.sim.settlements.length - at.settlements).toBe(1);
		expect(before.payer - (await gateway.sim.balanceOf(at.address))).toBe(PRICE);
	});

	test("n8n's Retry On Fail on the node: the failed item is answered from the gateway's records, one settlement", async () => {
		const at = mark(3);
		gateway.sim.setAfterSettleFault((_settled, index) => {
			if (index !== 0) return undefined;
			gateway.sim.server.faults.add({ kind: 'reset', routes: [FETCH_ROUTE], times: 1 });
			return 'reset';
		});
		const result = await runNode({
			nodeType: 'scraperGateway',
			credentials: walletCredential(gateway.sim, gateway.sim.testWallets[3]),
			parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', additionalFields: { screenshot: false } } as INodeParameters,
			input: [{ url: 'https://example.com/retried' }],
			retry: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});
		expect(result.error).toBeUndefined();
		const [page] = jsonOf(result.items);
		const settlements = gateway.sim.settlements.slice(at.settlements);
		expect(settlements).toHaveLength(1);
		expect(page.payment).toMatchObject({ paymentId: settlements[0].paymentId, transaction: settlements[0].transaction });
		expect(gateway.sim.replays.length - at.replays).toBe(1);
	});

	test('Max Total Spend holds across resends and parallel items: 0.05 USDC buys exactly 5 pages', async () => {
		const at = mark(4);
		const before = await balances(gateway.sim, at.address);
		gateway.sim.setAfterSettleFault((_settled, index) => (index % 2 === 0 ? 'reset' : undefined));
		const result = await fetchPages({ urls: pages(8, 'capped'), wallet: 4, options: { parallelRequests: 4, maxTotalSpend: 0.05 } });
		const json = jsonOf(result.items);
		expect(json.filter((j) => j.payment)).toHaveLength(5);
		const refused = json.filter((j) => typeof j.error === 'string');
		expect(refused).toHaveLength(3);
		for (const j of refused) expect(j.error).toMatch(/^Spending limit reached, nothing was signed for this item/);
		expect(gateway.sim.settlements.length - at.settlements).toBe(5);
		expect(before.payer - (await gateway.sim.balanceOf(at.address))).toBe(5n * PRICE);
	});

	test('a gateway that requires identifiers gets one on every payment', async () => {
		gateway.sim.options.paymentIdentifier = 'required';
		const at = mark(5);
		const result = await fetchPages({ urls: pages(3, 'required'), wallet: 5 });
		const json = jsonOf(result.items);
		const settlements = gateway.sim.settlements.slice(at.settlements);
		expect(settlements).toHaveLength(3);
		expect(json.map((j) => (j.payment as IDataObject).paymentId)).toEqual(settlements.map((s) => s.paymentId));
		expect(gateway.sim.rejections.filter((r) => r.stage === 'paymentId')).toEqual([]);
	});
});

describe('without the extension, today: a paid request is never resent', () => {
	test('the connection dropped after every fifth settlement: those items "may have been charged", each sent once', async () => {
		gateway.sim.options.paymentIdentifier = 'off';
		const at = mark(5);
		gateway.sim.setAfterSettleFault((_settled, index) => (index % 5 === 4 ? 'reset' : undefined));
		const result = await fetchPages({ urls: pages(20, 'plain'), wallet: 5 });
		const json = jsonOf(result.items);
		const lost = json.filter((j) => typeof j.error === 'string');
		expect(lost).toHaveLength(4);
		for (const j of lost) {
			expect(j.error).toMatch(/^The payment may have been charged: (connection reset by the gateway|connection closed by the gateway|other side closed).* \(payer 0x[0-9a-fA-F]{40}, nonce 0x[0-9a-f]{64}, amount 0\.01 USDC, network eip155:31337\) \[item \d+\]$/);
		}
		for (const j of json.filter((item) => item.payment)) expect((j.payment as IDataObject).paymentId).toBeNull();
		expect(signedRequests(gateway.sim, at.log)).toHaveLength(20);
		expect(gateway.sim.settlements.slice(at.settlements).map((s) => s.paymentId)).toEqual(Array(20).fill(undefined));
	});
});
