import { CREDENTIAL_REFS } from '../../../scripts/demo/credentials';
import type { N8nRun } from '../../../scripts/demo/n8n-run';
import { PRICE_ATOMIC, type RunningSimulator } from '../../simulator/index';
import { nodeOutput } from './workflows';

/**
 * Issue 36's case, as a workflow: two Scraper Gateway nodes with one Max Total Spend of 0.03 USDC around a Wait of
 * 70 s, which n8n saves to its database (a wait past 65 s) and resumes later: on another worker in queue mode, in a
 * new process after a restart. Three pages before the wait, three after: the cap holds only if the resumed part
 * knows what the first part paid. Not an example a user opens; the e2e writes it and imports it.
 */

export const SPEND_WORKFLOW_ID = 'scrE2eSpendWait1';
export const WAIT_SECONDS = 70;
const CAP_USDC = 0.03;
const BEFORE = ['https://example.com/spend/before-1', 'https://example.com/spend/before-2', 'https://example.com/spend/before-3'];

const gatewayNode = (id: string, name: string, x: number, url: string) => ({
	id,
	name,
	type: 'n8n-nodes-scraper-service-x402.scraperGateway',
	typeVersion: 2,
	position: [x, 0],
	// The refusals past the cap are items with their error, so the execution ends in success and shows them.
	onError: 'continueRegularOutput',
	parameters: { resource: 'page', operation: 'fetch', url, additionalFields: { screenshot: false }, options: { maxTotalSpend: CAP_USDC } },
	credentials: { x402WalletApi: CREDENTIAL_REFS.x402WalletApi },
});

export const SPEND_WORKFLOW = {
	id: SPEND_WORKFLOW_ID,
	name: 'e2e: two Gateway nodes, one cap, a 70 s Wait between',
	active: false,
	// n8n 1.x refuses a workflow without one on import.
	versionId: '6c1e2a10-00e2-4000-8000-000000000036',
	nodes: [
		{ id: 'e2e-spend-1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'e2e-spend-2',
			name: 'Pages',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: { mode: 'manual', assignments: { assignments: [{ id: 'e2e-spend-a1', name: 'url', value: `={{ ${JSON.stringify(BEFORE)} }}`, type: 'array' }] }, includeOtherFields: false, options: {} },
		},
		{ id: 'e2e-spend-3', name: 'One Item per URL', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 0], parameters: { fieldToSplitOut: 'url', include: 'noOtherFields', options: {} } },
		gatewayNode('e2e-spend-4', 'Fetch Before Wait', 600, '={{ $json.url }}'),
		{ id: 'e2e-spend-5', name: 'Wait 70 s', type: 'n8n-nodes-base.wait', typeVersion: 1.1, position: [800, 0], parameters: { amount: WAIT_SECONDS, unit: 'seconds' } },
		gatewayNode('e2e-spend-6', 'Fetch After Wait', 1000, "={{ $json.url.replace('before', 'after') }}"),
	],
	connections: Object.fromEntries(
		[
			['Start', 'Pages'],
			['Pages', 'One Item per URL'],
			['One Item per URL', 'Fetch Before Wait'],
			['Fetch Before Wait', 'Wait 70 s'],
			['Wait 70 s', 'Fetch After Wait'],
		].map(([from, to]) => [from, { main: [[{ node: to, type: 'main', index: 0 }]] }]),
	),
	settings: { executionOrder: 'v1' },
};

/** Balances before the run, to count what it paid on chain. */
export async function demoWalletBalance(sim: RunningSimulator): Promise<bigint> {
	return await sim.gateway.balanceOf(sim.info.chain.demoWallet.address as `0x${string}`);
}

/**
 * The run paid the cap and no more: three settlements before the wait, none after it, the wallet 0.03 USDC lighter
 * on chain, and each page after the wait refused for the limit with nothing signed. Returns what it paid, atomic.
 */
export async function expectCapHeld(run: N8nRun, sim: RunningSimulator, balanceBefore: bigint, settledBefore: number): Promise<bigint> {
	const settled = sim.gateway.settlements.slice(settledBefore);
	expect(settled.map((s) => s.target).sort()).toEqual([...BEFORE].sort());
	const paid = balanceBefore - (await demoWalletBalance(sim));
	expect(paid).toBe(3n * PRICE_ATOMIC);
	expect(nodeOutput(run, 'Fetch Before Wait').map((item) => (item.json.payment as { amount?: string } | undefined)?.amount)).toEqual(['0.01', '0.01', '0.01']);
	const after = nodeOutput(run, 'Fetch After Wait');
	expect(after).toHaveLength(3);
	for (const item of after) expect(item.json.error).toMatch(/^Spending limit reached, nothing was signed for this item: this item would cost 0\.01 USDC and 0\.03 USDC of the 0\.03 USDC allowed per execution is already spent or committed/);
	return paid;
}
