import type { IDataObject, IExecuteContextData, INodeParameters } from 'n8n-workflow';

import { newExecutionId, runNode } from '../../harness';
import { GatewaySimulator } from '../../simulator/gateway';
import { balances, PRICE, signedRequests, walletCredential } from '../support';

/**
 * Max Total Spend per Execution is the execution's, not a process's: what the execution committed is kept in n8n's
 * flow context, part of the execution's own data, which n8n saves when the execution waits and restores wherever it
 * resumes. Through n8n's engine against the simulated gateway on anvil: a run that starts from a resumed execution's
 * saved data (a new execution id here, so no process memory of it exists) knows what was spent before.
 */

let sim: GatewaySimulator;

beforeAll(async () => {
	sim = await GatewaySimulator.start({ testWalletCount: 2 });
});

afterAll(async () => {
	await sim?.close();
});

const CAP = 0.03;

async function fetch(wallet: number, urls: string[], contextData?: IExecuteContextData) {
	return await runNode({
		nodeType: 'scraperGateway',
		credentials: walletCredential(sim, sim.testWallets[wallet]),
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', additionalFields: { screenshot: false }, options: { maxTotalSpend: CAP } } as INodeParameters,
		input: urls.map((url) => ({ url })),
		continueOnFail: true,
		executionId: newExecutionId(),
		contextData,
	});
}

/** The execution's data as n8n stores it in its database and reads it back on resume (JSON, no shared objects). */
const savedAndRestored = (contextData: IExecuteContextData | undefined): IExecuteContextData => JSON.parse(JSON.stringify(contextData ?? {})) as IExecuteContextData;

describe("Max Total Spend per Execution lives in the execution's data", () => {
	test('what the first part paid is in the flow context; the resumed part pays nothing past the cap, and signs nothing', async () => {
		const wallet = sim.testWallets[0];
		const before = await balances(sim, wallet.address);
		const first = await fetch(0, ['https://example.com/before-wait-1', 'https://example.com/before-wait-2', 'https://example.com/before-wait-3']);
		expect(first.items.map((item) => (item.json.payment as IDataObject | undefined)?.amount)).toEqual(['0.01', '0.01', '0.01']);
		const saved = savedAndRestored(first.run.data.executionData?.contextData);
		expect(saved.flow).toEqual({ scraperGatewaySpend: { [wallet.address.toLowerCase()]: { committed: '30000', payments: { page: 3 } } } });

		const log = sim.server.log.entries.length;
		const resumed = await fetch(0, ['https://example.com/after-wait-1', 'https://example.com/after-wait-2'], saved);
		expect(resumed.items.map((item) => item.json.error)).toEqual(
			[0, 1].map((i) => `Spending limit reached, nothing was signed for this item: this item would cost 0.01 USDC and 0.03 USDC of the 0.03 USDC allowed per execution is already spent or committed [item ${i}]`),
		);
		expect(signedRequests(sim, log)).toHaveLength(0);
		expect(before.payer - (await sim.balanceOf(wallet.address))).toBe(3n * PRICE);
	});

	test('a resumed part with room left pays up to the cap, and the flow context counts it on', async () => {
		const wallet = sim.testWallets[1];
		const first = await fetch(1, ['https://example.com/room-1']);
		const resumed = await fetch(1, ['https://example.com/room-2', 'https://example.com/room-3', 'https://example.com/room-4'], savedAndRestored(first.run.data.executionData?.contextData));
		expect(resumed.items.map((item) => (item.json.payment ? 'paid' : 'refused'))).toEqual(['paid', 'paid', 'refused']);
		const record = (resumed.run.data.executionData?.contextData.flow as IDataObject).scraperGatewaySpend as IDataObject;
		expect(record[wallet.address.toLowerCase()]).toEqual({ committed: '30000', payments: { page: 3 } });
	});

	test('a flow context that is not ours (malformed or another shape) is not trusted as spend: it starts from zero', async () => {
		const first = await fetch(1, ['https://example.com/odd-1'], { flow: { scraperGatewaySpend: { [sim.testWallets[1].address.toLowerCase()]: { committed: 'lots' } } } });
		expect(first.items[0].json.payment).toMatchObject({ amount: '0.01' });
	});
});
