/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- e2e tooling in plain Node: it runs Redis, PostgreSQL and n8n processes (fixed programs, fixed arguments) and reads /proc, never inside n8n */
// n8n in queue mode for the end-to-end tests: a main instance, Redis, PostgreSQL and workers, all on this machine.
//
//   PostgreSQL and Redis start on free loopback ports with temporary data folders (nothing persists) ->
//   one user folder per n8n process, each with both packages installed as community packages -> credentials and
//   workflows imported into PostgreSQL with the CLI -> `n8n start` (main) and `n8n worker` x N -> stop() ends
//   every process it started (their process groups), removes the folders and checks nothing is left.
//
// Settings that matter for n8n 2.8.4 (read in its source, kept in queueEnv below):
// - EXECUTIONS_MODE=queue, DB_TYPE=postgresdb + DB_POSTGRESDB_*, QUEUE_BULL_REDIS_HOST/PORT: one database and one
//   queue for all processes; N8N_ENCRYPTION_KEY shared, or a worker cannot decrypt the credentials main stored.
// - OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true: manual runs (the editor's "Execute workflow") go to the queue too;
//   without it main runs them itself.
// - N8N_RUNNERS_BROKER_PORT per process: each n8n process (main and every worker) starts a task broker for its
//   JS/Python task runner on 5679 by default; the second one on the machine would fail to listen.
// - QUEUE_HEALTH_CHECK_ACTIVE/QUEUE_HEALTH_CHECK_PORT (+ N8N_WORKER_SERVER_ADDRESS): a worker's health server
//   listens on 5678 on all addresses by default, the editor's port; a worker exits when that port is taken. Each
//   gets its own port; /healthz/readiness says when its database and Redis connections are up.
// - N8N_DEFAULT_BINARY_DATA_MODE=database (2.8.4's default in queue mode, set explicitly): binary data goes into
//   PostgreSQL, so a file a worker wrote is served by main's /rest/binary-data. `filesystem` would leave it in the
//   worker's own folder, which main cannot read.
// - Workers log `Worker started execution <id> (job <n>)` and `Worker finished execution <id> (job <n>)` at info.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { N8nInstance, freePort, portInUse, type N8nRun } from './n8n';
import { killGroup, run, runCommand, type Env, type N8nRuntime } from './runtime';

/** Debian packages the queue-mode suite needs (installed by scripts/demo/e2e.ts when missing). */
export const QUEUE_APT_PACKAGES = ['redis-server', 'postgresql'];

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

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

/** The apt packages among QUEUE_APT_PACKAGES whose programs are missing. */
export function missingQueuePackages(): string[] {
	const missing: string[] = [];
	if (!redisServerBin()) missing.push('redis-server');
	if (!postgresBinDir()) missing.push('postgresql');
	return missing;
}

