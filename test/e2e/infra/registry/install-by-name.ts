/* eslint-disable @n8n/community-nodes/no-restricted-imports -- e2e tooling in plain Node: it runs npm in an n8n user folder and reads what it installed */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { run } from '../../../../scripts/demo/commands';
import type { N8nInstance } from '../../../../scripts/demo/n8n';

/**
 * Installs community packages BY NAME from an npm registry, the manual install n8n documents for self-hosted
 * n8n ("npm install <package>" in ~/.n8n/nodes, then restart): `npm install <name>@<version>` in
 * <n8n folder>/nodes (its package.json created as n8n creates it), with the flags n8n's own installer uses
 * (CommunityPackagesService in n8n 2.x) plus `--legacy-peer-deps`: n8n's installer strips peerDependencies
 * before it installs, so the `n8n-workflow` peer is never installed beside the package (n8n provides it);
 * `--legacy-peer-deps` is npm's way to the same result. `--save-exact`: nodes/package.json records the exact
 * version, as n8n records it. Specs are `name` (the registry's latest) or `name@version`. `npmCache`: an npm
 * cache folder of its own (default npm's), so every tarball is downloaded from the registry, not reused.
 */
export async function installFromRegistry(
	n8n: N8nInstance,
	specs: string[],
	registryUrl: string,
	options: { npmCache?: string } = {},
): Promise<Array<{ name: string; version: string; dir: string }>> {
	const nodesDir = n8n.nodesFolder();
	const flags = ['--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'];
	const args = ['install', ...specs, `--registry=${registryUrl}`, ...flags, '--legacy-peer-deps', '--save-exact', '--loglevel=error'];
	if (options.npmCache) args.push(`--cache=${options.npmCache}`);
	await run('npm', args, { cwd: nodesDir, env: n8n.runtime.env({ NODE_ENV: 'production' }), quiet: true, timeoutMs: 300_000 });
	return specs.map((spec) => {
		const name = spec.replace(/(.)@.*$/, '$1');
		const dir = path.join(nodesDir, 'node_modules', name);
		const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
		return { name, version, dir };
	});
}
