/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- checks the repository's own files with Node's fs and child_process */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs the repository's own lockfile check script */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const pkg = readJson('package.json');
const x402 = readJson('x402/package.json');
const sourceExists = (dir: string, file: string) => existsSync(path.join(root, dir, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')));

describe('the two packages as n8n installs them', () => {
	it.each([
		['the core', pkg],
		['the x402 package', x402],
	])('%s has no runtime dependencies and n8n-workflow as its only peer', (_name, manifest) => {
		expect(manifest.dependencies ?? {}).toEqual({});
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(manifest.keywords).toContain('n8n-community-node-package');
		expect(manifest.license).toBe('MIT');
		expect(manifest.repository.url).toBe('git+https://github.com/scraper-service/n8n-nodes-scraper-service.git');
		expect(manifest.scripts.prepublishOnly).toBe('n8n-node prerelease');
	});

	it('the core lists Platform, Marketplace, their triggers and the two replaced ones with their two credentials, in strict mode', () => {
		expect(pkg.name).toBe('n8n-nodes-scraper-service');
		expect(pkg.n8n.strict).toBe(true);
		expect(pkg.n8n.nodes).toEqual([
			'dist/nodes/ScraperPlatform/ScraperPlatform.node.js',
			'dist/nodes/ScraperMarketplace/ScraperMarketplace.node.js',
			// Beside the node each pairs with, as n8n's own Airtable/AirtableTrigger.node.ts.
			'dist/nodes/ScraperPlatform/ScraperPlatformTrigger.node.js',
			'dist/nodes/ScraperMarketplace/ScraperMarketplaceTrigger.node.js',
			// Hidden, kept for saved workflows.
			'dist/nodes/ScraperBulkTrigger/ScraperBulkTrigger.node.js',
			'dist/nodes/ScraperRunTrigger/ScraperRunTrigger.node.js',
		]);
		expect(pkg.n8n.credentials.map((f: string) => path.basename(f))).toEqual([
			'ScraperPlatformApi.credentials.js',
			'ScraperMarketplaceApi.credentials.js',
		]);
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(sourceExists('.', file)).toBe(true);
	});

	it('the x402 package lists the Gateway and the wallet credential, and names the libraries it bundles', () => {
		expect(x402.name).toBe('n8n-nodes-scraper-service-x402');
		expect(x402.repository.directory).toBe('x402');
		expect(x402.n8n.nodes).toEqual(['dist/nodes/ScraperGateway/ScraperGateway.node.js']);
		expect(x402.n8n.credentials).toEqual(['dist/credentials/X402WalletApi.credentials.js']);
		for (const file of [...x402.n8n.nodes, ...x402.n8n.credentials]) expect(sourceExists('x402', file)).toBe(true);
		// Bundled at build time from the repository's node_modules: the same versions the tests run.
		for (const [name, range] of Object.entries(x402.devDependencies)) expect(pkg.devDependencies[name]).toBe(range);
	});

	it('pins n8n-workflow and n8n-core to the 2.8 line that runs on Node 20', () => {
		expect(pkg.devDependencies['n8n-workflow']).toMatch(/^2\.8\.\d+$/);
		expect(pkg.devDependencies['n8n-core']).toMatch(/^2\.8\.\d+$/);
	});

	it('package-lock.json lists every optional platform package, so `npm ci` accepts it', () => {
		// See scripts/complete-lockfile.mjs: the registry mirror serves only this platform's binaries.
		expect(() =>
			execFileSync(process.execPath, [path.join(root, 'scripts/complete-lockfile.mjs'), '--check'], { stdio: 'pipe' }),
		).not.toThrow();
	});
});