function isAlive(pid: number | undefined): boolean {
	if (!pid) return false;
	try {
		process.kill(pid, 0);
		// A zombie (exited, not yet reaped) counts as gone.
		return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
}

/** A long-running process in its own process group, its output kept in memory. */
export class LoggedProcess {
	readonly child: ChildProcess;
	private output = '';
	private exitInfo?: { code: number | null; signal: NodeJS.Signals | null; at: number };
	private readonly exited: Promise<void>;

	constructor(
		readonly name: string,
		cmd: string,
		args: string[],
		options: { cwd?: string; env?: Env; maxLogChars?: number } = {},
	) {
		const max = options.maxLogChars ?? 4_000_000;
		this.child = spawn(cmd, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
		const onData = (d: Buffer) => {
			this.output += d.toString();
			if (this.output.length > max) this.output = this.output.slice(-max);
		};
		this.child.stdout?.on('data', onData);
		this.child.stderr?.on('data', onData);
		this.exited = new Promise<void>((resolve) => {
			this.child.once('error', (error) => {
				this.output += `\n[spawn error] ${error.message}\n`;
				this.exitInfo ??= { code: null, signal: null, at: Date.now() };
				resolve();
			});
			this.child.once('exit', (code, signal) => {
				this.exitInfo = { code, signal, at: Date.now() };
				resolve();
			});
		});
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	get log(): string {
		return this.output;
	}

	get exit(): { code: number | null; signal: NodeJS.Signals | null; at: number } | undefined {
		return this.exitInfo;
	}

	get running(): boolean {
		return this.exitInfo === undefined;
	}

	/** Waits until the log matches (or the process exits, or time runs out: then throws with the log's tail). */
	async waitForLog(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const match = this.output.match(pattern);
			if (match) return match;
			if (!this.running) throw new Error(`${this.name} exited (${JSON.stringify(this.exitInfo)}) before logging ${pattern}\n${this.output.slice(-4000)}`);
			if (Date.now() > deadline) throw new Error(`${this.name} did not log ${pattern} in ${timeoutMs} ms\n${this.output.slice(-4000)}`);
			await sleep(200);
		}
	}

	/** Resolves once the process has exited. */
	async waitForExit(timeoutMs: number): Promise<boolean> {
		return await Promise.race([this.exited.then(() => true), sleep(timeoutMs).then(() => false)]);
	}

	/** Signals the process itself only (not its group): what an operator's `kill -9 <pid>` does. */
	signal(signal: NodeJS.Signals): void {
		if (this.pid && this.running) process.kill(this.pid, signal);
	}

	/** Stops the whole group: `signal`, then SIGKILL after the grace period; anything left of the group goes too. */
	async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
		const pid = this.pid;
		if (this.running) {
			killGroup(pid, signal);
			if (!(await this.waitForExit(graceMs))) killGroup(pid, 'SIGKILL');
			await this.waitForExit(5_000);
		}
		killGroup(pid, 'SIGKILL');
	}
}

/** True when this process runs as root: PostgreSQL then runs as the `postgres` system user. */
const asRoot = () => process.getuid?.() === 0;

/** A command as the user PostgreSQL runs as (root cannot run initdb or the server). */
function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
	return asRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

/** Redis on a free loopback port, nothing saved to disk. */
export class RedisService {
	readonly port: number;
	private readonly proc: LoggedProcess;

	private constructor(port: number, proc: LoggedProcess) {
		this.port = port;
		this.proc = proc;
	}

	static async start(dir: string): Promise<RedisService> {
		const bin = redisServerBin();
		if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server; `npm run test:e2e -- --queue` installs it)');
		mkdirSync(dir, { recursive: true });
		const port = await freePort();
		const args = ['--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'yes', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'];
		const proc = new LoggedProcess('redis', bin, args, { cwd: dir, env: { PATH: process.env.PATH } });
		const service = new RedisService(port, proc);
		const deadline = Date.now() + 20_000;
		while (!(await service.ping())) {
			if (!proc.running || Date.now() > deadline) {
				await proc.stop('SIGKILL', 1000);
				throw new Error(`redis-server did not answer PING on 127.0.0.1:${port}\n${proc.log.slice(-2000)}`);
			}
			await sleep(100);
		}
		return service;
	}

	get pid(): number | undefined {
		return this.proc.pid;
	}

	get process(): LoggedProcess {
		return this.proc;
	}

	/** One PING over RESP; true on +PONG. */
	async ping(): Promise<boolean> {
		const net = await import('node:net');
		return await new Promise<boolean>((resolve) => {
			const socket = net.connect({ port: this.port, host: '127.0.0.1' });
			let answer = '';
			const done = (ok: boolean) => {
				socket.destroy();
				resolve(ok);
			};
			socket.setTimeout(2000, () => done(false));
			socket.once('error', () => done(false));
			socket.once('connect', () => socket.write('PING\r\n'));
			socket.on('data', (d) => {
				answer += d.toString();
				if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
			});
		});
	}

	async stop(): Promise<void> {
		await this.proc.stop('SIGTERM', 5_000);
	}
}

