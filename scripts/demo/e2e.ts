/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- e2e runner in plain Node: it installs n8n and chromium and runs jest (fixed commands) */
// `npm run test:e2e` (n8n 2.8.4 on Node 20) and `npm run test:e2e:next` (the newest n8n that installs from the
// registry, found at run time, on Node 24):
// builds and packs both packages, installs the n8n version(s) into the cache once, installs Debian's chromium when it
// is missing, then runs the end-to-end jest suite (test/e2e/jest.config.js).
//
// Flags: --next (the newer n8n instead), --oldest (n8n 1.121.3, the oldest the README claims), --all (the oldest,
// 2.8.4 and the newest, then the queue-mode suite), --versions=a,b, --no-browser,
// --no-build, --queue (only the queue-mode suite: n8n 2.8.4 main + 2 workers + Redis + PostgreSQL,
// test/e2e/queue.test.ts; installs Debian's redis-server and postgresql with apt-get when missing).
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { buildAndPack, REPO_ROOT } from './pack';
import { QUEUE_APT_PACKAGES, missingQueuePackages, queueServicesVersions } from './queue';
import { N8N_NEXT, N8N_OLDEST, N8N_STABLE, cleanEnv, ensureN8n, log, newestInstallableN8n, run } from './runtime';

const CHROMIUM = '/usr/bin/chromium';
/** The queue-mode suite runs on the newest n8n for Node 20. */
const QUEUE_VERSION = N8N_STABLE;
const POLICY_RC_D = '/usr/sbin/policy-rc.d';

/**
 * `apt-get update` and `apt-get install` of Debian packages (sudo when not root). `noServices`: the packages'
 * install scripts must not start their daemons (Redis on 6379, PostgreSQL's `main` cluster on 5432): as root, a
 * policy-rc.d that denies starts is put in place for the install when there is none (Docker images ship one).
 */
