/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test support in plain Node: it reads the example workflow files */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { nodeOutput, type N8nItem, type N8nRun } from '../../scripts/demo/n8n';
import { REPO_ROOT } from '../../scripts/demo/pack';
import { decodeJpeg, validateFetchRequest } from '../simulator/gateway';
import { simulateFetch } from '../simulator/gateway/upstream';
import { DEMO_MANUAL_SCRAPER_IDS, MARKETPLACE_DEMO_TOKEN, PLATFORM_DEMO_TOKEN, PRICE_ATOMIC, type RunningSimulator } from '../simulator/index';

/**
 * What examples 1-5 must produce, wherever n8n runs them (one process, or a worker in queue mode): the requests the
 * simulator received and the exact rows of each workflow's last node, checked against what the simulator holds.
 * The caller clears the simulator's request log before the run.
 */

export const EXAMPLES = path.join(REPO_ROOT, 'examples');

export interface WorkflowFile {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	[key: string]: unknown;
}

export function example(file: string): WorkflowFile {
	return JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as WorkflowFile;
}

export const keysOf = (items: N8nItem[]) => items.map((i) => Object.keys(i.json));
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Example 1: AI scraper create and rerun -> one spreadsheet row per record. */
export function expectExample1(run: N8nRun, sim: RunningSimulator): void {
	const log = sim.platform.server.log;
	const created = nodeOutput(run, 'Create AI Scraper');
	expect(created).toHaveLength(1);
	expect(created[0].json.scraperId).toMatch(uuid);
	expect(created[0].json.type).toBe('AI');
	const create = log.for('POST /api/v1/scrapers-ai');
	expect(create).toHaveLength(1);
	expect(create[0].headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
	expect(create[0].body).toEqual({
		url: 'https://shop.example.com/products',
		// The instruction under both names, the interface's and the vendor clients'.
		prompt: 'Extract every product with its name, price and product page URL',
		message: 'Extract every product with its name, price and product page URL',
		agent: 'listing',
	});
	const rerun = log.for('POST /api/v1/scrapers-ai-rerun');
	expect(rerun).toHaveLength(1);
	expect(rerun[0].body).toEqual({ scraperId: created[0].json.scraperId, url: 'https://shop.example.com/products?page=2' });

	const rows = nodeOutput(run, 'Google Sheets Rows');
	const resultId = rows[0].json['Result ID'] as string;
	const record = sim.platform.getRecord<unknown>(resultId);
	expect(record?.type).toBe('Rerun-AI');
	const data = typeof record?.data === 'string' ? JSON.parse(record.data) : record?.data;
	const products = data as Array<{ position: number; title: string; price: number; currency: string; url: string }>;
	expect(products.length).toBeGreaterThanOrEqual(3);
	expect(rows.map((r) => r.json)).toEqual(
		products.map((p) => ({ Position: p.position, Product: p.title, Price: p.price, Currency: p.currency, 'Product URL': p.url, 'Result ID': resultId })),
	);
}

/** Example 2: bulk rerun with Wait for Completion -> every merged record as a row. */
export function expectExample2(run: N8nRun, sim: RunningSimulator): void {
	const log = sim.platform.server.log;
	const start = log.for('POST /api/v1/scrapers-manual-rerun/bulk');
	expect(start).toHaveLength(1);
	const urls = ['desk-1', 'lamp-2', 'chair-3', 'shelf-4'].map((s) => `https://shop.example.com/item/${s}`);
	expect(start[0].body).toEqual({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls });
	// It waited: the job was read until done.
	expect(log.count('GET /api/v1/results/:id')).toBeGreaterThanOrEqual(1);

	const rows = nodeOutput(run, 'Google Sheets Rows');
	const bulkId = rows[0].json['Bulk Job ID'] as string;
	const job = sim.platform.getRecord<{ mergedData: Array<Record<string, unknown>>; urlDetails: Array<{ status: string }> }>(bulkId);
	expect(job?.data.urlDetails.map((u) => u.status)).toEqual(['Finished', 'Finished', 'Finished', 'Finished']);
	expect(job?.data.mergedData.length).toBeGreaterThanOrEqual(4);
	expect(rows.map((r) => r.json)).toEqual(
		(job?.data.mergedData ?? []).map((m) => ({
			Product: m.title,
			SKU: m.sku,
			Price: m.price,
			'In Stock': m.inStock ? 'yes' : 'no',
			'Product URL': m.url,
			'Bulk Job ID': bulkId,
		})),
	);
}

/** Example 10: a bulk job with two failing URLs, then Bulk > Retry Failed URLs -> one row per retried URL. */
export function expectExample10(run: N8nRun, sim: RunningSimulator): void {
	const log = sim.platform.server.log;
	const scraperId = DEMO_MANUAL_SCRAPER_IDS[1];
	const urls = ['desk-1', 'sim-fail-rug-2', 'lamp-3', 'chair-4', 'sim-fail-vase-5', 'shelf-6'].map((s) => `https://shop.example.com/item/${s}`);
	const failed = urls.filter((u) => u.includes('sim-fail'));
	// Two starts on the same manual scraper: the six URLs, then exactly the two that failed; nothing on the AI endpoint.
	expect(log.for('POST /api/v1/scrapers-manual-rerun/bulk').map((r) => r.body)).toEqual([
		{ scraperId, urls },
		{ scraperId, urls: failed },
	]);
	expect(log.count('POST /api/v1/scrapers-ai-rerun/bulk')).toBe(0);

	const first = nodeOutput(run, 'Bulk Rerun and Wait');
	expect(first).toHaveLength(1);
	expect(first[0].json).toMatchObject({ completed: true, totalUrls: 6, failedUrls: 2 });
	const retried = nodeOutput(run, 'Retry Failed URLs');
	expect(retried).toHaveLength(1);
	const retryId = retried[0].json.id as string;
	expect(retryId).not.toBe(first[0].json.id);
	const job = sim.platform.getRecord<{ urlDetails: Array<{ url: string; status: string; error: string }> }>(retryId);
	expect(job).toMatchObject({ type: 'Bulk-AI', scraperId });

	const rows = nodeOutput(run, 'Google Sheets Rows');
	expect(rows.map((r) => r.json)).toEqual(
		(job?.data.urlDetails ?? []).map((u) => ({ URL: u.url, 'Retry Status': u.status, Error: u.error ?? '', 'Retry Job ID': retryId, 'First Job ID': first[0].json.id })),
	);
	expect(rows.map((r) => r.json.URL)).toEqual(failed);
	// The simulator fails those URLs every time: the retry ran them to the end, and they failed again.
	expect(rows.map((r) => r.json['Retry Status'])).toEqual(['Failed', 'Failed']);
}

/** Example 3: search-engine leads -> one CRM contact per lead, as the service holds them. */
export async function expectExample3(run: N8nRun, sim: RunningSimulator): Promise<void> {
	const create = sim.marketplace.server.log.for('POST /api/scrapers/leads-generator/search/create-and-run');
	expect(create).toHaveLength(1);
	expect(create[0].headers.authorization).toBe(`Bearer ${MARKETPLACE_DEMO_TOKEN}`);
	expect(create[0].body).toEqual({ name: 'Marketing agencies in Sydney', search_type: 'keywords', limit_pages: 2, keywords: 'marketing agency sydney' });

	// What the service holds for that run, read over its API.
	const runId = nodeOutput(run, 'Find Leads in Search Results')[0].json.scraping_run_id as number;
	const res = await fetch(`${sim.info.marketplaceUrl}/api/scraping-runs/${runId}`, { headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } });
	const body = (await res.json()) as { data: { results: Array<{ status: string; content: Array<Record<string, string>> }> } };
	expect(body.data.results.every((r) => r.status === 'succeeded')).toBe(true);
	const leads = body.data.results.flatMap((r) => r.content);
	expect(leads.length).toBeGreaterThan(0);

	const contacts = nodeOutput(run, 'HubSpot Contacts');
	expect(contacts.map((c) => c.json)).toEqual(
		leads.map((l) => ({
			email: l.email,
			firstname: l.name.split(' ')[0],
			lastname: l.name.split(' ').slice(1).join(' '),
			company: l.company,
			jobtitle: l.title,
			phone: l.phone,
			website: l.website,
			address: l.address,
		})),
	);
	for (const c of contacts) expect(c.json.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
}

/** Balances and settlements before a paid run, to compare with after. */
export interface PaymentsBefore {
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

/** Example 5: job board with a JSON Schema -> one row per job the service returns for the same request. */
export async function expectExample5(run: N8nRun, sim: RunningSimulator): Promise<void> {
	const params = example('05-job-board-json-schema.json').nodes.find((n) => n.name === 'Scrape Job Board')?.parameters ?? {};
	const sent = sim.marketplace.server.log.for('POST /api/job-board-scrape');
	expect(sent).toHaveLength(1);
	expect(sent[0].body).toEqual({
		urls: ['https://jobs.example.com/search?q=data+engineer'],
		schema: JSON.parse(params.schema as string),
		min: 5,
		max: 10,
		timeout: 60,
	});
	// The same request straight to the service: the rows are its jobs, one each.
	const res = await fetch(`${sim.info.marketplaceUrl}/api/job-board-scrape`, {
		method: 'POST',
		headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
		body: JSON.stringify(sent[0].body),
	});
	const { result } = (await res.json()) as { result: { jobs: Array<Record<string, string>> } };
	const rows = nodeOutput(run, 'Google Sheets Rows');
	expect(rows.length).toBeGreaterThanOrEqual(5);
	expect(rows.length).toBeLessThanOrEqual(10);
	expect(rows.map((r) => r.json)).toEqual(
		result.jobs.map((j) => ({
			'Job Title': j.title,
			Company: j.company,
			Location: j.location,
			Salary: j.salary,
			'Employment Type': j.employment_type,
			Posted: j.posted_date,
			'Job URL': j.url,
		})),
	);
}