/** PostgreSQL on a free loopback port with a throw-away cluster (no fsync) and a database for n8n. */
export class PostgresService {
	readonly port: number;
	readonly database = 'n8n';
	readonly user = 'n8n';
	/** The cluster trusts loopback connections; n8n sends this password all the same. */
	readonly password = 'n8n';
	private readonly proc: LoggedProcess;
	private readonly bin: string;

	private constructor(port: number, proc: LoggedProcess, bin: string) {
		this.port = port;
		this.proc = proc;
		this.bin = bin;
	}

	static async start(dir: string): Promise<PostgresService> {
		const bin = postgresBinDir();
		if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql; `npm run test:e2e -- --queue` installs it)');
		mkdirSync(dir, { recursive: true });
		// initdb refuses to run as root: the cluster belongs to the postgres system user.
		if (asRoot()) {
			const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
			const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
			if (ids.status !== 0) throw new Error('Running as root, but there is no `postgres` system user to run PostgreSQL as (apt-get install postgresql creates it)');
			chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
		}
		const data = path.join(dir, 'data');
		const [initCmd, initArgs] = asPostgresUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'n8n', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
		await run(initCmd, initArgs, { cwd: dir, quiet: true, timeoutMs: 120_000, env: { PATH: process.env.PATH, LANG: 'C.UTF-8' } });
		const port = await freePort();
		// TCP on loopback only (no Unix socket folder to own), durability off: the cluster is thrown away.
		const settings = ['unix_socket_directories=', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=100', 'shared_buffers=32MB'];
		const [cmd, args] = asPostgresUser(path.join(bin, 'postgres'), ['-D', data, '-p', String(port), '-h', '127.0.0.1', ...settings.flatMap((s) => ['-c', s])]);
		const proc = new LoggedProcess('postgres', cmd, args, { cwd: dir, env: { PATH: process.env.PATH, LANG: 'C.UTF-8' } });
		const service = new PostgresService(port, proc, bin);
		try {
			await proc.waitForLog(/database system is ready to accept connections/, 60_000);
			await run(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n'], { quiet: true, timeoutMs: 30_000, env: { PATH: process.env.PATH } });
		} catch (error) {
			await proc.stop('SIGKILL', 1000);
			return await Promise.reject(error);
		}
		return service;
	}

	get pid(): number | undefined {
		return this.proc.pid;
	}

	get process(): LoggedProcess {
		return this.proc;
	}

	/** n8n's connection settings for this database. */
	n8nEnv(): Env {
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.port),
			DB_POSTGRESDB_DATABASE: this.database,
			DB_POSTGRESDB_USER: this.user,
			DB_POSTGRESDB_PASSWORD: this.password,
		};
	}

	/** Runs one SQL statement with psql; returns the rows (unaligned, tab-separated). */
	async query(sql: string): Promise<string[][]> {
		const { stdout } = await run(path.join(this.bin, 'psql'), ['-h', '127.0.0.1', '-p', String(this.port), '-U', this.user, '-d', this.database, '-X', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
			quiet: true,
			timeoutMs: 30_000,
			env: { PATH: process.env.PATH },
		});
		return stdout
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => line.split('\t'));
	}

	/** Fast shutdown (SIGINT: running statements are cancelled, nothing waits for clients). */
	async stop(): Promise<void> {
		await this.proc.stop('SIGINT', 15_000);
	}
}

/** One n8n process of the cluster: its instance (user folder, CLI), the running process and its ports. */
export interface QueueMember {
	name: string;
	instance: N8nInstance;
	process: LoggedProcess;
	brokerPort: number;
	/** Workers: the health server's port (/healthz, /healthz/readiness). */
	healthPort?: number;
}

export interface QueueClusterOptions {
	runtime: N8nRuntime;
	/**
	 * Puts the community packages into one process's user folder (main and each worker): every process loads
	 * them from its own `.n8n/nodes`, as separate hosts or containers would.
	 */
	install: (instance: N8nInstance) => Promise<void>;
	/** Plain credentials for `n8n import:credentials`, imported before start. */
	credentials?: unknown[];
	/** A folder of workflow files (or one file) for `n8n import:workflow`, imported before start. */
	workflows?: string;
	workers?: number;
	/** More environment for every n8n process (main, workers, CLI). */
	env?: Env;
	/** Shown while starting (default: nothing). */
	log?: (message: string) => void;
}