async function aptInstall(packages: string[], options: { noServices?: boolean } = {}): Promise<void> {
	const root = process.getuid?.() === 0;
	const apt = async (args: string[]) =>
		await run(root ? 'apt-get' : 'sudo', [...(root ? [] : ['apt-get']), ...args], {
			env: cleanEnv({ DEBIAN_FRONTEND: 'noninteractive' }),
			quiet: true,
			timeoutMs: 900_000,
		});
	const guard = Boolean(options.noServices && root && !existsSync(POLICY_RC_D));
	if (guard) writeFileSync(POLICY_RC_D, '#!/bin/sh\n# e2e: no daemon starts while packages install\nexit 101\n', { mode: 0o755 });
	try {
		await apt(['update', '-qq']);
		await apt(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
	} finally {
		if (guard) rmSync(POLICY_RC_D, { force: true });
	}
}

/** Debian's chromium, installed with apt when missing (CI machines start fresh). */
async function ensureChromium(): Promise<void> {
	if (existsSync(CHROMIUM)) return;
	log('Installing chromium (apt-get install chromium) ...');
	await aptInstall(['chromium']);
	if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
}

/** Debian's redis-server and postgresql for the queue-mode suite, installed with apt when missing. */
async function ensureQueueServices(): Promise<void> {
	const missing = missingQueuePackages();
	if (missing.length > 0) {
		log(`Installing ${missing.join(' and ')} (apt-get install ${missing.join(' ')}) ...`);
		await aptInstall(missing, { noServices: true });
		const still = missingQueuePackages();
		if (still.length > 0) throw new Error(`apt-get installed ${missing.join(', ')}, but ${still.join(', ')} is still missing (${QUEUE_APT_PACKAGES.join(', ')} expected)`);
	}
	log(`Queue-mode services: ${await queueServicesVersions()}`);
}

/** Runs jest with the end-to-end config and extra arguments; resolves with its exit code. */
async function runJest(args: string[], env: Record<string, string>): Promise<number> {
	const jestArgs = [path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '-c', 'test/e2e/jest.config.js', ...args];
	return await new Promise<number>((resolve) => {
		const child = spawn(process.execPath, jestArgs, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
		child.on('close', (c) => resolve(c ?? 1));
	});
}

async function main(): Promise<number> {
	const started = Date.now();
	const argv = process.argv.slice(2);
	const listed = argv.find((a) => a.startsWith('--versions='))?.slice('--versions='.length);
	const queueOnly = argv.includes('--queue');
	const withQueue = queueOnly || argv.includes('--all');
	const wantsNewest = !queueOnly && !listed && (argv.includes('--all') || argv.includes('--next'));
	let next = N8N_NEXT;
	if (wantsNewest) {
		// The newest n8n that installs here, found in the registry now (verdicts cached), with why newer ones are skipped.
		const newest = await newestInstallableN8n();
		for (const skipped of newest.skipped) log(`n8n ${skipped.version} skipped: ${skipped.reason}`);
		log(`Newest installable n8n: ${newest.version}${newest.source === 'fallback' ? ` (the registry could not be read: the known-good ${N8N_NEXT})` : ''}`);
		next = newest.version;
	}
	const versions = queueOnly ? [] : listed ? listed.split(',') : argv.includes('--all') ? [N8N_OLDEST, N8N_STABLE, next] : argv.includes('--next') ? [next] : argv.includes('--oldest') ? [N8N_OLDEST] : [N8N_STABLE];
	const browser = !argv.includes('--no-browser');

	const tarballs = await buildAndPack({ build: !argv.includes('--no-build') });
	for (const version of [...versions, ...(withQueue && !versions.includes(QUEUE_VERSION) ? [QUEUE_VERSION] : [])]) {
		const t = Date.now();
		const rt = await ensureN8n(version);
		log(`n8n ${version} on Node ${rt.nodeVersion} ready (${Math.round((Date.now() - t) / 1000)} s)`);
	}
	if (browser && versions.length > 0) await ensureChromium();
	if (withQueue) await ensureQueueServices();

	const parts: Array<{ label: string; code: number }> = [];
	if (versions.length > 0) {
		// The queue-mode suite runs on its own below (it needs Redis and PostgreSQL).
		const ignore = ['/node_modules/', 'queue\\.test\\.ts', ...(browser ? [] : ['editor\\.test\\.ts'])];
		log(`Running the end-to-end suite on n8n ${versions.join(' and ')}${browser ? ' (headless runs and the editor in chromium)' : ' (headless runs)'} ...`);
		const single = await runJest(['--testPathIgnorePatterns', ...ignore], {
			E2E_N8N_VERSIONS: versions.join(','),
			E2E_BROWSER_VERSIONS: versions.join(','),
			E2E_TARBALLS: tarballs.join(','),
		});
		parts.push({ label: `on n8n ${versions.join(', ')}`, code: single });
	}
	if (withQueue) {
		log(`Running the queue-mode suite on n8n ${QUEUE_VERSION}: main + 2 workers + Redis + PostgreSQL ...`);
		const queue = await runJest(['test/e2e/queue\\.test\\.ts'], { E2E_QUEUE_N8N_VERSION: QUEUE_VERSION, E2E_TARBALLS: tarballs.join(',') });
		parts.push({ label: `in queue mode on n8n ${QUEUE_VERSION}`, code: queue });
	}
	const code = parts.find((p) => p.code !== 0)?.code ?? 0;
	const status = (c: number) => (c === 0 ? 'PASSED' : 'FAILED');
	const what = parts.length === 1 ? parts[0].label : parts.map((p) => `${p.label} (${status(p.code)})`).join(' and ');
	const seconds = Math.round((Date.now() - started) / 1000);
	process.stdout.write(`\ne2e: ${status(code)} ${what} in ${seconds} s\n`);
	return code;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		process.stderr.write(`e2e: FAILED before the tests ran: ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
