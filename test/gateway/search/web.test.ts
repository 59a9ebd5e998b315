import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { allText } from '../../harness';
import type { GatewaySimulator } from '../../simulator/gateway';
import { balances, containsKey, jsonOf, PRICE, requestsSince, SEARCH_ROUTE, useRecordedGateway } from '../support';

const { gw, seen, run } = useRecordedGateway({ testWalletCount: 1 });
let sim: GatewaySimulator;

beforeAll(() => {
	sim = gw.sim;
});

// The private keys never appear in any output, error, request or log line of this file (page/fetch.test.ts has the
// same check as a test of its own).
afterAll(() => {
	const everything = [...seen, gw.output(), allText(sim.server.log.entries)].join('\n');
	expect(seen.length).toBeGreaterThan(1);
	for (const wallet of sim.testWallets) expect(containsKey(everything, wallet.privateKey)).toBe(false);
});

describe('Search: Web', () => {
	test('sends only the query when nothing else is set, and outputs one item with the localized results', async () => {
		const wallet = sim.testWallets[0];
		const before = await balances(sim, wallet.address);
		const logStart = sim.server.log.entries.length;
		const result = await run(0, { parameters: { resource: 'search', operation: 'web', query: 'hiking boots' } });
		expect(result.error).toBeUndefined();
		expect(requestsSince(sim, logStart).map((r) => [r.route, r.status, r.body])).toEqual([
			[SEARCH_ROUTE, 402, { query: 'hiking boots' }],
			[SEARCH_ROUTE, 200, { query: 'hiking boots' }],
		]);
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json).toMatchObject({ query: 'hiking boots', country: 'us', language: 'en', page: 1 });
		const results = json.results as IDataObject[];
		expect(results.length).toBeGreaterThan(0);
		expect(json.resultCount).toBe(results.length);
		expect(results.map((r) => r.rank)).toEqual(results.map((_, i) => i + 1));
		for (const r of results) expect(Object.keys(r).sort()).toEqual(['displayUrl', 'rank', 'siteName', 'snippet', 'title', 'url']);
		expect(await sim.txExists((json.payment as IDataObject).transaction as `0x${string}`)).toBe(true);
		expect(before.payer - (await sim.balanceOf(wallet.address))).toBe(PRICE);
	});

	test('country, language and page are sent when set; one item per result when asked', async () => {
		const logStart = sim.server.log.entries.length;
		const result = await run(0, {
			parameters: {
				resource: 'search',
				operation: 'web',
				query: 'fahrrad reparatur',
				additionalFields: { country: 'de', language: 'de', page: 2 },
				options: { split: true },
			},
		});
		expect(result.error).toBeUndefined();
		expect(requestsSince(sim, logStart).map((r) => r.body)).toEqual([
			{ query: 'fahrrad reparatur', country: 'de', language: 'de', page: 2 },
			{ query: 'fahrrad reparatur', country: 'de', language: 'de', page: 2 },
		]);
		const json = jsonOf(result.items);
		expect(json.length).toBeGreaterThan(1);
		expect(result.items.every((i: INodeExecutionData) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		const transaction = (json[0].payment as IDataObject).transaction;
		for (const j of json) {
			expect(j).toMatchObject({ query: 'fahrrad reparatur', country: 'de', language: 'de', page: 2 });
			expect((j.payment as IDataObject).transaction).toBe(transaction);
		}
		// Page 2 continues the ranking of page 1.
		expect(json[0].rank).toBeGreaterThan(1);
		expect(String(json[0].url)).toMatch(/\.de\b/);
	});
});