/** Memory of one process and its children (task runners), from /proc. */
export interface ProcessMemory {
	name: string;
	pid: number;
	rssKb: number;
	children: Array<{ pid: number; command: string; rssKb: number }>;
}

function rssKb(pid: number): number {
	try {
		const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m);
		return match ? Number(match[1]) : 0;
	} catch {
		return 0;
	}
}

/** Every process in /proc with its parent and process group (no `ps`/`pgrep`: slim images lack procps). */
function processTable(): Array<{ pid: number; ppid: number; pgrp: number; zombie: boolean }> {
	const table: Array<{ pid: number; ppid: number; pgrp: number; zombie: boolean }> = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'.
			const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			table.push({ pid: Number(entry), ppid: Number(ppid), pgrp: Number(pgrp), zombie: state === 'Z' });
		} catch {
			// The process has just exited.
		}
	}
	return table;
}

/** Every live descendant of a process (children, grandchildren). */
export function descendants(pid: number): number[] {
	const table = processTable();
	const found: number[] = [];
	const queue = [pid];
	while (queue.length) {
		const current = queue.shift() as number;
		for (const p of table) {
			if (p.ppid === current && !p.zombie && !found.includes(p.pid)) {
				found.push(p.pid);
				queue.push(p.pid);
			}
		}
	}
	return found;
}

/** Live processes of a process group. */
export function groupMembers(pgid: number): number[] {
	return processTable()
		.filter((p) => p.pgrp === pgid && !p.zombie)
		.map((p) => p.pid);
}

function commandOf(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
	} catch {
		return '';
	}
}

/** PostgreSQL + Redis + n8n main + workers, in one temporary folder. */
export class QueueCluster {
	readonly root: string;
	readonly encryptionKey = randomBytes(24).toString('hex');
	redis?: RedisService;
	postgres?: PostgresService;
	main?: QueueMember;
	workers: QueueMember[] = [];
	/** Timings of the start-up steps (ms), for the test output. */
	readonly timings: Record<string, number> = {};
	private readonly ports: number[] = [];
	private readonly pids: number[] = [];

	private constructor(private readonly options: QueueClusterOptions) {
		this.root = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
		// The postgres system user must reach its data folder inside (traverse only, no listing).
		if (asRoot()) chmodSync(this.root, 0o711);
		// Last resort (the test process exits without stop(): a crash, Ctrl-C): nothing started here outlives it.
		process.once('exit', this.killAllNow);
	}

	private readonly killAllNow = (): void => {
		for (const pid of this.pids) killGroup(pid, 'SIGKILL');
		rmSync(this.root, { recursive: true, force: true });
	};

	/** Starts everything; on failure stops what already runs, then throws. */
	static async start(options: QueueClusterOptions): Promise<QueueCluster> {
		const cluster = new QueueCluster(options);
		try {
			await cluster.startAll();
		} catch (error) {
			const logs = cluster.members.map((m) => `--- ${m.name} ---\n${m.process.log.slice(-3000)}`).join('\n');
			await cluster.stop();
			return await Promise.reject(new Error(`${(error as Error).message}\n${logs}`));
		}
		return cluster;
	}

	get members(): QueueMember[] {
		return [...(this.main ? [this.main] : []), ...this.workers];
	}

