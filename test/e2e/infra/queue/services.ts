/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- e2e tooling in plain Node: it runs Redis and PostgreSQL (fixed programs, fixed arguments) as child processes */
// Redis and PostgreSQL for n8n's queue mode: on free loopback ports with temporary data folders (nothing persists).
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { run, type Env } from '../../../../scripts/demo/commands';
import { ManagedProcess } from '../../../../scripts/demo/managed-process';
import { freePort } from '../../../../scripts/demo/ports';
import { postgresBinDir, redisServerBin } from '../provision';

/** True when this process runs as root: PostgreSQL then runs as the `postgres` system user. */
export const asRoot = () => process.getuid?.() === 0;

/** A command as the user PostgreSQL runs as (root cannot run initdb or the server). */
function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
	return asRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

/** Redis on a free loopback port, nothing saved to disk; ready once it listens. */
export async function startRedis(dir: string): Promise<{ port: number; process: ManagedProcess }> {
	const bin = redisServerBin();
	if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server; `npm run test:e2e -- --queue` installs it)');
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const args = ['--port', String(port), '--bind', '127.0.0.1', '--protected-mode', 'yes', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'];
	const redis = ManagedProcess.start('redis', bin, args, { cwd: dir, env: { PATH: process.env.PATH }, graceMs: 5_000 });
	await redis.waitForPort(port, 20_000);
	return { port, process: redis };
}

/** PostgreSQL on a free loopback port with a throw-away cluster (no fsync) and a database for n8n. */
export class PostgresService {
	readonly database = 'n8n';
	readonly user = 'n8n';
	/** The cluster trusts loopback connections; n8n sends this password all the same. */
	readonly password = 'n8n';

	private constructor(
		readonly port: number,
		readonly process: ManagedProcess,
		private readonly bin: string,
	) {}

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
		const env = { PATH: process.env.PATH, LANG: 'C.UTF-8' };
		const [initCmd, initArgs] = asPostgresUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'n8n', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
		await run(initCmd, initArgs, { cwd: dir, quiet: true, timeoutMs: 120_000, env });
		const port = await freePort();
		// TCP on loopback only (no Unix socket folder to own), durability off: the cluster is thrown away.
		const settings = ['unix_socket_directories=', 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=100', 'shared_buffers=32MB'];
		const [cmd, args] = asPostgresUser(path.join(bin, 'postgres'), ['-D', data, '-p', String(port), '-h', '127.0.0.1', ...settings.flatMap((s) => ['-c', s])]);
		// Fast shutdown on stop (SIGINT: running statements are cancelled, nothing waits for clients).
		const postgres = ManagedProcess.start('postgres', cmd, args, { cwd: dir, env, stopSignal: 'SIGINT', graceMs: 15_000 });
		await postgres.waitForLog(/database system is ready to accept connections/, 60_000);
		try {
			await run(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'n8n', 'n8n'], { quiet: true, timeoutMs: 30_000, env: { PATH: process.env.PATH } });
		} catch (error) {
			await postgres.stop('SIGKILL', 1000);
			return await Promise.reject(error);
		}
		return new PostgresService(port, postgres, bin);
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
		const connection = ['-h', '127.0.0.1', '-p', String(this.port), '-U', this.user, '-d', this.database];
		const { stdout } = await run(path.join(this.bin, 'psql'), [...connection, '-X', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
			quiet: true,
			timeoutMs: 30_000,
			env: { PATH: process.env.PATH },
		});
		return stdout
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => line.split('\t'));
	}
}
