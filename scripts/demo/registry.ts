/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- demo/e2e tooling: it installs and runs Verdaccio (a local npm registry) as a child process (fixed program, fixed arguments) in plain Node, never inside n8n */
// A local npm registry (Verdaccio) for "install by name": our two packages are published to it from their packed
// tarballs, everything else is proxied to the public registry, so `npm install n8n-nodes-scraper-service` against
// it installs exactly what a user would get from npm once the packages are published.
//
// Verdaccio is installed once into the cache (Verdaccio 6 needs Node >= 22: it runs on the cached Node 24); each
// LocalRegistry has its own temp folder (config, storage, users), its own loopback port, and stop() removes both.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { freePort } from './n8n';
import { CACHE_DIR, cleanEnv, ensureNode24, log, run, stopGroup, type Env } from './runtime';

/** Exact Verdaccio version (latest 6.x when this was written: `npm view verdaccio version`). */
export const VERDACCIO_VERSION = '6.10.4';
/** Our two packages: served and published locally only, never looked up upstream. */
export const LOCAL_PACKAGES = ['n8n-nodes-scraper-service', 'n8n-nodes-scraper-service-x402'];
export const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';
/**
 * verdaccio-audit asks for `node-fetch@cjs`, a dist-tag for node-fetch's CommonJS 2.x line; a registry mirror that
 * serves only the `latest` tag (as the one here does) cannot resolve it, so the install pins 2.7.0, the newest 2.x.
 */
const VERDACCIO_OVERRIDES = { 'verdaccio-audit': { 'node-fetch': '2.7.0' } };

