/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- demo/e2e tooling in plain Node: it runs a real n8n (its CLI and its server) and writes into its user folder, never inside n8n */
// One n8n "instance" = one installed n8n version + one user folder (its database, settings, community nodes).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { run, runCommand, type Env, type RunResult } from './commands';
import { ManagedProcess } from './managed-process';
import { parseRawOutput, type ExecuteResult } from './n8n-run';
import { freePort, portInUse } from './ports';
import type { N8nRuntime } from './runtime';

export type { N8nRun } from './n8n-run';

interface N8nInstanceOptions {
	runtime: N8nRuntime;
	/** N8N_USER_FOLDER: n8n keeps everything under <userFolder>/.n8n. */
	userFolder: string;
	/** Editor/REST port for `start`. Default 5678. */
	port?: number;
	env?: Env;
}

export class N8nInstance {
	readonly runtime: N8nRuntime;
	readonly userFolder: string;
	readonly port: number;
	private readonly extraEnv: Env;
	private server?: ManagedProcess;

	constructor(options: N8nInstanceOptions) {
		this.runtime = options.runtime;
		this.userFolder = path.resolve(options.userFolder);
		this.port = options.port ?? 5678;
		this.extraEnv = options.env ?? {};
		mkdirSync(this.filesFolder, { recursive: true });
	}

	/**
	 * The one folder n8n's file nodes may read and write: n8n 2.x allows only `~/.n8n-files` by default, and n8n runs
	 * in the user folder, so example 11's relative `.n8n-files/…` lands here on every n8n, as it does in n8n's Docker image.
	 */
	get filesFolder(): string {
		return path.join(this.userFolder, '.n8n-files');
	}

	get n8nFolder(): string {
		return path.join(this.userFolder, '.n8n');
	}

	get baseUrl(): string {
		return `http://localhost:${this.port}`;
	}

	/** Environment of every n8n command: this user folder, nothing phoned home, editor on loopback. */
	env(extra: Env = {}): Env {
		return this.runtime.env({
			N8N_USER_FOLDER: this.userFolder,
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_HIRING_BANNER_ENABLED: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
			// The vetted-package list comes from n8n's servers, unreachable here; our package is installed locally.
			N8N_VERIFIED_PACKAGES_ENABLED: 'false',
			N8N_PORT: String(this.port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: 'localhost',
			N8N_PROTOCOL: 'http',
			// Plain http on localhost: a Secure cookie would not be stored by every browser.
			N8N_SECURE_COOKIE: 'false',
			GENERIC_TIMEZONE: 'UTC',
			NODE_ENV: 'production',
			N8N_LOG_LEVEL: 'info',
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesFolder,
			...this.extraEnv,
			...extra,
		});
	}

	/** Runs one n8n CLI command with this instance's folder; resolves with its output whatever the exit code. */
	async cli(args: string[], options: { timeoutMs?: number; env?: Env } = {}): Promise<RunResult> {
		// Each n8n process starts a task broker; a port of its own lets several instances run side by side.
		const brokerPort = await freePort();
		return await runCommand(this.runtime.nodeBin, [this.runtime.n8nBin, ...args], {
			cwd: this.userFolder,
			env: this.env({ N8N_RUNNERS_BROKER_PORT: String(brokerPort), ...options.env }),
			quiet: true,
			timeoutMs: options.timeoutMs ?? 180_000,
		});
	}

	private async cliOk(args: string[]): Promise<RunResult> {
		const result = await this.cli(args);
		if (result.code !== 0) {
			throw new Error(`n8n ${args.join(' ')} exited with ${result.code}\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`);
		}
		return result;
	}

	/** <n8n folder>/nodes, where n8n loads community packages from, with the package.json n8n's installer creates. */
	nodesFolder(): string {
		const nodesDir = path.join(this.n8nFolder, 'nodes');
		mkdirSync(nodesDir, { recursive: true });
		const manifestPath = path.join(nodesDir, 'package.json');
		if (!existsSync(manifestPath)) {
			writeFileSync(manifestPath, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
		}
		return nodesDir;
	}

	/**
	 * Installs a packed community package exactly as n8n's own installer does (CommunityPackagesService
	 * .downloadPackage in n8n 2.x): a package.json in <n8n folder>/nodes, the tarball unpacked into
	 * nodes/node_modules/<name>, its dev/peer/optional dependencies stripped, `npm install` with n8n's flags in
	 * that folder, and the package recorded in nodes/package.json. The only difference: the tarball comes from
	 * `npm pack` of this repo instead of from the registry. n8n loads every package in nodes/node_modules at
	 * startup, naming its node types `<package name>.<node name>`.
	 */
	async installCommunityPackage(tarball: string): Promise<{ name: string; version: string; dir: string }> {
		const nodesDir = this.nodesFolder();
		const listing = await run('tar', ['-xzOf', tarball, 'package/package.json'], { quiet: true });
		const { name, version } = JSON.parse(listing.stdout) as { name: string; version: string };
		const dir = path.join(nodesDir, 'node_modules', name);
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		await run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], { quiet: true });
		const pkgPath = path.join(dir, 'package.json');
		const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, unknown>;
		delete pkg.devDependencies;
		delete pkg.peerDependencies;
		delete pkg.optionalDependencies;
		writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
		await run(
			'npm',
			['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'],
			{ cwd: dir, env: this.runtime.env({ NODE_ENV: 'production' }), quiet: true },
		);
		const manifestPath = path.join(nodesDir, 'package.json');
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
		manifest.dependencies = { ...manifest.dependencies, [name]: version };
		writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
		return { name, version, dir };
	}

