/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test in plain Node: it runs a real n8n process and a local npm registry, and reads the files they write */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { CREDENTIAL_REFS, demoCredentials } from '../../scripts/demo/credentials';
import { N8nInstance } from '../../scripts/demo/n8n';
import type { ExecuteResult } from '../../scripts/demo/n8n-run';
import { isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { startSimulator, type RunningSimulator } from '../simulator/index';
import { expectExample4, paymentsBefore } from './examples/gateway';
import { expectExample3, expectExample5 } from './examples/marketplace';
import { expectExample11, expectExample9 } from './examples/pageFetch';
import { expectExample1, expectExample10, expectExample2 } from './examples/platform';
import { EXAMPLES, example, nodeOutput } from './examples/workflows';
import { installFromRegistry } from './infra/registry/install-by-name';
import { binaryFile, useRegistry, tarballsUnderTest, versionsUnderTest } from './support';

const PACKAGE = 'n8n-nodes-scraper-service';
const X402_PACKAGE = 'n8n-nodes-scraper-service-x402';

/** A successful run: exit 0 and every node without error; otherwise fail with what n8n printed. */
function expectSuccess(result: ExecuteResult): NonNullable<ExecuteResult['run']> {
	const error = result.run?.data.resultData.error;
	if (result.code !== 0 || !result.run || error) {
		const why = error ? `${error.message ?? 'error'} in ${result.run?.data.resultData.lastNodeExecuted}` : `exit ${result.code}`;
		throw new Error(`n8n execute failed (${why})\n${result.stdout.slice(-6000)}\n${result.stderr.slice(-3000)}`);
	}
	return result.run;
}

/**
 * Result > Get Many twice on the same results, at the Platform node's newest version: Simplify on (the default) and
 * off. Not an example a user opens: the same node in both settings, so the two outputs can be compared.
 */
const SIMPLIFY_WORKFLOW = {
	id: 'scrE2eSimplify01',
	name: 'e2e: Simplify on and off',
	active: false,
	// n8n 1.x refuses a workflow without one on import.
	versionId: '6c1e2a10-00e2-4000-8000-000000000001',
	connections: {
		Start: { main: [[{ node: 'Simplified', type: 'main', index: 0 }]] },
		Simplified: { main: [[{ node: 'Raw', type: 'main', index: 0 }]] },
	},
	nodes: [
		{ id: 'e2e-simplify-1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		...[
			['Simplified', {}],
			['Raw', { simplify: false }],
		].map(([name, simplify], i) => ({
			id: `e2e-simplify-${i + 2}`,
			name,
			type: `${PACKAGE}.scraperPlatform`,
			typeVersion: 3,
			position: [240 * (i + 1), 0],
			executeOnce: true,
			parameters: { resource: 'result', operation: 'getMany', limit: 3, ...(simplify as object), sort: { rule: { sortField: 'createdAt', sortOrder: 'ASC' } } },
			credentials: { scraperPlatformApi: CREDENTIAL_REFS.scraperPlatformApi },
		})),
	],
	settings: {},
};

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
		await installFromRegistry(
			n8n,
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
		expect(existsSync(path.join(nodesDir, 'node_modules', PACKAGE, 'dist/nodes/shared/transport/transport.js'))).toBe(true);
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
		sim.platform.server.log.clear();
		expectExample1(expectSuccess(await n8n.execute(wf.id)), sim);
	});

	test('example 2: bulk rerun with Wait for Completion -> every merged record as a row', async () => {
		sim.platform.server.log.clear();
		expectExample2(expectSuccess(await n8n.execute(example('02-bulk-rerun-merged-records.json').id)), sim);
	});

	test('example 3: search-engine leads -> one CRM contact per lead', async () => {
		sim.marketplace.server.log.clear();
		await expectExample3(expectSuccess(await n8n.execute(example('03-search-leads-to-crm-contacts.json').id)), sim);
	});

	test('example 4: paid gateway fetch of three URLs -> Markdown, screenshot files and receipts; paid on chain', async () => {
		const before = await paymentsBefore(sim);
		const run = expectSuccess(await n8n.execute(example('04-paid-gateway-fetch-with-receipts.json').id));
		// n8n keeps the screenshots as files under its folder.
		await expectExample4(run, sim, before, async (screenshot) =>
			screenshot.id ? readFileSync(binaryFile(n8n.n8nFolder, screenshot.id)) : Buffer.from(screenshot.data ?? '', 'base64'),
		);
	});

	test('Simplify on and off in one run: at most ten fields, the same records; off, every field', async () => {
		const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-simplify-'));
		const file = path.join(folder, 'simplify.json');
		writeFileSync(file, JSON.stringify(SIMPLIFY_WORKFLOW));
		try {
			await n8n.importWorkflows(file);
		} finally {
			rmSync(folder, { recursive: true, force: true });
		}
		const run = expectSuccess(await n8n.execute(SIMPLIFY_WORKFLOW.id));
		const simplified = nodeOutput(run, 'Simplified').map((item) => item.json);
		const raw = nodeOutput(run, 'Raw').map((item) => item.json);
		expect(simplified).toHaveLength(3);
		expect(simplified.map((r) => r.id)).toEqual(raw.map((r) => r.id));
		for (const record of simplified) {
			expect(Object.keys(record).length).toBeLessThanOrEqual(10);
			expect(record).not.toHaveProperty('htmlPath');
		}
		for (const record of raw) expect(Object.keys(record).length).toBeGreaterThan(10);
	});

	test('example 5: job board with a JSON Schema -> one row per job', async () => {
		sim.marketplace.server.log.clear();
		await expectExample5(expectSuccess(await n8n.execute(example('05-job-board-json-schema.json').id)), sim);
	});

	test("example 9: Page > Fetch of three URLs with the API token -> n8n's Markdown node -> one row per page", async () => {
		sim.fetch.server.log.clear();
		expectExample9(expectSuccess(await n8n.execute(example('09-page-fetch-to-markdown-rows.json').id)), sim);
	});

	test('example 11: Page > Fetch with full-page screenshots -> PNG files on disk -> one row per page', async () => {
		sim.fetch.server.log.clear();
		expectExample11(expectSuccess(await n8n.execute(example('11-page-screenshots-to-files.json').id)), sim, n8n.userFolder);
	});

	test('example 10: bulk job, then only its failed URLs retried in one new job -> a row per retried URL', async () => {
		sim.platform.server.log.clear();
		expectExample10(expectSuccess(await n8n.execute(example('10-bulk-retry-failed-urls.json').id)), sim);
	});
});
