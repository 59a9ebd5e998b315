import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../harness';
import type { PaymentIdentifierMode } from '../../simulator/gateway/paymentIds';
import { FETCH_ROUTE, jsonOf, PRICE, useGatewaySimulator, walletCredential } from '../support';

/**
 * Generated runs of the Scraper Gateway against the simulated gateway on anvil, with connections dropped and 5xx
 * answers before and after settlements, parallel items, spending limits, and the payment-identifier extension on
 * or off. Whatever happens: the chain never moves more than the limit, no item is ever settled twice, every item
 * yields its page or its error, and a settled item's receipt names its settlement.
 */

const gateway = useGatewaySimulator({ testWalletCount: 1, fundingAtomic: 100_000_000n });
let run = 0;

type Fault = 'reset' | 500 | 503;
const fault = fc.constantFrom<Fault>('reset', 500, 503);

const scenario = fc.record({
	items: fc.integer({ min: 1, max: 8 }),
	parallel: fc.integer({ min: 1, max: 4 }),
	/** Max Total Spend in payments (0.01 USDC each); null: not set. */
	capPayments: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
	mode: fc.constantFrom<PaymentIdentifierMode>('optional', 'optional', 'required', 'off'),
	/** What happens to the n-th settled answer: delivered, dropped, or replaced by a 5xx without a receipt. */
	afterSettle: fc.array(fc.option(fault, { nil: undefined }), { maxLength: 8 }),
	/** Faults of the next requests before the gateway reads them (price requests and paid ones alike). */
	before: fc.array(fault, { maxLength: 2 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function play(s: Scenario): Promise<void> {
	run++;
	gateway.sim.server.faults.clear();
	gateway.sim.options.paymentIdentifier = s.mode;
	gateway.sim.setAfterSettleFault((_settled, index) => s.afterSettle[index]);
	for (const kind of s.before) {
		gateway.sim.server.faults.add(kind === 'reset' ? { kind, routes: [FETCH_ROUTE], times: 1 } : { kind: 'status', status: kind, routes: [FETCH_ROUTE], times: 1 });
	}
	const wallet = gateway.sim.testWallets[0];
	const balanceBefore = await gateway.sim.balanceOf(wallet.address);
	const settlementsStart = gateway.sim.settlements.length;
	const urls = Array.from({ length: s.items }, (_, i) => `https://example.com/run-${run}/item-${i}`);
	const options: IDataObject = { parallelRequests: s.parallel };
	if (s.capPayments !== null) options.maxTotalSpend = s.capPayments / 100;

	const result = await runNode({
		nodeType: 'scraperGateway',
		credentials: walletCredential(gateway.sim, wallet),
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', additionalFields: { screenshot: false }, options } as INodeParameters,
		input: urls.map((url) => ({ url })),
		continueOnFail: true,
	});

	const settlements = gateway.sim.settlements.slice(settlementsStart);
	const spent = balanceBefore - (await gateway.sim.balanceOf(wallet.address));
	// The chain moved exactly what was settled, and never more than the limit.
	expect(spent).toBe(BigInt(settlements.length) * PRICE);
	if (s.capPayments !== null) expect(spent).toBeLessThanOrEqual(BigInt(s.capPayments) * PRICE);
	// Never two settlements for one item, nor for one payment identifier.
	const perItem = new Map<string, number>();
	for (const settled of settlements) perItem.set(settled.target, (perItem.get(settled.target) ?? 0) + 1);
	for (const count of perItem.values()) expect(count).toBe(1);
	const ids = settlements.map((settled) => settled.paymentId).filter((id) => id !== undefined);
	expect(new Set(ids).size).toBe(ids.length);

	// Every item yields its page or its error, in order; a page's receipt names its one settlement.
	expect(result.items.map((item) => item.pairedItem)).toEqual(urls.map((_, item) => ({ item })));
	const json = jsonOf(result.items);
	for (const [i, item] of json.entries()) {
		if (typeof item.error === 'string') continue;
		const settled = settlements.find((candidate) => candidate.target === urls[i]);
		expect(settled).toBeDefined();
		const payment = item.payment as IDataObject;
		expect(payment.paymentId).toBe(settled?.paymentId ?? null);
		if (payment.transaction !== null) expect(payment.transaction).toBe(settled?.transaction);
	}
	// With identifiers and no fault before the gateway reads a request, every dropped answer is recovered.
	if (s.mode !== 'off' && s.before.length === 0) {
		expect(json.filter((item) => /^The payment may have been charged/.test(String(item.error ?? '')))).toEqual([]);
	}
}

describe('payments under generated faults', () => {
	test('spend never passes the limit, no item is settled twice, every item is answered', async () => {
		await fc.assert(fc.asyncProperty(scenario, play), { numRuns: 12 });
	});
});
