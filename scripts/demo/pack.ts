/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- demo/e2e tooling in plain Node: it builds and packs this repository */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { log, run } from './commands';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Demo state (n8n user folder, packed tarball); git-ignored. */
export const DEMO_DIR = path.join(REPO_ROOT, '.n8n-demo');

/** The repository's two packages, in install order: the core (n8n Cloud) and the x402 gateway (self-hosted). */
const PACKAGE_DIRS = [REPO_ROOT, path.join(REPO_ROOT, 'x402')];

/** `npm run build` (both packages) then `npm pack` of each into .n8n-demo/pack; returns the tarballs' paths. */
export async function buildAndPack(options: { build?: boolean } = {}): Promise<string[]> {
	if (options.build !== false) {
		log('Building both packages (npm run build) ...');
		await run('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, quiet: true });
	}
	const dest = path.join(DEMO_DIR, 'pack');
	rmSync(dest, { recursive: true, force: true });
	mkdirSync(dest, { recursive: true });
	const tarballs: string[] = [];
	for (const dir of PACKAGE_DIRS) {
		const packed = await run('npm', ['pack', '--silent', '--pack-destination', dest], { cwd: dir, quiet: true });
		const tarball = packed.stdout.trim().split('\n').pop() ?? '';
		if (!tarball.endsWith('.tgz') || !readdirSync(dest).includes(tarball)) throw new Error(`npm pack in ${dir} wrote no tarball into ${dest}`);
		log(`Packed ${tarball}`);
		tarballs.push(path.join(dest, tarball));
	}
	return tarballs;
}