	/** `n8n import:credentials` of plain (unencrypted) credential objects {id, name, type, data}. */
	async importCredentials(credentials: unknown[]): Promise<void> {
		const file = path.join(this.userFolder, 'import-credentials.json');
		writeFileSync(file, JSON.stringify(credentials, null, 2));
		try {
			await this.cliOk(['import:credentials', `--input=${file}`]);
		} finally {
			// The file holds secrets in plain text: n8n keeps its own encrypted copy.
			rmSync(file, { force: true });
		}
	}

	/** `n8n import:workflow` of one workflow file or of every workflow in a folder (`--separate`). */
	async importWorkflows(fileOrFolder: string): Promise<void> {
		const isFolder = !fileOrFolder.endsWith('.json');
		await this.cliOk(['import:workflow', `--input=${fileOrFolder}`, ...(isFolder ? ['--separate'] : [])]);
	}

	/** `n8n execute --id <id> --rawOutput`: runs a workflow that starts at a Manual Trigger. */
	async execute(workflowId: string, timeoutMs = 240_000): Promise<ExecuteResult> {
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], { timeoutMs });
		return { ...result, run: parseRawOutput(result.stdout) };
	}

	/** A long-running n8n command (`start`, `worker`) with this instance's folder and environment. */
	spawn(name: string, args: string[], env: Env, graceMs = 15_000): ManagedProcess {
		return ManagedProcess.start(name, this.runtime.nodeBin, [this.runtime.n8nBin, ...args], { cwd: this.userFolder, env: this.env(env), graceMs });
	}

	/** Starts `n8n start` (the editor and REST API) and waits until it answers. */
	async start(options: { timeoutMs?: number } = {}): Promise<void> {
		if (await portInUse(this.port)) {
			throw new Error(`Port ${this.port} is already in use: stop whatever listens there (another n8n?) and try again.`);
		}
		this.server = this.spawn('n8n start', ['start'], { N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_LOG_LEVEL: 'info' });
		await this.server.waitUntil(`answer on ${this.baseUrl}`, async () => await answersJson(`${this.baseUrl}/rest/settings`), options.timeoutMs ?? 180_000, 500);
	}

	/** The running `n8n start`, if any. */
	get process(): ManagedProcess | undefined {
		return this.server;
	}

	/** Stops the server and everything it started (its process group: the task runners too). */
	async stop(): Promise<void> {
		const server = this.server;
		this.server = undefined;
		await server?.stop();
	}

	/**
	 * Creates the instance owner through the REST call the setup screen makes. Returns false when the instance
	 * already has an owner (a second demo run): the login from the first run still holds.
	 */
	async setupOwner(owner: { email: string; password: string; firstName: string; lastName: string }): Promise<boolean> {
		const res = await postWhenMounted(`${this.baseUrl}/rest/owner/setup`, owner);
		if (res.ok) return true;
		const text = await res.text();
		if (res.status === 400 && /already/i.test(text)) return false;
		throw new Error(`Owner setup failed: ${res.status} ${text}`);
	}

	/** Logs in over REST; returns the session cookie (proves the printed login works). */
	async login(email: string, password: string): Promise<string> {
		const res = await postWhenMounted(`${this.baseUrl}/rest/login`, { emailOrLdapLoginId: email, password });
		if (!res.ok) throw new Error(`Login as ${email} failed: ${res.status} ${await res.text()}`);
		const cookie = res.headers.get('set-cookie');
		if (!cookie) throw new Error('Login answered without a session cookie');
		return cookie.split(';')[0];
	}
}

/** While it migrates a fresh database n8n answers every route 200 "n8n is starting up": ready means JSON. */
async function answersJson(url: string): Promise<boolean> {
	const res = await fetch(url);
	return res.ok && (res.headers.get('content-type') ?? '').includes('application/json');
}

/**
 * POSTs JSON to a REST route. n8n 2.40 answers /rest/settings before every controller is mounted: on a busy
 * machine a route can answer Express's "Cannot POST" 404 for a few seconds after start(). Waits that out.
 */
async function postWhenMounted(url: string, body: unknown, timeoutMs = 90_000): Promise<Response> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		if (res.status !== 404 || Date.now() > deadline) return res;
		const text = await res.clone().text();
		if (!text.includes(`Cannot POST ${new URL(url).pathname}`)) return res;
		await new Promise((r) => setTimeout(r, 500));
	}
}
