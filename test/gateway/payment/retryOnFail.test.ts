import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness';
import type { RunResult } from '../../harness';
import type { SettlementRecord } from '../../simulator/gateway/types';
import { balances, FETCH_ROUTE, PRICE, signedRequests, useGatewaySimulator, walletCredential } from '../support';

/**
 * n8n's Retry On Fail (3 tries) runs the node's whole execute() again, every item, after any item threw. Through
 * n8n's engine against the simulated gateway on anvil, whose payment identifiers are bound to the exact payment (a new
 * signature under a used identifier is answered 409): an item paid and answered is never paid again, a payment of
 * unknown outcome is never signed anew, and the chain shows at most one settlement per URL.
 */

const gateway = useGatewaySimulator({ testWalletCount: 5 });

const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

/** Three pages through Page > Fetch with Retry On Fail, items one at a time unless `parallelRequests` is given. */
async function fetchWithRetries(tag: string, wallet: number, options: IDataObject = {}): Promise<{ result: RunResult; urls: string[]; from: { log: number; settlements: number } }> {
	const urls = [1, 2, 3].map((i) => `https://example.com/${tag}-${i}`);
	const from = { log: gateway.sim.server.log.entries.length, settlements: gateway.sim.settlements.length };
	const result = await runNode({
		nodeType: 'scraperGateway',
		credentials: walletCredential(gateway.sim, gateway.sim.testWallets[wallet]),
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', additionalFields: { screenshot: false }, options } as INodeParameters,
		input: urls.map((url) => ({ url })),
		retry: RETRY,
	});
	return { result, urls, from };
}

/** Settlements of this run per URL: never more than one. */
function settledPerUrl(from: number, urls: string[]): number[] {
	const settled: SettlementRecord[] = gateway.sim.settlements.slice(from);
	return urls.map((url) => settled.filter((s) => s.target === url).length);
}

describe('Retry On Fail with payment identifiers bound to the exact payment', () => {
	test('a 500 before settlement on the middle item: the retry resends that very payment, the first item is not sent again', async () => {
		const before = await balances(gateway.sim, gateway.sim.testWallets[0].address);
		// The unpaid price request and the first item pass; the middle item's payment and its one resend get 500.
		gateway.sim.server.faults.add({ kind: 'status', status: 500, routes: [FETCH_ROUTE], afterRequests: 2, times: 2 });
		const { result, urls, from } = await fetchWithRetries('middle-500', 0);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.url)).toEqual(urls);
		expect(settledPerUrl(from.settlements, urls)).toEqual([1, 1, 1]);
		const signed = signedRequests(gateway.sim, from.log);
		// Item 1 once; item 2 three times, one signature (500, its resend 500, Retry On Fail's resend settles); item 3 once.
		expect(signed.map((r) => (r.body as IDataObject).url)).toEqual([urls[0], urls[1], urls[1], urls[1], urls[2]]);
		expect(new Set(signed.filter((r) => (r.body as IDataObject).url === urls[1]).map((r) => r.headers['payment-signature'])).size).toBe(1);
		expect(gateway.sim.rejections.filter((r) => r.stage === 'paymentId')).toEqual([]);
		expect(before.payer - (await gateway.sim.balanceOf(gateway.sim.testWallets[0].address))).toBe(3n * PRICE);
	});

	test('answers lost after settlement on the middle item, its resend too: the retry gets the cached answer, one charge', async () => {
		const before = await balances(gateway.sim, gateway.sim.testWallets[1].address);
		gateway.sim.setAfterSettleFault((_settled, index) => {
			if (index !== 1) return undefined;
			// The settled answer of the middle item is lost, and so is the node's own resend.
			gateway.sim.server.faults.add({ kind: 'reset', routes: [FETCH_ROUTE], times: 1 });
			return 'reset';
		});
		const replays = gateway.sim.replays.length;
		const { result, urls, from } = await fetchWithRetries('middle-lost', 1);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => (item.json.payment as IDataObject).paymentId)).toEqual(gateway.sim.settlements.slice(from.settlements).map((s) => s.paymentId));
		expect(settledPerUrl(from.settlements, urls)).toEqual([1, 1, 1]);
		expect(gateway.sim.replays.slice(replays).map((r) => r.paymentId)).toHaveLength(1);
		expect(before.payer - (await gateway.sim.balanceOf(gateway.sim.testWallets[1].address))).toBe(3n * PRICE);
	});
});

