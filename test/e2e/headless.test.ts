/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test in plain Node: it runs a real n8n process and a local npm registry, and reads the files they write */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { demoCredentials } from '../../scripts/demo/credentials';
import { N8nInstance, nodeOutput, type ExecuteResult, type N8nItem } from '../../scripts/demo/n8n';
import { REPO_ROOT } from '../../scripts/demo/pack';
import { isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { decodeJpeg, validateFetchRequest } from '../simulator/gateway';
import { simulateFetch } from '../simulator/gateway/upstream';
import { DEMO_MANUAL_SCRAPER_IDS, MARKETPLACE_DEMO_TOKEN, PLATFORM_DEMO_TOKEN, PRICE_ATOMIC, startSimulator, type RunningSimulator } from '../simulator/index';
import { binaryFile, useRegistry, tarballsUnderTest, versionsUnderTest } from './support';

const EXAMPLES = path.join(REPO_ROOT, 'examples');
const PACKAGE = 'n8n-nodes-scraper-service';
const X402_PACKAGE = 'n8n-nodes-scraper-service-x402';

function example(file: string): { id: string; nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }> } {
	return JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8'));
}

/** A successful run: exit 0 and every node without error; otherwise fail with what n8n printed. */
function expectSuccess(result: ExecuteResult): NonNullable<ExecuteResult['run']> {
	const error = result.run?.data.resultData.error;
	if (result.code !== 0 || !result.run || error) {
		const why = error ? `${error.message ?? 'error'} in ${result.run?.data.resultData.lastNodeExecuted}` : `exit ${result.code}`;
		throw new Error(`n8n execute failed (${why})\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-3000)}`);
	}
	return result.run;
}

const keysOf = (items: N8nItem[]) => items.map((i) => Object.keys(i.json));
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// One local npm registry for every version: both packages published to it once, as they would be to npm.
const served = useRegistry();