	/** The environment every n8n process of the cluster shares. */
	queueEnv(): Env {
		if (!this.redis || !this.postgres) throw new Error('Redis and PostgreSQL are not running');
		return {
			...this.postgres.n8nEnv(),
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redis.port),
			N8N_ENCRYPTION_KEY: this.encryptionKey,
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			N8N_LOG_LEVEL: 'info',
			// A stop waits at most this long for running executions (default 30 s).
			N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
			...this.options.env,
		};
	}

	private step<T>(name: string, work: () => Promise<T>): Promise<T> {
		const started = Date.now();
		this.options.log?.(`${name} ...`);
		return work().finally(() => (this.timings[name] = Date.now() - started));
	}

	private async port(): Promise<number> {
		for (;;) {
			const port = await freePort();
			if (!this.ports.includes(port)) {
				this.ports.push(port);
				return port;
			}
		}
	}

	private async startAll(): Promise<void> {
		const { runtime } = this.options;
		await this.step('PostgreSQL and Redis', async () => {
			[this.postgres, this.redis] = await Promise.all([PostgresService.start(path.join(this.root, 'postgres')), RedisService.start(path.join(this.root, 'redis'))]);
			this.ports.push(this.postgres.port, this.redis.port);
			for (const pid of [this.postgres.pid, this.redis.pid]) if (pid) this.pids.push(pid);
		});
		const env = this.queueEnv();
		const mainPort = await this.port();
		const mainInstance = new N8nInstance({ runtime, userFolder: path.join(this.root, 'main'), port: mainPort, env });
		const workerInstances: N8nInstance[] = [];
		for (let i = 0; i < (this.options.workers ?? 2); i++) {
			// A worker serves no editor; its N8N_PORT is set apart all the same.
			workerInstances.push(new N8nInstance({ runtime, userFolder: path.join(this.root, `worker-${i + 1}`), port: await this.port(), env }));
		}
		await this.step('Community packages into every user folder', async () => {
			await Promise.all(
				[mainInstance, ...workerInstances].map(async (instance) => await this.options.install(instance)),
			);
		});
		await this.step('Credentials and workflows into PostgreSQL (n8n CLI)', async () => {
			// The first command also creates n8n's tables (migrations), before any process starts.
			if (this.options.credentials) await mainInstance.importCredentials(this.options.credentials);
			if (this.options.workflows) await mainInstance.importWorkflows(this.options.workflows);
		});
		await this.step('n8n main and workers', async () => {
			this.main = await this.spawnMember('main', mainInstance, ['start']);
			for (const [i, instance] of workerInstances.entries()) {
				this.workers.push(await this.spawnMember(`worker-${i + 1}`, instance, ['worker']));
			}
			await Promise.all([this.waitForMain(this.main), ...this.workers.map(async (w) => await this.waitForWorker(w))]);
		});
	}

	private async spawnMember(name: string, instance: N8nInstance, args: string[]): Promise<QueueMember> {
		const brokerPort = await this.port();
		const healthPort = args[0] === 'worker' ? await this.port() : undefined;
		const extra: Env = { N8N_RUNNERS_BROKER_PORT: String(brokerPort) };
		if (healthPort) Object.assign(extra, { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' });
		if (await portInUse(instance.port)) throw new Error(`Port ${instance.port} is in use`);
		const proc = new LoggedProcess(name, instance.runtime.nodeBin, [instance.runtime.n8nBin, ...args], { cwd: instance.userFolder, env: instance.env(extra) });
		if (proc.pid) this.pids.push(proc.pid);
		return { name, instance, process: proc, brokerPort, healthPort };
	}

	private async waitForMain(member: QueueMember, timeoutMs = 240_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (!member.process.running) throw new Error(`n8n main exited (${JSON.stringify(member.process.exit)})`);
			try {
				const res = await fetch(`${member.instance.baseUrl}/rest/settings`);
				if (res.ok) return;
			} catch {
				// Not listening yet.
			}
			await sleep(500);
		}
		throw new Error(`n8n main did not answer on ${member.instance.baseUrl} in ${timeoutMs} ms`);
	}

	private async waitForWorker(member: QueueMember, timeoutMs = 240_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (!member.process.running) throw new Error(`${member.name} exited (${JSON.stringify(member.process.exit)})`);
			try {
				const res = await fetch(`http://127.0.0.1:${member.healthPort}/healthz/readiness`);
				if (res.ok) return;
			} catch {
				// Not listening yet.
			}
			await sleep(500);
		}
		throw new Error(`${member.name} was not ready (health port ${member.healthPort}) in ${timeoutMs} ms`);
	}

	/** The workers whose log names the execution (`Worker started execution <id> (job ...)`). */
	workersThatStarted(executionId: string): string[] {
		const line = new RegExp(`Worker started execution ${executionId} \\(job `);
		return this.workers.filter((w) => line.test(w.process.log)).map((w) => w.name);
	}

	/** The worker that finished the execution, if one logged it. */
	workersThatFinished(executionId: string): string[] {
		const line = new RegExp(`Worker finished execution ${executionId} \\(job `);
		return this.workers.filter((w) => line.test(w.process.log)).map((w) => w.name);
	}

	/** VmRSS of main and each worker, and of their child processes (the task runners). */
	memory(): ProcessMemory[] {
		const result: ProcessMemory[] = [];
		for (const member of this.members) {
			const pid = member.process.pid;
			if (!pid || !member.process.running) continue;
			const children = descendants(pid).map((child) => ({ pid: child, command: commandOf(child), rssKb: rssKb(child) }));
			result.push({ name: member.name, pid, rssKb: rssKb(pid), children });
		}
		return result;
	}

	/** What still runs or listens of what this cluster started: process ids and ports (empty after stop()). */
	async leftovers(): Promise<string[]> {
		const left: string[] = [];
		for (const pid of this.pids) {
			if (isAlive(pid)) left.push(`process ${pid} (${commandOf(pid).slice(0, 120)})`);
			// Anything still in its process group (a task runner, a PostgreSQL backend).
			for (const member of groupMembers(pid)) {
				if (member !== pid) left.push(`process ${member} in group ${pid} (${commandOf(member).slice(0, 120)})`);
			}
		}
		for (const port of this.ports) if (await portInUse(port)) left.push(`port ${port}`);
		if (existsSync(this.root)) left.push(`folder ${this.root}`);
		return left;
	}

	/** Stops n8n (workers, then main), then Redis and PostgreSQL; removes the folder. Safe to call twice. */
	async stop(): Promise<void> {
		await Promise.allSettled(this.workers.map(async (w) => await w.process.stop('SIGTERM', 20_000)));
		await this.main?.process.stop('SIGTERM', 20_000);
		await Promise.allSettled([this.redis?.stop(), this.postgres?.stop()]);
		rmSync(this.root, { recursive: true, force: true });
		process.removeListener('exit', this.killAllNow);
	}
}

