/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- checks the repository's own files with Node's fs and child_process */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- runs the repository's own lockfile check script */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

describe('the package as n8n installs it', () => {
	it('has no runtime dependencies and n8n-workflow as its only peer', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.license).toBe('MIT');
	});

	it('lists four nodes and three credentials whose sources exist', () => {
		expect(pkg.n8n.nodes).toHaveLength(4);
		expect(pkg.n8n.credentials).toHaveLength(3);
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
			expect(existsSync(path.join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')))).toBe(true);
		}
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
