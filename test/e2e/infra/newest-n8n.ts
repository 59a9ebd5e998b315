/* eslint-disable @n8n/community-nodes/no-restricted-imports -- e2e tooling in plain Node: it asks npm which n8n releases resolve from the registry and caches the verdicts */
// The newest n8n that installs here, found at run time for `npm run test:e2e:next` and `--all`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cleanEnv, log, runCommand } from '../../../scripts/demo/commands';
import { CACHE_DIR, N8N_NEXT, OVERRIDES, isInstalled, runtimeFor } from '../../../scripts/demo/runtime';

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