/**
 * flatted's format (n8n stores execution data with it): a JSON array whose first entry is the root; every string
 * inside an object or array is the index of the entry holding the value.
 */
export function unflatten(text: string): unknown {
	const table = JSON.parse(text) as unknown[];
	const built = new Map<number, unknown>();
	const resolve = (value: unknown): unknown => (typeof value === 'string' ? entry(Number(value)) : value);
	const entry = (index: number): unknown => {
		const raw = table[index];
		if (raw === null || typeof raw !== 'object') return raw;
		if (built.has(index)) return built.get(index);
		if (Array.isArray(raw)) {
			const out: unknown[] = [];
			built.set(index, out);
			for (const value of raw) out.push(resolve(value));
			return out;
		}
		const out: Record<string, unknown> = {};
		built.set(index, out);
		for (const [key, value] of Object.entries(raw as Record<string, unknown>)) out[key] = resolve(value);
		return out;
	};
	return entry(0);
}

/** An execution as main's REST API returns it, with its data unflattened. */
export interface RestExecution {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	startedAt: string | null;
	stoppedAt: string | null;
	workflowId: string;
	/** The run in the shape `n8n execute --rawOutput` prints (status, data.resultData...). */
	run: N8nRun;
}

/** Main's REST API as the editor uses it, with an owner's session cookie. */
export class N8nRestClient {
	constructor(
		readonly baseUrl: string,
		private readonly cookie: string,
	) {}

