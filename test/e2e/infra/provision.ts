/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- e2e tooling in plain Node: it installs Debian packages with apt-get (fixed commands) when they are missing */
// The machine-level programs the end-to-end suites need, and the one place the e2e installs system packages:
// Debian's chromium (the editor test) and redis-server + postgresql (the queue-mode suite), each with apt-get only
// when it is missing (sudo when not root), so a fresh Debian machine with Node 20 and npm runs the whole suite.
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { cleanEnv, log, run, runCommand } from '../../../scripts/demo/commands';

export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const QUEUE_APT_PACKAGES = ['redis-server', 'postgresql'];
const POLICY_RC_D = '/usr/sbin/policy-rc.d';

/** redis-server's path, or undefined when it is not installed. */
export function redisServerBin(): string | undefined {
	for (const dir of ['/usr/bin', '/usr/local/bin', '/usr/sbin']) {
		if (existsSync(path.join(dir, 'redis-server'))) return path.join(dir, 'redis-server');
	}
	return undefined;
}

/** The newest PostgreSQL server's bin folder (Debian: /usr/lib/postgresql/<major>/bin), or undefined. */
export function postgresBinDir(): string | undefined {
	const base = '/usr/lib/postgresql';
	if (!existsSync(base)) return undefined;
	const majors = readdirSync(base)
		.filter((v) => /^\d+$/.test(v) && existsSync(path.join(base, v, 'bin', 'initdb')) && existsSync(path.join(base, v, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(base, majors[0], 'bin') : undefined;
}

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

/** Debian's chromium, installed with apt-get when missing (CI machines start fresh). */
export async function ensureChromium(): Promise<void> {
	if (existsSync(CHROMIUM)) return;
	log('Installing chromium (apt-get install chromium) ...');
	await aptInstall(['chromium']);
	if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
}

/** The apt packages among QUEUE_APT_PACKAGES whose programs are missing. */
function missingQueuePackages(): string[] {
	return [...(redisServerBin() ? [] : ['redis-server']), ...(postgresBinDir() ? [] : ['postgresql'])];
}

/** Debian's redis-server and postgresql for the queue-mode suite, installed with apt-get when missing, no daemon left started. */
export async function ensureQueueServices(): Promise<void> {
	const missing = missingQueuePackages();
	if (missing.length > 0) {
		log(`Installing ${missing.join(' and ')} (apt-get install ${missing.join(' ')}) ...`);
		await aptInstall(missing, { noServices: true });
		const still = missingQueuePackages();
		if (still.length > 0) throw new Error(`apt-get installed ${missing.join(', ')}, but ${still.join(', ')} is still missing (${QUEUE_APT_PACKAGES.join(', ')} expected)`);
	}
	log(`Queue-mode services: ${await queueServicesVersions()}`);
}

/** What the runner prints: both programs' `--version`. */
async function queueServicesVersions(): Promise<string> {
	const redis = redisServerBin();
	const pg = postgresBinDir();
	const parts: string[] = [];
	if (redis) parts.push((await runCommand(redis, ['--version'], { quiet: true })).stdout.trim().split(' ').slice(0, 3).join(' '));
	if (pg) parts.push((await runCommand(path.join(pg, 'postgres'), ['--version'], { quiet: true })).stdout.trim());
	return parts.join('; ');
}
