import type { N8nRun } from '../../../scripts/demo/n8n-run';
import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, type RunningSimulator } from '../../simulator/index';
import { nodeOutput } from './workflows';

/** What examples 1, 2 and 10 (the Scraper Platform's scrapers and bulk jobs) must produce; see workflows.ts. */

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
		// The instruction and the agent under both names, the interface's and the vendor clients'.
		prompt: 'Extract every product with its name, price and product page URL',
		message: 'Extract every product with its name, price and product page URL',
		agent: 'listing',
		graph: 'listing',
	});
	expect(create[0].headers.accept).toBe('application/json');
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
