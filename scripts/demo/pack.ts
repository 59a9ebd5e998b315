/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- demo/e2e tooling in plain Node */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { log, run } from './runtime';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** Demo state (n8n user folder, packed tarball); git-ignored. */
export const DEMO_DIR = path.join(REPO_ROOT, '.n8n-demo');

/** `npm run build` then `npm pack` into .n8n-demo/pack; returns the tarball's path. */
export async function buildAndPack(options: { build?: boolean } = {}): Promise<string> {
	if (options.build !== false) {
		log('Building the package (npm run build) ...');
		await run('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, quiet: true });
	}
	const dest = path.join(DEMO_DIR, 'pack');
	rmSync(dest, { recursive: true, force: true });
	mkdirSync(dest, { recursive: true });
	await run('npm', ['pack', '--silent', '--pack-destination', dest], { cwd: REPO_ROOT, quiet: true });
	const tarball = readdirSync(dest).find((f) => f.endsWith('.tgz'));
	if (!tarball) throw new Error(`npm pack wrote no tarball into ${dest}`);
	log(`Packed ${tarball}`);
	return path.join(dest, tarball);
}
