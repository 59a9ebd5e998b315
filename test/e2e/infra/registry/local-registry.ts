/* eslint-disable @n8n/community-nodes/no-restricted-imports -- e2e tooling in plain Node: it runs Verdaccio (a local npm registry) as a child process and publishes to it with npm */
// A local npm registry (Verdaccio) for "install by name": our two packages are published to it from their packed
// tarballs, everything else is proxied to the public registry, so `npm install n8n-nodes-scraper-service` against
// it installs exactly what a user would get from npm once the packages are published. Each LocalRegistry has its
// own temp folder (config, storage, users) and its own loopback port; stop() ends it and removes the folder.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cleanEnv, run } from '../../../../scripts/demo/commands';
import { ManagedProcess } from '../../../../scripts/demo/managed-process';
import { freePort } from '../../../../scripts/demo/ports';
import { ensureVerdaccio, verdaccioConfig } from './verdaccio';

/** One HTTP request the registry served, from its log. */
interface RegistryRequest {
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

const PUBLIC_REGISTRY = 'https://registry.npmjs.org/';
/** The user start() creates; its token publishes. */
const PUBLISHER = { name: 'e2e-publisher', password: 'LocalRegistry1', email: 'e2e-publisher@example.com' };

export class LocalRegistry {
	private verdaccio?: ManagedProcess;
	private dir?: string;
	private portNumber = 0;
	private token?: string;

	/** `uplink`: where everything that is not ours comes from. */
	constructor(private readonly uplink = PUBLIC_REGISTRY) {}

	/** `http://127.0.0.1:<port>/` (with the trailing slash npm prints). */
	get url(): string {
		if (!this.portNumber) throw new Error('The local registry is not running');
		return `http://127.0.0.1:${this.portNumber}/`;
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

	/** The requests the registry answered so far, oldest first (Verdaccio may log one twice: finish, close). */
	private answered(): RegistryRequest[] {
		return this.logEntries().flatMap((entry) =>
			// An answered incoming request ("200, user: ..., req: 'GET /...'"; "out" = to the uplink).
			entry.sub === 'in' && entry.request?.method && entry.request.url && typeof entry.status === 'number'
				? [{ method: entry.request.method, url: entry.request.url, status: entry.status }]
				: [],
		);
	}

	private logEntries(): VerdaccioLogEntry[] {
		const entries: VerdaccioLogEntry[] = [];
		for (const line of (this.verdaccio?.log ?? '').split('\n')) {
			if (!line.startsWith('{')) continue;
			try {
				entries.push(JSON.parse(line) as VerdaccioLogEntry);
			} catch {
				// A line cut by the log window.
			}
		}
		return entries;
	}

	/**
	 * Starts Verdaccio on a free loopback port with a fresh temp folder, waits until it answers, and creates the
	 * publishing user (its token through the registry API, as `npm adduser` gets one).
	 */
	async start(timeoutMs = 120_000): Promise<void> {
		if (this.verdaccio) throw new Error('The local registry is already running');
		const verdaccio = await ensureVerdaccio();
		const dir = mkdtempSync(path.join(os.tmpdir(), 'local-registry-'));
		this.dir = dir;
		this.portNumber = await freePort();
		const configPath = path.join(dir, 'config.yaml');
		writeFileSync(configPath, verdaccioConfig(dir, this.uplink));
		const args = [verdaccio.bin, '--config', configPath, '--listen', `127.0.0.1:${this.portNumber}`];
		this.verdaccio = ManagedProcess.start('Verdaccio', verdaccio.nodeBin, args, { cwd: dir, env: { ...verdaccio.env, NODE_ENV: 'production' }, maxLogChars: 200_000, graceMs: 5_000 });
		let started = false;
		try {
			await this.verdaccio.waitUntil(`answer on ${this.url}`, async () => (await fetch(`${this.url}-/ping`)).ok, timeoutMs);
			this.token = await this.createUser();
			started = true;
		} finally {
			// A registry that did not come up is stopped and its folder removed.
			if (!started) await this.stop();
		}
	}

	/** PUT /-/user/org.couchdb.user:<name>: what `npm adduser` sends; the answer carries the user's token. */
	private async createUser(): Promise<string> {
		const { name, password, email } = PUBLISHER;
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
		if (!dir || !this.token) throw new Error('The local registry is not running');
		const listing = await run('tar', ['-xzOf', tarball, 'package/package.json'], { quiet: true });
		const { name, version } = JSON.parse(listing.stdout) as { name: string; version: string };
		const npmrc = path.join(dir, 'publish.npmrc');
		writeFileSync(npmrc, `registry=${this.url}\n//127.0.0.1:${this.portNumber}/:_authToken=${this.token}\n`, { mode: 0o600 });
		try {
			// cwd: the registry's folder, so no project .npmrc applies.
			const args = ['publish', path.resolve(tarball), `--registry=${this.url}`, `--userconfig=${npmrc}`, '--access=public', '--loglevel=error'];
			await run('npm', args, { cwd: dir, env: cleanEnv(), quiet: true, timeoutMs: 120_000 });
		} finally {
			rmSync(npmrc, { force: true });
		}
		const { status, body } = await this.packument(name);
		const published = (body as { versions?: Record<string, { dist?: { tarball?: string } }> }).versions?.[version]?.dist?.tarball;
		if (status !== 200 || !published) throw new Error(`${name}@${version} is not in the local registry after npm publish (${status})`);
		return { name, version, tarball: published };
	}

	/** The package's document as this registry serves it (what `npm view` reads). */
	async packument(name: string): Promise<{ status: number; body: Record<string, unknown> }> {
		const res = await fetch(`${this.url}${encodeURIComponent(name)}`, { headers: { accept: 'application/json' } });
		return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
	}

	/** Stops Verdaccio (SIGTERM to its group, SIGKILL after 5 s) and removes its temp folder. */
	async stop(): Promise<void> {
		const verdaccio = this.verdaccio;
		this.verdaccio = undefined;
		this.token = undefined;
		await verdaccio?.stop();
		if (this.dir) rmSync(this.dir, { recursive: true, force: true });
		this.dir = undefined;
		this.portNumber = 0;
	}
}
