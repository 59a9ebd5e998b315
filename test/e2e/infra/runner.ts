/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- e2e runner in plain Node: it reads argv, installs what the suites need and runs jest */
// `npm run test:e2e` (n8n 2.8.4 on Node 20) and `npm run test:e2e:next` (the newest n8n that installs from the
// registry, found at run time, on Node 24): builds and packs both packages, installs the n8n version(s) and
// Verdaccio into the cache once, installs what the machine lacks (provision.ts: chromium, Redis, PostgreSQL with
// apt-get), then runs the end-to-end jest suite (test/e2e/jest.config.js) and prints `e2e: PASSED|FAILED ...`.
//
// Flags: --next (the newer n8n instead), --oldest (n8n 1.121.3, the oldest the README claims), --all (the oldest,
// 2.8.4 and the newest, then the queue-mode suite), --versions=a,b, --no-browser, --no-build, --queue (only the
// queue-mode suite: n8n 2.8.4 main + 2 workers + Redis + PostgreSQL, test/e2e/queue.test.ts), --install-only
// (install all of the above for the chosen suites, run nothing).
import path from 'node:path';

import { log } from '../../../scripts/demo/commands';
import { ManagedProcess, type ExitInfo } from '../../../scripts/demo/managed-process';
import { buildAndPack, REPO_ROOT } from '../../../scripts/demo/pack';
import { N8N_NEXT, N8N_STABLE, ensureN8n } from '../../../scripts/demo/runtime';
import { newestInstallableN8n } from './newest-n8n';
import { ensureChromium, ensureQueueServices } from './provision';
import { ensureVerdaccio } from './registry/verdaccio';

/**
 * The oldest n8n the README claims: 1.121's newest patch that installs on Node 20 here (later 1.123 patches need
 * isolated-vm, which does not build on Node 20).
 */
const N8N_OLDEST = '1.121.3';
/** The queue-mode suite runs on the newest n8n for Node 20. */
const QUEUE_VERSION = N8N_STABLE;

interface Plan {
	/** n8n versions for the single-process suites (none with --queue). */
	versions: string[];
	queue: boolean;
	browser: boolean;
	build: boolean;
	installOnly: boolean;
}

/** The newest n8n that installs here, found in the registry now (verdicts cached), with why newer ones are skipped. */
async function newestN8n(): Promise<string> {
	const newest = await newestInstallableN8n();
	for (const skipped of newest.skipped) log(`n8n ${skipped.version} skipped: ${skipped.reason}`);
	log(`Newest installable n8n: ${newest.version}${newest.source === 'fallback' ? ` (the registry could not be read: the known-good ${N8N_NEXT})` : ''}`);
	return newest.version;
}

async function planFrom(argv: string[]): Promise<Plan> {
	const listed = argv.find((a) => a.startsWith('--versions='))?.slice('--versions='.length);
	const has = (flag: string) => argv.includes(`--${flag}`);
	const queueOnly = has('queue');
	const next = !queueOnly && !listed && (has('all') || has('next')) ? await newestN8n() : N8N_NEXT;
	const single = listed ? listed.split(',') : has('all') ? [N8N_OLDEST, N8N_STABLE, next] : has('next') ? [next] : has('oldest') ? [N8N_OLDEST] : [N8N_STABLE];
	return { versions: queueOnly ? [] : single, queue: queueOnly || has('all'), browser: !has('no-browser'), build: !has('no-build'), installOnly: has('install-only') };
}

/** Builds and packs, then installs whatever the planned suites need that is not there yet; returns the tarballs. */
async function prepare(plan: Plan): Promise<string[]> {
	const tarballs = await buildAndPack({ build: plan.build });
	const versions = [...plan.versions, ...(plan.queue && !plan.versions.includes(QUEUE_VERSION) ? [QUEUE_VERSION] : [])];
	for (const version of versions) {
		const started = Date.now();
		const runtime = await ensureN8n(version);
		log(`n8n ${version} on Node ${runtime.nodeVersion} ready (${Math.round((Date.now() - started) / 1000)} s)`);
	}
	await ensureVerdaccio();
	if (plan.browser && plan.versions.length > 0) await ensureChromium();
	if (plan.queue) await ensureQueueServices();
	return tarballs;
}

/** Runs jest with the end-to-end config and extra arguments, its output shown as it comes; resolves with its exit code. */
async function runJest(args: string[], env: Record<string, string>): Promise<number> {
	const jestBin = path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
	const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
	// A minute to stop: jest then stops the n8n processes, Redis and PostgreSQL it started.
	const jest = ManagedProcess.start('jest', process.execPath, [jestBin, '-c', 'test/e2e/jest.config.js', ...args], {
		cwd: REPO_ROOT,
		env: { ...process.env, ...color, ...env },
		echo: true,
		maxLogChars: 100_000,
		graceMs: 60_000,
	});
	const exit = await new Promise<ExitInfo>((resolve) => jest.onExit(resolve));
	// Whatever the suite left in jest's process group goes too.
	await jest.stop();
	return exit.code ?? 1;
}

async function runSuites(plan: Plan, tarballs: string[]): Promise<Array<{ label: string; code: number }>> {
	const parts: Array<{ label: string; code: number }> = [];
	const { versions, browser } = plan;
	if (versions.length > 0) {
		// The queue-mode suite runs on its own below (it needs Redis and PostgreSQL).
		const ignore = ['/node_modules/', 'queue\\.test\\.ts', ...(browser ? [] : ['editor\\.test\\.ts'])];
		log(`Running the end-to-end suite on n8n ${versions.join(' and ')}${browser ? ' (headless runs and the editor in chromium)' : ' (headless runs)'} ...`);
		const env = { E2E_N8N_VERSIONS: versions.join(','), E2E_BROWSER_VERSIONS: versions.join(','), E2E_TARBALLS: tarballs.join(',') };
		parts.push({ label: `on n8n ${versions.join(', ')}`, code: await runJest(['--testPathIgnorePatterns', ...ignore], env) });
	}
	if (plan.queue) {
		log(`Running the queue-mode suite on n8n ${QUEUE_VERSION}: main + 2 workers + Redis + PostgreSQL ...`);
		const code = await runJest(['test/e2e/queue\\.test\\.ts'], { E2E_QUEUE_N8N_VERSION: QUEUE_VERSION, E2E_TARBALLS: tarballs.join(',') });
		parts.push({ label: `in queue mode on n8n ${QUEUE_VERSION}`, code });
	}
	return parts;
}

async function main(): Promise<number> {
	const started = Date.now();
	const plan = await planFrom(process.argv.slice(2));
	const tarballs = await prepare(plan);
	const seconds = () => Math.round((Date.now() - started) / 1000);
	if (plan.installOnly) {
		process.stdout.write(`\ne2e: installed what the suites need in ${seconds()} s (--install-only: nothing run)\n`);
		return 0;
	}
	const parts = await runSuites(plan, tarballs);
	const code = parts.find((p) => p.code !== 0)?.code ?? 0;
	const status = (c: number) => (c === 0 ? 'PASSED' : 'FAILED');
	const what = parts.length === 1 ? parts[0].label : parts.map((p) => `${p.label} (${status(p.code)})`).join(' and ');
	process.stdout.write(`\ne2e: ${status(code)} ${what} in ${seconds()} s\n`);
	return code;
}

main().then(
	(code) => process.exit(code),
	(error: unknown) => {
		process.stderr.write(`e2e: FAILED before the tests ran: ${(error as Error).stack ?? String(error)}\n`);
		process.exit(1);
	},
);