describe.each(versionsUnderTest())('n8n %s runs the example workflows headless (n8n execute)', (version) => {
	let sim: RunningSimulator;
	let n8n: N8nInstance;
	/** What the registry received while this version's n8n folder got the packages. */
	let received: Array<{ method: string; url: string; npmCommand?: string }>;
	let downloads: Record<string, number>;

	beforeAll(async () => {
		const runtime = await runtimeFor(version);
		if (!isInstalled(runtime)) throw new Error(`n8n ${version} is not installed in ${runtime.dir}: run \`npm run test:e2e\`, which installs it first.`);
		sim = await startSimulator();
		n8n = new N8nInstance({ runtime, userFolder: mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-${version}-`)) });
		// By name from the registry, as a self-hosted user installs them (`npm install <name>` in ~/.n8n/nodes). An
		// npm cache of its own: the tarballs are downloaded, not reused from an earlier run's cache.
		const before = served.registry.received().length;
		const downloadsBefore = Object.fromEntries(served.published.map((p) => [p.name, served.registry.downloads(p.name).length]));
		await n8n.installFromRegistry(
			served.published.map((p) => `${p.name}@${p.version}`),
			served.registry.url,
			{ npmCache: path.join(n8n.userFolder, 'npm-cache') },
		);
		received = served.registry.received().slice(before);
		downloads = Object.fromEntries(served.published.map((p) => [p.name, served.registry.downloads(p.name).length - downloadsBefore[p.name]]));
		await n8n.importCredentials(demoCredentials(sim.info));
		await n8n.importWorkflows(EXAMPLES);
	});

	afterAll(async () => {
		await sim?.close();
		if (n8n) rmSync(n8n.userFolder, { recursive: true, force: true });
	});

	test('both packages sit in the community nodes folder, installed by name the way n8n installs them', () => {
		const nodesDir = path.join(n8n.n8nFolder, 'nodes');
		const manifest = JSON.parse(readFileSync(path.join(nodesDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
		expect(Object.keys(manifest.dependencies).sort()).toEqual([PACKAGE, X402_PACKAGE]);
		for (const name of [PACKAGE, X402_PACKAGE]) {
			const pkg = JSON.parse(readFileSync(path.join(nodesDir, 'node_modules', name, 'package.json'), 'utf8')) as Record<string, unknown>;
			expect(manifest.dependencies[name]).toBe(pkg.version);
			// Nothing to install besides the package itself: the core needs only what n8n provides, the x402
			// package bundles its libraries.
			expect(pkg.dependencies).toBeUndefined();
			expect(existsSync(path.join(nodesDir, 'node_modules', name, 'node_modules'))).toBe(false);
		}
		// The core ships our compiled code file by file; the x402 package one bundle per node and credential.
		expect(existsSync(path.join(nodesDir, 'node_modules', PACKAGE, 'dist/nodes/shared/transport.js'))).toBe(true);
		expect(existsSync(path.join(nodesDir, 'node_modules', X402_PACKAGE, 'dist/nodes/ScraperGateway/ScraperGateway.node.js'))).toBe(true);
		// The n8n-workflow peer dependency is not installed beside them: n8n provides it.
		expect(existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow'))).toBe(false);
		// Loaded from there only (no custom extensions folder): node types are `<package>.<name>`.
		expect(n8n.env().N8N_CUSTOM_EXTENSIONS).toBeUndefined();
	});

	test('both packages came from the local registry: npm install fetched them there, byte for byte our tarballs', async () => {
		const lock = JSON.parse(readFileSync(path.join(n8n.n8nFolder, 'nodes', 'node_modules', '.package-lock.json'), 'utf8')) as {
			packages: Record<string, { version: string; integrity: string }>;
		};
		const tarballs = tarballsUnderTest();
		for (const [i, pkg] of served.published.entries()) {
			const file = `/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
			expect(pkg.tarball).toBe(`${served.registry.url}${file.slice(1)}`);
			// `npm install` asked the registry for the package's document, then downloaded its tarball (200).
			expect(received).toContainEqual({ method: 'GET', url: `/${pkg.name}`, npmCommand: 'install' });
			expect(received).toContainEqual({ method: 'GET', url: file, npmCommand: 'install' });
			expect(downloads[pkg.name]).toBeGreaterThanOrEqual(1);
			// What npm installed is what the registry serves, which is the tarball `npm pack` made.
			const packument = (await served.registry.packument(pkg.name)).body as { versions: Record<string, { dist: { integrity: string } }> };
			const integrity = `sha512-${createHash('sha512').update(readFileSync(tarballs[i])).digest('base64')}`;
			expect(packument.versions[pkg.version].dist.integrity).toBe(integrity);
			expect(lock.packages[`node_modules/${pkg.name}`]).toMatchObject({ version: pkg.version, integrity });
		}
		// Nothing else was installed: the registry was asked for our two packages only.
		expect(new Set(received.map((r) => r.url.split('/')[1]))).toEqual(new Set(served.published.map((p) => p.name)));
	});

	test('example 1: AI scraper create and rerun -> one spreadsheet row per record', async () => {
		const wf = example('01-ai-scraper-to-sheet-rows.json');
		expect(wf.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`)).map((n) => n.type)).toEqual([`${PACKAGE}.scraperPlatform`, `${PACKAGE}.scraperPlatform`]);
		const log = sim.platform.server.log;
		log.clear();
		const run = expectSuccess(await n8n.execute(wf.id));

		const created = nodeOutput(run, 'Create AI Scraper');
		expect(created).toHaveLength(1);
		expect(created[0].json.scraperId).toMatch(uuid);
		expect(created[0].json.type).toBe('AI');
		const create = log.for('POST /api/v1/scrapers-ai');
		expect(create).toHaveLength(1);
		expect(create[0].headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(create[0].body).toEqual({
			url: 'https://shop.example.com/products',
			prompt: 'Extract every product with its name, price and product page URL',
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
	});

	test('example 2: bulk rerun with Wait for Completion -> every merged record as a row', async () => {
		const wf = example('02-bulk-rerun-merged-records.json');
		const log = sim.platform.server.log;
		log.clear();
		const run = expectSuccess(await n8n.execute(wf.id));

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
	});

	test('example 3: search-engine leads -> one CRM contact per lead', async () => {
		const wf = example('03-search-leads-to-crm-contacts.json');
		const log = sim.marketplace.server.log;
		log.clear();
		const run = expectSuccess(await n8n.execute(wf.id));

		const create = log.for('POST /api/scrapers/leads-generator/search/create-and-run');
		expect(create).toHaveLength(1);
		expect(create[0].headers.authorization).toBe(`Bearer ${MARKETPLACE_DEMO_TOKEN}`);
		expect(create[0].body).toEqual({ name: 'Marketing agencies in Sydney', search_type: 'keywords', limit_pages: 2, keywords: 'marketing agency sydney' });

		// What the service holds for that run, read over its API.
		const leadsOut = nodeOutput(run, 'Find Leads in Search Results');
		const runId = leadsOut[0].json.scraping_run_id as number;
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
	});

	test('example 4: paid gateway fetch of three URLs -> Markdown, screenshot files and receipts; paid on chain', async () => {
		const wf = example('04-paid-gateway-fetch-with-receipts.json');
		const { demoWallet, payTo } = sim.info.chain;
		const payer = demoWallet.address as `0x${string}`;
		const payerBefore = await sim.gateway.balanceOf(payer);
		const payeeBefore = await sim.gateway.balanceOf(payTo as `0x${string}`);
		const settledBefore = sim.gateway.settlements.length;
		const run = expectSuccess(await n8n.execute(wf.id));

		const urls = ['https://example.com/pricing', 'https://example.org/about', 'https://example.net/blog'];
		const rows = nodeOutput(run, 'Pages With Receipts');
		expect(keysOf(rows)).toEqual(urls.map(() => ['URL', 'Markdown', 'Screenshot File', 'Paid (USDC)', 'Transaction', 'Payer', 'Network']));
		expect(rows.map((r) => r.json.URL)).toEqual(urls);

		// Exactly three charges of 0.01 USDC, on chain, from the demo wallet to the gateway's payee.
		const settlements = sim.gateway.settlements.slice(settledBefore);
		expect(settlements).toHaveLength(3);
		expect(await sim.gateway.balanceOf(payer)).toBe(payerBefore - 3n * PRICE_ATOMIC);
		expect(await sim.gateway.balanceOf(payTo as `0x${string}`)).toBe(payeeBefore + 3n * PRICE_ATOMIC);
		for (const row of rows) {
			const settlement = settlements.find((s) => s.target === row.json.URL);
			expect(row.json).toMatchObject({ 'Paid (USDC)': '0.01', Transaction: settlement?.transaction, Network: 'eip155:31337' });
			expect(String(row.json.Payer).toLowerCase()).toBe(payer.toLowerCase());
			expect((await sim.gateway.getTransactionReceipt(row.json.Transaction as `0x${string}`))?.status).toBe('success');
		}

		for (const [i, row] of rows.entries()) {
			// What the simulated upstream renders for that page: the same Markdown, the same JPEG bytes.
			const request = validateFetchRequest({ url: urls[i], html: false, markdown: true, screenshot: true });
			if (!request.ok) throw new Error('bad reference request');
			const expected = simulateFetch(request.value).data;
			expect(row.json.Markdown).toBe(expected.markdown);
			const screenshot = row.binary?.screenshot;
			expect(screenshot).toMatchObject({ mimeType: 'image/jpeg', fileName: row.json['Screenshot File'] });
			const bytes = screenshot?.id ? readFileSync(binaryFile(n8n.n8nFolder, screenshot.id)) : Buffer.from(screenshot?.data ?? '', 'base64');
			expect(bytes.equals(Buffer.from(expected.screenshot ?? '', 'base64'))).toBe(true);
			const image = decodeJpeg(bytes);
			expect(image.width).toBeGreaterThan(0);
			expect(image.height).toBeGreaterThan(0);
		}
	});

	test('example 5: job board with a JSON Schema -> one row per job', async () => {
		const wf = example('05-job-board-json-schema.json');
		const params = wf.nodes.find((n) => n.name === 'Scrape Job Board')?.parameters ?? {};
		const log = sim.marketplace.server.log;
		log.clear();
		const run = expectSuccess(await n8n.execute(wf.id));

		const sent = log.for('POST /api/job-board-scrape');
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
	});
});
