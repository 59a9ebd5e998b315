/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- e2e runner in plain Node: it installs n8n and chromium and runs jest (fixed commands) */
// `npm run test:e2e` (n8n 2.8.4 on Node 20) and `npm run test:e2e:next` (n8n 2.41.1 on Node 24 from the registry):
// builds and packs both packages, installs the n8n version(s) into the cache once, installs Debian's chromium when it
// is missing, then runs the end-to-end jest suite (test/e2e/jest.config.js).
//
// Flags: --next (the newer n8n instead), --all (both), --versions=a,b, --no-browser, --no-build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { buildAndPack, REPO_ROOT } from './pack';
import { N8N_NEXT, N8N_STABLE, cleanEnv, ensureN8n, log, run } from './runtime';

const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, installed with apt when missing (CI machines start fresh). */
async function ensureChromium(): Promise<void> {
	if (existsSync(CHROMIUM)) return;
	log('Installing chromium (apt-get install chromium) ...');
	const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
	const apt = async (args: string[]) =>
		await run(sudo.length ? 'sudo' : 'apt-get', [...(sudo.length ? ['apt-get'] : []), ...args], {
			env: cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' }),
			quiet: true,
			timeoutMs: 900_000,
		});
	await apt(['update', '-qq']);
	await apt(['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
	if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
}

async function main(): Promise<number> {
	const started = Date.now();
	const argv = process.argv.slice(2);
	const listed = argv.find((a) => a.startsWith('--versions='))?.slice('--versions='.length);
	const versions = listed ? listed.split(',') : argv.includes('--all') ? [N8N_STABLE, N8N_NEXT] : argv.includes('--next') ? [N8N_NEXT] : [N8N_STABLE];
	const browser = !argv.includes('--no-browser');

	const tarballs = await buildAndPack({ build: !argv.includes('--no-build') });
	for (const version of versions) {
		const t = Date.now();
		const rt = await ensureN8n(version);
		log(`n8n ${version} on Node ${rt.nodeVersion} ready (${Math.round((Date.now() - t) / 1000)} s)`);
	}
	if (browser) await ensureChromium();

	const jestArgs = [path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '-c', 'test/e2e/jest.config.js'];
	if (!browser) jestArgs.push('--testPathIgnorePatterns', 'editor\\.test\\.ts');
	log(`Running the end-to-end suite on n8n ${versions.join(' and ')}${browser ? ' (headless runs and the editor in chromium)' : ' (headless runs)'} ...`);
	const code = await new Promise<number>((resolve) => {
		const child = spawn(process.execPath, jestArgs, {
			cwd: REPO_ROOT,
			stdio: 'inherit',
			env: {
				...process.env,
				E2E_N8N_VERSIONS: versions.join(','),
				E2E_BROWSER_VERSIONS: versions.join(','),
				E2E_TARBALLS: tarballs.join(','),
			},
		});
		child.on('close', (c) => resolve(c ?? 1));
	});
	const seconds = Math.round((Date.now() - started) / 1000);
	process.stdout.write(`\ne2e: ${code === 0 ? 'PASSED' : 'FAILED'} on n8n ${versions.join(', ')} in ${seconds} s\n`);
	return code;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		process.stderr.write(`e2e: FAILED before the tests ran: ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