describe('Retry On Fail with a gateway without payment identifiers', () => {
	test("the middle item's answer lost after settlement: never paid again, its error says so; the first item not sent again", async () => {
		gateway.sim.options.paymentIdentifier = 'off';
		const before = await balances(gateway.sim, gateway.sim.testWallets[2].address);
		gateway.sim.setAfterSettleFault((_settled, index) => (index === 1 ? 'reset' : undefined));
		const { result, urls, from } = await fetchWithRetries('plain-lost', 2);
		// Every try stops at the middle item; the third item is never reached, so never paid.
		expect(result.error?.message).toMatch(/^The payment may have been charged: .* \(payer 0x[0-9a-fA-F]{40}, nonce 0x[0-9a-f]{64}, amount 0\.01 USDC, network eip155:31337\) \[item 1\]$/);
		expect(result.error?.description).toMatch(/Retry On Fail did not pay for it again: this gateway takes no payment identifier.* It never signs a new payment for this item in this execution\./);
		expect(settledPerUrl(from.settlements, urls)).toEqual([1, 1, 0]);
		expect(signedRequests(gateway.sim, from.log).map((r) => (r.body as IDataObject).url)).toEqual([urls[0], urls[1]]);
		expect(before.payer - (await gateway.sim.balanceOf(gateway.sim.testWallets[2].address))).toBe(2n * PRICE);
	});

	test('three items at once, the middle answer lost: the others were paid and answered, and are not paid again', async () => {
		gateway.sim.options.paymentIdentifier = 'off';
		const before = await balances(gateway.sim, gateway.sim.testWallets[3].address);
		let lost = '';
		gateway.sim.setAfterSettleFault((settled) => {
			if (!settled.target.endsWith('-2')) return undefined;
			lost = settled.target;
			return 'reset';
		});
		const { result, urls, from } = await fetchWithRetries('parallel-lost', 3, { parallelRequests: 3 });
		expect(lost).toBe(urls[1]);
		expect(result.error?.message).toMatch(/^The payment may have been charged: .* \[item 1\]$/);
		expect(settledPerUrl(from.settlements, urls)).toEqual([1, 1, 1]);
		// Each URL signed once over the three tries.
		expect(signedRequests(gateway.sim, from.log).map((r) => (r.body as IDataObject).url).sort()).toEqual([...urls].sort());
		expect(before.payer - (await gateway.sim.balanceOf(gateway.sim.testWallets[3].address))).toBe(3n * PRICE);
	});

	test('charged while the page failed upstream (a 200 with the error): the retry reports it again, not paid again', async () => {
		gateway.sim.options.paymentIdentifier = 'off';
		const urls = ['https://example.com/charged-1', 'https://example.com/sim-fail/charged-2'];
		const from = { log: gateway.sim.server.log.entries.length, settlements: gateway.sim.settlements.length };
		const result = await runNode({
			nodeType: 'scraperGateway',
			credentials: walletCredential(gateway.sim, gateway.sim.testWallets[4]),
			parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', additionalFields: { screenshot: false } } as INodeParameters,
			input: urls.map((url) => ({ url })),
			retry: RETRY,
		});
		expect(result.error?.message).toMatch(/^The gateway charged 0\.01 USDC \(transaction 0x[0-9a-f]{64}, .*\) but fetching https:\/\/example\.com\/sim-fail\/charged-2 upstream failed: .* \[item 1\]$/);
		expect(result.error?.description).toMatch(/Retry On Fail does not pay for this item again in this execution; running it in a new execution pays again\./);
		expect(settledPerUrl(from.settlements, urls)).toEqual([1, 1]);
		expect(signedRequests(gateway.sim, from.log)).toHaveLength(2);
	});
});
