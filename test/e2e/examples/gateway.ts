import type { N8nItem, N8nRun } from '../../../scripts/demo/n8n-run';
import { decodeJpeg, validateFetchRequest } from '../../simulator/gateway';
import { simulateFetch } from '../../simulator/gateway/upstream';
import { PRICE_ATOMIC, type RunningSimulator } from '../../simulator/index';
import { keysOf, nodeOutput } from './workflows';

/** What example 4 (the Scraper Gateway's paid fetch) must produce, paid on chain; see workflows.ts. */

/** Balances and settlements before a paid run, to compare with after. */
interface PaymentsBefore {
	payer: bigint;
	payee: bigint;
	settled: number;
}

export async function paymentsBefore(sim: RunningSimulator): Promise<PaymentsBefore> {
	const { demoWallet, payTo } = sim.info.chain;
	return {
		payer: await sim.gateway.balanceOf(demoWallet.address as `0x${string}`),
		payee: await sim.gateway.balanceOf(payTo as `0x${string}`),
		settled: sim.gateway.settlements.length,
	};
}

/**
 * Example 4: paid gateway fetch of three URLs -> Markdown, screenshot files and receipts, paid on chain once each.
 * `screenshotBytes` reads a row's screenshot where this n8n keeps it (a file, or main's binary-data endpoint).
 * Returns each screenshot's size.
 */
export async function expectExample4(
	run: N8nRun,
	sim: RunningSimulator,
	before: PaymentsBefore,
	screenshotBytes: (screenshot: NonNullable<N8nItem['binary']>[string]) => Promise<Buffer>,
): Promise<number[]> {
	const { demoWallet, payTo } = sim.info.chain;
	const payer = demoWallet.address as `0x${string}`;
	const urls = ['https://example.com/pricing', 'https://example.org/about', 'https://example.net/blog'];
	const rows = nodeOutput(run, 'Pages With Receipts');
	expect(keysOf(rows)).toEqual(urls.map(() => ['URL', 'Markdown', 'Screenshot File', 'Paid (USDC)', 'Transaction', 'Payer', 'Network', 'Payment ID']));
	expect(rows.map((r) => r.json.URL)).toEqual(urls);

	// Exactly three charges of 0.01 USDC, on chain, from the demo wallet to the gateway's payee, one per page.
	const settlements = sim.gateway.settlements.slice(before.settled);
	expect(settlements).toHaveLength(3);
	expect(new Set(settlements.map((s) => s.target))).toEqual(new Set(urls));
	expect(new Set(settlements.map((s) => s.transaction)).size).toBe(3);
	expect(await sim.gateway.balanceOf(payer)).toBe(before.payer - 3n * PRICE_ATOMIC);
	expect(await sim.gateway.balanceOf(payTo as `0x${string}`)).toBe(before.payee + 3n * PRICE_ATOMIC);
	for (const row of rows) {
		const settlement = settlements.find((s) => s.target === row.json.URL);
		// The simulated gateway advertises payment identifiers: each row carries the one its payment settled under.
		expect(row.json).toMatchObject({ 'Paid (USDC)': '0.01', Transaction: settlement?.transaction, Network: 'eip155:31337', 'Payment ID': settlement?.paymentId });
		expect(row.json['Payment ID']).toMatch(/^n8n_[0-9a-f]{64}$/);
		expect(String(row.json.Payer).toLowerCase()).toBe(payer.toLowerCase());
		expect((await sim.gateway.getTransactionReceipt(row.json.Transaction as `0x${string}`))?.status).toBe('success');
	}

	const sizes: number[] = [];
	for (const [i, row] of rows.entries()) {
		// What the simulated upstream renders for that page: the same Markdown, the same JPEG bytes.
		const request = validateFetchRequest({ url: urls[i], html: false, markdown: true, screenshot: true });
		if (!request.ok) throw new Error('bad reference request');
		const expected = simulateFetch(request.value).data;
		expect(row.json.Markdown).toBe(expected.markdown);
		const screenshot = row.binary?.screenshot;
		expect(screenshot).toMatchObject({ mimeType: 'image/jpeg', fileName: row.json['Screenshot File'] });
		if (!screenshot) continue;
		const bytes = await screenshotBytes(screenshot);
		expect(bytes.equals(Buffer.from(expected.screenshot ?? '', 'base64'))).toBe(true);
		const image = decodeJpeg(bytes);
		expect(image.width).toBeGreaterThan(0);
		expect(image.height).toBeGreaterThan(0);
		sizes.push(bytes.length);
	}
	return sizes;
}