/** Verdaccio installed into the cache once; returns what runs it. */
export async function ensureVerdaccio(): Promise<{ nodeBin: string; bin: string; env: Env }> {
	const node24 = await ensureNode24();
	const nodeBin = path.join(node24, 'bin', 'node');
	// The system npm runs on whichever `node` comes first on PATH: Node 24 here.
	const env = cleanEnv({ PATH: `${path.join(node24, 'bin')}${path.delimiter}${process.env.PATH ?? ''}` });
	const dir = path.join(CACHE_DIR, `verdaccio-${VERDACCIO_VERSION}`);
	const bin = path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	if (existsSync(path.join(dir, '.complete')) && existsSync(bin)) return { nodeBin, bin, env };
	const started = Date.now();
	log(`Installing Verdaccio ${VERDACCIO_VERSION} (a local npm registry) into ${dir} (first run only) ...`);
	const tmp = `${dir}.tmp`;
	rmSync(tmp, { recursive: true, force: true });
	mkdirSync(tmp, { recursive: true });
	const manifest = { name: 'local-registry', private: true, dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: VERDACCIO_OVERRIDES };
	writeFileSync(path.join(tmp, 'package.json'), `${JSON.stringify(manifest, null, '\t')}\n`);
	// No install scripts: Verdaccio is plain JavaScript.
	await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts=true', '--loglevel=error'], { cwd: tmp, env, quiet: true, timeoutMs: 600_000 });
	const probe = await run(nodeBin, [path.join(tmp, 'node_modules', 'verdaccio', 'bin', 'verdaccio'), '--version'], { cwd: tmp, env, quiet: true });
	if (!probe.stdout.includes(VERDACCIO_VERSION)) throw new Error(`verdaccio --version printed "${probe.stdout.trim()}", expected ${VERDACCIO_VERSION}`);
	const seconds = Math.round((Date.now() - started) / 1000);
	writeFileSync(path.join(tmp, '.complete'), `installed ${new Date().toISOString()} in ${seconds} s\n`);
	rmSync(dir, { recursive: true, force: true });
	renameSync(tmp, dir);
	log(`Verdaccio ${VERDACCIO_VERSION} installed in ${seconds} s`);
	return { nodeBin, bin: path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio'), env };
}

/** One HTTP request the registry served, from its log. */
export interface RegistryRequest {
	method: string;
	url: string;
	status: number;
}

/** What Verdaccio's JSON log says about an incoming request: `req` when received, `request` + `status` when answered. */
interface VerdaccioLogEntry {
	sub?: string;
	req?: { method?: string; url?: string; headers?: Record<string, string> };
	request?: { method?: string; url?: string };
	status?: number;
}

/** A package published to the registry. */
export interface PublishedPackage {
	name: string;
	version: string;
	/** The tarball's URL in this registry. */
	tarball: string;
}

export interface LocalRegistryOptions {
	/** Where everything that is not ours comes from. Default the public npm registry. */
	uplink?: string;
	/** The user `start()` creates (its token publishes). */
	user?: { name: string; password: string; email: string };
}

export class LocalRegistry {
	private readonly uplink: string;
	private readonly user: { name: string; password: string; email: string };
	private child?: ChildProcess;
	private dir?: string;
	private portNumber = 0;
	private logText = '';
	private tokenValue?: string;

	constructor(options: LocalRegistryOptions = {}) {
		this.uplink = options.uplink ?? PUBLIC_REGISTRY;
		this.user = options.user ?? { name: 'e2e-publisher', password: 'LocalRegistry1', email: 'e2e-publisher@example.com' };
	}

	/** `http://127.0.0.1:<port>/` (with the trailing slash npm prints). */
	get url(): string {
		if (!this.portNumber) throw new Error('The local registry is not running');
		return `http://127.0.0.1:${this.portNumber}/`;
	}

	get port(): number {
		return this.portNumber;
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The temp folder holding its config, storage and users (removed by stop()). */
	get folder(): string | undefined {
		return this.dir;
	}

	/** What Verdaccio logged (last 200 kB). */
	get log(): string {
		return this.logText;
	}

	/** The auth token of the user start() created. */
	get token(): string {
		if (!this.tokenValue) throw new Error('The local registry is not running');
		return this.tokenValue;
	}

	/** The requests the registry answered so far, from its log, oldest first (a request may appear twice). */
	answered(): RegistryRequest[] {
		const requests: RegistryRequest[] = [];
		for (const entry of this.logEntries()) {
			// An answered incoming request ("200, user: ..., req: 'GET /...'"; "out" = to the uplink). Verdaccio
			// may log one twice (finish, close).
			if (entry.sub === 'in' && entry.request?.method && entry.request.url && typeof entry.status === 'number') {
				requests.push({ method: entry.request.method, url: entry.request.url, status: entry.status });
			}
		}
		return requests;
	}

	/** The requests the registry received, with the npm command that sent each (npm's `npm-command` header). */
	received(): Array<{ method: string; url: string; npmCommand?: string }> {
		const requests: Array<{ method: string; url: string; npmCommand?: string }> = [];
		for (const entry of this.logEntries()) {
			if (entry.sub === 'in' && entry.req?.method && entry.req.url) {
				const npmCommand = entry.req.headers?.['npm-command'];
				requests.push({ method: entry.req.method, url: entry.req.url, ...(npmCommand ? { npmCommand } : {}) });
			}
		}
		return requests;
	}

	/** Tarball downloads (GET /<name>/-/<file>.tgz answered 200) of one package. */
	downloads(name: string): RegistryRequest[] {
		return this.answered().filter((r) => r.method === 'GET' && r.status === 200 && r.url.startsWith(`/${name}/-/`) && r.url.endsWith('.tgz'));
	}

	private logEntries(): VerdaccioLogEntry[] {
		const entries: VerdaccioLogEntry[] = [];
		for (const line of this.logText.split('\n')) {
			if (!line.startsWith('{')) continue;
			try {
				entries.push(JSON.parse(line) as VerdaccioLogEntry);
			} catch {
				// A line cut by the 200 kB window.
			}
		}
		return entries;
	}

	/**
	 * Starts Verdaccio on a free loopback port with a fresh temp folder, waits until it answers, and creates the
	 * publishing user (its token through the registry API, as `npm adduser` gets one).
	 */
	async start(timeoutMs = 120_000): Promise<void> {
		if (this.child) throw new Error('The local registry is already running');
		const verdaccio = await ensureVerdaccio();
		const dir = mkdtempSync(path.join(os.tmpdir(), 'local-registry-'));
		this.dir = dir;
		this.portNumber = await freePort();
		const configPath = path.join(dir, 'config.yaml');
		writeFileSync(configPath, this.config(dir));
		const child = spawn(verdaccio.nodeBin, [verdaccio.bin, '--config', configPath, '--listen', `127.0.0.1:${this.portNumber}`], {
			cwd: dir,
			env: { ...verdaccio.env, NODE_ENV: 'production' },
			stdio: ['ignore', 'pipe', 'pipe'],
			// Its own process group: stop() ends it and anything it started.
			detached: true,
		});
		this.child = child;
		const onData = (d: Buffer) => {
			this.logText = (this.logText + d.toString()).slice(-200_000);
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		let started = false;
		try {
			await this.waitUntilAnswering(timeoutMs);
			this.tokenValue = await this.createUser();
			started = true;
		} finally {
			// A registry that did not come up is stopped and its folder removed.
			if (!started) await this.stop();
		}
	}

	private config(dir: string): string {
		const local = LOCAL_PACKAGES.map((name) =>
			[`  '${name}':`, '    access: $all', '    publish: $authenticated', '    unpublish: $authenticated'].join('\n'),
		).join('\n');
		return [
			'# Generated by scripts/demo/registry.ts: a throwaway local registry.',
			`storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
			'auth:',
			'  htpasswd:',
			`    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
			'    max_users: 10',
			'uplinks:',
			'  npmjs:',
			`    url: ${JSON.stringify(this.uplink)}`,
			'    timeout: 60s',
			'packages:',
			'  # Ours: only here (no proxy), publishable by the user start() creates.',
			local,
			'  # Everything else: read through from the uplink, publishable by nobody.',
			"  '**':",
			'    access: $all',
			'    publish: no-such-user',
			'    proxy: npmjs',
			'web:',
			'  enable: false',
			'max_body_size: 100mb',
			'log:',
			'  type: stdout',
			'  format: json',
			'  level: http',
			'',
		].join('\n');
	}

	private async waitUntilAnswering(timeoutMs: number): Promise<void> {
		const child = this.child;
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (!child || child.exitCode !== null) throw new Error(`Verdaccio exited with ${child?.exitCode}\n${this.logText.slice(-4000)}`);
			try {
				const res = await fetch(`${this.url}-/ping`);
				if (res.ok) return;
			} catch {
				// Not listening yet.
			}
			await new Promise((r) => setTimeout(r, 250));
		}
		throw new Error(`Verdaccio did not answer on ${this.url} in ${timeoutMs} ms\n${this.logText.slice(-4000)}`);
	}

	/** PUT /-/user/org.couchdb.user:<name>: what `npm adduser` sends; the answer carries the user's token. */
	private async createUser(): Promise<string> {
		const { name, password, email } = this.user;
		const res = await fetch(`${this.url}-/user/org.couchdb.user:${encodeURIComponent(name)}`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, email, type: 'user', roles: [], date: new Date().toISOString() }),
		});
		const body = (await res.json().catch(() => ({}))) as { token?: string; error?: string };
		if (res.status !== 201 || !body.token) throw new Error(`Creating the registry user failed: ${res.status} ${JSON.stringify(body)}`);
		return body.token;
	}

	/**
	 * `npm publish <tarball>` to this registry. The token goes into a temp npmrc in the registry's own folder
	 * (`--userconfig`), never into the repo or the user's ~/.npmrc.
	 */
	async publish(tarball: string): Promise<PublishedPackage> {
		const dir = this.dir;
		if (!dir || !this.child) throw new Error('The local registry is not running');
		const listing = await run('tar', ['-xzOf', tarball, 'package/package.json'], { quiet: true });
		const { name, version } = JSON.parse(listing.stdout) as { name: string; version: string };
		const npmrc = path.join(dir, 'publish.npmrc');
		writeFileSync(npmrc, `registry=${this.url}\n//127.0.0.1:${this.portNumber}/:_authToken=${this.token}\n`, { mode: 0o600 });
		try {
			// cwd: the registry's folder, so no project .npmrc applies.
			await run('npm', ['publish', path.resolve(tarball), `--registry=${this.url}`, `--userconfig=${npmrc}`, '--access=public', '--loglevel=error'], {
				cwd: dir,
				env: cleanEnv(),
				quiet: true,
				timeoutMs: 120_000,
			});
		} finally {
			rmSync(npmrc, { force: true });
		}
		const res = await fetch(`${this.url}${encodeURIComponent(name)}`, { headers: { accept: 'application/json' } });
		const packument = (await res.json()) as { versions?: Record<string, { dist?: { tarball?: string } }> };
		const published = packument.versions?.[version]?.dist?.tarball;
		if (!res.ok || !published) throw new Error(`${name}@${version} is not in the local registry after npm publish (${res.status})`);
		return { name, version, tarball: published };
	}

	/** The package's document as this registry serves it (what `npm view` reads). */
	async packument(name: string): Promise<{ status: number; body: Record<string, unknown> }> {
		const res = await fetch(`${this.url}${encodeURIComponent(name)}`, { headers: { accept: 'application/json' } });
		return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
	}

	/** Stops Verdaccio (SIGTERM to its group, SIGKILL after a grace period) and removes its temp folder. */
	async stop(graceMs = 5_000): Promise<void> {
		const child = this.child;
		this.child = undefined;
		this.tokenValue = undefined;
		if (child) await stopGroup(child, graceMs);
		if (this.dir) rmSync(this.dir, { recursive: true, force: true });
		this.dir = undefined;
		this.portNumber = 0;
	}
}

