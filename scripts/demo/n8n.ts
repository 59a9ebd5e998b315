/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- demo/e2e tooling: it installs and runs a real n8n and the simulator as child processes (fixed programs, fixed arguments) in plain Node, never inside n8n */
// One n8n "instance" = one installed n8n version + one user folder (its database, settings, community nodes).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { run, runCommand, stopGroup, type Env, type N8nRuntime, type RunResult } from './runtime';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
	return await new Promise<number>((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** True when something accepts connections on 127.0.0.1:port. */
export async function portInUse(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

export interface N8nInstanceOptions {
	runtime: N8nRuntime;
	/** N8N_USER_FOLDER: n8n keeps everything under <userFolder>/.n8n. */
	userFolder: string;
	/** Editor/REST port for `start`. Default 5678. */
	port?: number;
	env?: Env;
}

/** What `n8n execute --rawOutput` printed, parsed. */
export interface ExecuteResult {
	code: number;
	stdout: string;
	stderr: string;
	/** The run data (IRun) n8n printed; undefined when it printed none. */
	run?: N8nRun;
}

export interface N8nItem {
	json: Record<string, unknown>;
	binary?: Record<string, { data?: string; id?: string; mimeType: string; fileName?: string; fileExtension?: string; fileSize?: string }>;
	pairedItem?: unknown;
}

export interface N8nTaskData {
	executionStatus?: string;
	error?: { message?: string; description?: string };
	data?: { main?: Array<N8nItem[] | null> };
}

export interface N8nRun {
	status?: string;
	finished?: boolean;
	data: { resultData: { runData: Record<string, N8nTaskData[]>; lastNodeExecuted?: string; error?: { message?: string } } };
}

/**
 * Items a node output in a run (first run of that node, first output). Throws a readable error when the node did
 * not run or failed, so a test shows what went wrong inside n8n.
 */
export function nodeOutput(run: N8nRun, nodeName: string): N8nItem[] {
	const tasks = run.data.resultData.runData[nodeName];
	if (!tasks || tasks.length === 0) {
		throw new Error(`Node "${nodeName}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`);
	}
	const task = tasks[0];
	if (task.error) throw new Error(`Node "${nodeName}" failed: ${task.error.message} ${task.error.description ?? ''}`);
	return task.data?.main?.[0] ?? [];
}

/**
 * The JSON document n8n prints among its log lines: from a line that opens an object at column 0 to a line that
 * closes it at column 0 (the task runner may log after it).
 */
export function parseRawOutput(stdout: string): N8nRun | undefined {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j] !== '}') continue;
			try {
				return JSON.parse(lines.slice(i, j + 1).join('\n')) as N8nRun;
			} catch {
				// A closing brace inside a string value: keep looking.
			}
		}
	}
	return undefined;
}

export class N8nInstance {
	readonly runtime: N8nRuntime;
	readonly userFolder: string;
	readonly port: number;
	private readonly extraEnv: Env;
	private server?: ChildProcess;
	private serverLog = '';

