/* eslint-disable @n8n/community-nodes/no-restricted-imports -- e2e tooling in plain Node: it runs Redis, PostgreSQL and n8n processes in a temporary folder, never inside n8n */
// n8n in queue mode for the end-to-end tests: a main instance, Redis, PostgreSQL and workers, all on this machine.
//
//   PostgreSQL and Redis start on free loopback ports with temporary data folders (nothing persists) ->
//   one user folder per n8n process, each with both packages installed as community packages -> credentials and
//   workflows imported into PostgreSQL with the CLI -> `n8n start` (main) and `n8n worker` x N -> stop() ends
//   every process it started (their process groups), removes the folders and checks nothing is left.
//
// Settings that matter for n8n 2.8.4 (read in its source, kept in queueEnv below; docs/queue-mode.md explains them):
// EXECUTIONS_MODE=queue, DB_TYPE=postgresdb + DB_POSTGRESDB_*, QUEUE_BULL_REDIS_HOST/PORT, one N8N_ENCRYPTION_KEY;
// OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true (else main runs manual runs itself); N8N_RUNNERS_BROKER_PORT per
// process (each starts a task broker on 5679 by default); QUEUE_HEALTH_CHECK_ACTIVE/PORT (+ N8N_WORKER_SERVER_ADDRESS)
// per worker (its health server takes 5678 by default, the editor's port; /healthz/readiness says when it is up);
// N8N_DEFAULT_BINARY_DATA_MODE=database, so a file a worker wrote is served by main's /rest/binary-data. Workers log
// `Worker started execution <id> (job <n>)` and `Worker finished execution <id> (job <n>)` at info.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Env } from '../../../../scripts/demo/commands';
import { onProcessExit } from '../../../../scripts/demo/groups';
import type { ManagedProcess } from '../../../../scripts/demo/managed-process';
import { N8nInstance } from '../../../../scripts/demo/n8n';
import { freePort, portInUse } from '../../../../scripts/demo/ports';
import type { N8nRuntime } from '../../../../scripts/demo/runtime';
import { leftoversOf, memoryOf, type ProcessMemory } from './inspect';
import { PostgresService, asRoot, startRedis } from './services';

/** One n8n process of the cluster: its instance (user folder, CLI), the running process and its ports. */
interface QueueMember {
	name: string;
	instance: N8nInstance;
	process: ManagedProcess;
	brokerPort: number;
	/** Workers: the health server's port (/healthz, /healthz/readiness). */
	healthPort?: number;
}

interface QueueClusterOptions {
	runtime: N8nRuntime;
	/** Puts the packages into one process's user folder: every process loads them from its own `.n8n/nodes`. */
	install: (instance: N8nInstance) => Promise<void>;
	/** Plain credentials for `n8n import:credentials`, imported before start. */
	credentials?: unknown[];
	/** A folder of workflow files (or one file) for `n8n import:workflow`, imported before start. */
	workflows?: string;
	workers?: number;
}

/** PostgreSQL + Redis + n8n main + workers, in one temporary folder. */
export class QueueCluster {
	readonly root = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
	readonly encryptionKey = randomBytes(24).toString('hex');
	postgres?: PostgresService;
	main?: QueueMember;
	workers: QueueMember[] = [];
	/** Timings of the start-up steps (ms), for the test output. */
	readonly timings: Record<string, number> = {};
	private redis?: { port: number; process: ManagedProcess };
	private readonly ports: number[] = [];
	/** The processes are ended by groups.ts if this process exits without stop(); this removes the folder then. */
	private readonly removeExitHook = onProcessExit(() => rmSync(this.root, { recursive: true, force: true }));

	private constructor(private readonly options: QueueClusterOptions) {
		// The postgres system user must reach its data folder inside (traverse only, no listing).
		if (asRoot()) chmodSync(this.root, 0o711);
	}

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
		};
	}

	private async step<T>(name: string, work: () => Promise<T>): Promise<T> {
		const started = Date.now();
		return await work().finally(() => (this.timings[name] = Date.now() - started));
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
			[this.postgres, this.redis] = await Promise.all([PostgresService.start(path.join(this.root, 'postgres')), startRedis(path.join(this.root, 'redis'))]);
			this.ports.push(this.postgres.port, this.redis.port);
		});
		const env = this.queueEnv();
		const instances: N8nInstance[] = [];
		// Main first; a worker serves no editor, but its N8N_PORT is set apart all the same.
		for (const name of ['main', ...Array.from({ length: this.options.workers ?? 2 }, (_, i) => `worker-${i + 1}`)]) {
			instances.push(new N8nInstance({ runtime, userFolder: path.join(this.root, name), port: await this.port(), env }));
		}
		await this.step('Community packages into every user folder', async () => {
			await Promise.all(instances.map(async (instance) => await this.options.install(instance)));
		});
		await this.step('Credentials and workflows into PostgreSQL (n8n CLI)', async () => {
			// The first command also creates n8n's tables (migrations), before any process starts.
			if (this.options.credentials) await instances[0].importCredentials(this.options.credentials);
			if (this.options.workflows) await instances[0].importWorkflows(this.options.workflows);
		});
		await this.step('n8n main and workers', async () => {
			this.main = await this.spawnMember('main', instances[0]);
			for (const [i, instance] of instances.slice(1).entries()) this.workers.push(await this.spawnMember(`worker-${i + 1}`, instance));
			await Promise.all(this.members.map(async (member) => await this.waitUntilReady(member)));
		});
	}

	private async spawnMember(name: string, instance: N8nInstance): Promise<QueueMember> {
		const brokerPort = await this.port();
		const healthPort = name === 'main' ? undefined : await this.port();
		const extra: Env = { N8N_RUNNERS_BROKER_PORT: String(brokerPort) };
		if (healthPort) Object.assign(extra, { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(healthPort), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' });
		if (await portInUse(instance.port)) throw new Error(`Port ${instance.port} is in use`);
		const process = instance.spawn(name, [healthPort ? 'worker' : 'start'], extra, 20_000);
		return { name, instance, process, brokerPort, healthPort };
	}

	/** Main: its REST API answers; a worker: its health server says ready (database and Redis connected). */
	private async waitUntilReady(member: QueueMember, timeoutMs = 240_000): Promise<void> {
		const url = member.healthPort ? `http://127.0.0.1:${member.healthPort}/healthz/readiness` : `${member.instance.baseUrl}/rest/settings`;
		await member.process.waitUntil(`answer on ${url}`, async () => (await fetch(url)).ok, timeoutMs, 500);
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
		return memoryOf(this.members);
	}

	/** What still runs or listens of what this cluster started: process ids and ports (empty after stop()). */
	async leftovers(): Promise<string[]> {
		const processes = [...this.members.map((m) => m.process), ...(this.redis ? [this.redis.process] : []), ...(this.postgres ? [this.postgres.process] : [])];
		return await leftoversOf(processes, this.ports, this.root);
	}

	/** Stops n8n (workers, then main), then Redis and PostgreSQL; removes the folder. Safe to call twice. */
	async stop(): Promise<void> {
		await Promise.allSettled(this.workers.map(async (w) => await w.process.stop()));
		await this.main?.process.stop();
		await Promise.allSettled([this.redis?.process.stop(), this.postgres?.process.stop()]);
		rmSync(this.root, { recursive: true, force: true });
		this.removeExitHook();
	}
}