	async request(method: string, route: string, body?: unknown): Promise<Response> {
		return await fetch(`${this.baseUrl}${route}`, {
			method,
			headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'browser-id': 'e2e-queue' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}

	async json<T>(method: string, route: string, body?: unknown): Promise<T> {
		const res = await this.request(method, route, body);
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 2000)}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	async workflow(id: string): Promise<Record<string, unknown> & { id: string; versionId?: string; nodes: Array<{ name: string; type: string }> }> {
		return await this.json('GET', `/rest/workflows/${id}`);
	}

	/**
	 * "Execute workflow" as the editor sends it (POST /rest/workflows/:id/run with the workflow and the trigger to
	 * start from); returns the execution id.
	 */
	async runManually(workflowId: string): Promise<string> {
		const workflowData = await this.workflow(workflowId);
		const trigger = workflowData.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		if (!trigger) throw new Error(`Workflow ${workflowId} has no Manual Trigger`);
		const result = await this.json<{ executionId?: string; waitingForWebhook?: boolean }>('POST', `/rest/workflows/${workflowId}/run`, {
			workflowData,
			triggerToStartFrom: { name: trigger.name },
		});
		if (!result.executionId) throw new Error(`n8n started no execution: ${JSON.stringify(result)}`);
		return String(result.executionId);
	}

	async execution(id: string): Promise<RestExecution> {
		const raw = await this.json<Record<string, unknown>>('GET', `/rest/executions/${id}`);
		const data = typeof raw.data === 'string' ? unflatten(raw.data) : raw.data;
		return {
			id: String(raw.id),
			finished: raw.finished === true,
			mode: String(raw.mode),
			status: String(raw.status),
			startedAt: (raw.startedAt as string | null) ?? null,
			stoppedAt: (raw.stoppedAt as string | null) ?? null,
			workflowId: String(raw.workflowId),
			run: { status: String(raw.status), finished: raw.finished === true, data: data as N8nRun['data'] },
		};
	}

	/** Polls the execution until it is no longer new, running or waiting. */
	async waitForExecution(id: string, timeoutMs = 180_000, intervalMs = 500): Promise<RestExecution> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.execution(id);
			if (!['new', 'running', 'waiting'].includes(execution.status)) return execution;
			if (Date.now() > deadline) throw new Error(`Execution ${id} still ${execution.status} after ${timeoutMs} ms`);
			await sleep(intervalMs);
		}
	}

	/** Executions of a workflow, newest first (id, status, mode), up to 100. */
	async executionsOf(workflowId: string): Promise<Array<{ id: string; status: string; mode: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.json<{ results: Array<{ id: string; status: string; mode: string }> }>('GET', `/rest/executions?filter=${filter}&limit=100`);
		return page.results.map((e) => ({ id: String(e.id), status: e.status, mode: e.mode }));
	}

	async activate(workflowId: string): Promise<void> {
		const wf = await this.workflow(workflowId);
		await this.json('POST', `/rest/workflows/${workflowId}/activate`, { versionId: wf.versionId });
	}

	async deactivate(workflowId: string): Promise<void> {
		await this.json('POST', `/rest/workflows/${workflowId}/deactivate`, {});
	}

	/** A binary file of an execution, downloaded through main (GET /rest/binary-data?id=...&action=download). */
	async binary(id: string): Promise<{ status: number; bytes: Buffer; contentType: string | null }> {
		const res = await this.request('GET', `/rest/binary-data?id=${encodeURIComponent(id)}&action=download`);
		return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') };
	}
}

/** Quick check used by the runner: both programs answer `--version`. */
export async function queueServicesVersions(): Promise<string> {
	const redis = redisServerBin();
	const pg = postgresBinDir();
	const parts: string[] = [];
	if (redis) parts.push((await runCommand(redis, ['--version'], { quiet: true })).stdout.trim().split(' ').slice(0, 3).join(' '));
	if (pg) parts.push((await runCommand(path.join(pg, 'postgres'), ['--version'], { quiet: true })).stdout.trim());
	return parts.join('; ');
}