	constructor(options: N8nInstanceOptions) {
		this.runtime = options.runtime;
		this.userFolder = path.resolve(options.userFolder);
		this.port = options.port ?? 5678;
		this.extraEnv = options.env ?? {};
		mkdirSync(this.userFolder, { recursive: true });
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

	/**
	 * Installs a packed community package exactly as n8n's own installer does (CommunityPackagesService
	 * .downloadPackage in n8n 2.x): a package.json in <n8n folder>/nodes, the tarball unpacked into
	 * nodes/node_modules/<name>, its dev/peer/optional dependencies stripped, `npm install` with n8n's flags in
	 * that folder, and the package recorded in nodes/package.json. The only difference: the tarball comes from
	 * `npm pack` of this repo instead of from the registry. n8n loads every package in nodes/node_modules at
	 * startup, naming its node types `<package name>.<node name>`.
	 */
	async installCommunityPackage(tarball: string): Promise<{ name: string; version: string; dir: string }> {
		const nodesDir = path.join(this.n8nFolder, 'nodes');
		mkdirSync(nodesDir, { recursive: true });
		const manifestPath = path.join(nodesDir, 'package.json');
		if (!existsSync(manifestPath)) {
			writeFileSync(manifestPath, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
		}
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
		const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { dependencies?: Record<string, string> };
		manifest.dependencies = { ...manifest.dependencies, [name]: version };
		writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
		return { name, version, dir };
	}

	/**
	 * Installs community packages BY NAME from an npm registry, the manual install n8n documents for self-hosted
	 * n8n ("npm install <package>" in ~/.n8n/nodes, then restart): `npm install <name>@<version>` in
	 * <n8n folder>/nodes (its package.json created as n8n creates it), with the flags n8n's own installer uses
	 * (CommunityPackagesService in n8n 2.x) plus `--legacy-peer-deps`: n8n's installer strips peerDependencies
	 * before it installs, so the `n8n-workflow` peer is never installed beside the package (n8n provides it);
	 * `--legacy-peer-deps` is npm's way to the same result. `--save-exact`: nodes/package.json records the exact
	 * version, as n8n records it. Specs are `name` (the registry's latest) or `name@version`. `npmCache`: an npm
	 * cache folder of its own (default npm's), so every tarball is downloaded from the registry, not reused.
	 */
	async installFromRegistry(
		specs: string[],
		registryUrl: string,
		options: { npmCache?: string } = {},
	): Promise<Array<{ name: string; version: string; dir: string }>> {
		const nodesDir = path.join(this.n8nFolder, 'nodes');
		mkdirSync(nodesDir, { recursive: true });
		const manifestPath = path.join(nodesDir, 'package.json');
		if (!existsSync(manifestPath)) {
			writeFileSync(manifestPath, JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
		}
		await run(
			'npm',
			[
				'install',
				...specs,
				`--registry=${registryUrl}`,
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
				'--legacy-peer-deps',
				'--save-exact',
				'--loglevel=error',
				...(options.npmCache ? [`--cache=${options.npmCache}`] : []),
			],
			{ cwd: nodesDir, env: this.runtime.env({ NODE_ENV: 'production' }), quiet: true, timeoutMs: 300_000 },
		);
		return specs.map((spec) => {
			const name = spec.replace(/(.)@.*$/, '$1');
			const dir = path.join(nodesDir, 'node_modules', name);
			const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
			return { name, version, dir };
		});
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

	/** Starts `n8n start` (the editor and REST API) and waits until it answers. */
	async start(options: { timeoutMs?: number; inheritOutput?: boolean } = {}): Promise<void> {
		if (await portInUse(this.port)) {
			throw new Error(`Port ${this.port} is already in use: stop whatever listens there (another n8n?) and try again.`);
		}
		const brokerPort = await freePort();
		const child = spawn(this.runtime.nodeBin, [this.runtime.n8nBin, 'start'], {
			cwd: this.userFolder,
			env: this.env({ N8N_RUNNERS_BROKER_PORT: String(brokerPort), N8N_LOG_LEVEL: 'info' }),
			stdio: ['ignore', 'pipe', 'pipe'],
			// Its own process group, so stop() also ends the task runners n8n starts.
			detached: true,
		});
		this.server = child;
		const onData = (d: Buffer) => {
			this.serverLog = (this.serverLog + d.toString()).slice(-20_000);
			if (options.inheritOutput) process.stdout.write(d);
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		const deadline = Date.now() + (options.timeoutMs ?? 180_000);
		while (Date.now() < deadline) {
			if (child.exitCode !== null) throw new Error(`n8n start exited with ${child.exitCode}\n${this.serverLog.slice(-4000)}`);
			try {
				// While it migrates a fresh database n8n answers every route 200 "n8n is starting up": ready means JSON.
				const res = await fetch(`${this.baseUrl}/rest/settings`);
				if (res.ok && (res.headers.get('content-type') ?? '').includes('application/json')) return;
			} catch {
				// Not listening yet.
			}
			await new Promise((r) => setTimeout(r, 500));
		}
		await this.stop();
		throw new Error(`n8n did not answer on ${this.baseUrl} in time\n${this.serverLog.slice(-4000)}`);
	}

	get log(): string {
		return this.serverLog;
	}

	get pid(): number | undefined {
		return this.server?.pid;
	}

	/** Stops the server and everything it started: SIGTERM to its group, SIGKILL after a grace period. */
	async stop(graceMs = 15_000): Promise<void> {
		const child = this.server;
		if (!child) return;
		this.server = undefined;
		await stopGroup(child, graceMs);
	}

	/**
	 * POSTs JSON to a REST route. n8n 2.40 answers /rest/settings before every controller is mounted: on a busy
	 * machine a route can answer Express's "Cannot POST" 404 for a few seconds after start(). Waits that out.
	 */
	private async postWhenMounted(route: string, body: unknown, timeoutMs = 90_000): Promise<Response> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await fetch(`${this.baseUrl}${route}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (res.status !== 404 || Date.now() > deadline) return res;
			const text = await res.clone().text();
			if (!text.includes(`Cannot POST ${route}`)) return res;
			await new Promise((r) => setTimeout(r, 500));
		}
	}

	/**
	 * Creates the instance owner through the REST call the setup screen makes. Returns false when the instance
	 * already has an owner (a second demo run): the login from the first run still holds.
	 */
	async setupOwner(owner: { email: string; password: string; firstName: string; lastName: string }): Promise<boolean> {
		const res = await this.postWhenMounted('/rest/owner/setup', owner);
		if (res.ok) return true;
		const text = await res.text();
		if (res.status === 400 && /already/i.test(text)) return false;
		throw new Error(`Owner setup failed: ${res.status} ${text}`);
	}

	/** Logs in over REST; returns the session cookie (proves the printed login works). */
	async login(email: string, password: string): Promise<string> {
		const res = await this.postWhenMounted('/rest/login', { emailOrLdapLoginId: email, password });
		if (!res.ok) throw new Error(`Login as ${email} failed: ${res.status} ${await res.text()}`);
		const cookie = res.headers.get('set-cookie');
		if (!cookie) throw new Error('Login answered without a session cookie');
		return cookie.split(';')[0];
	}
}
