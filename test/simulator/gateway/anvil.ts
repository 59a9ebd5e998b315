/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- the simulator is test code that runs in plain Node, never inside n8n; it spawns and reaps the local anvil chain (a fixed binary with fixed arguments) */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { freePort } from '../../../scripts/demo/ports';

/**
 * The local chain of the gateway simulator: the anvil binary shipped in the registry package
 * `@foundry-rs/anvil-<platform>` (no download), spawned directly (a wrapper like npx would survive a kill of
 * its own process and leave anvil running), on a free loopback port. Every anvil started here is killed by
 * `stop()`, and also when the Node process exits or is interrupted, so none outlives the test process.
 */

const PLATFORM_PACKAGES: Record<string, string> = {
	'linux-x64': '@foundry-rs/anvil-linux-amd64',
	'linux-arm64': '@foundry-rs/anvil-linux-arm64',
	'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
	'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
	'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/** Path of the anvil binary: `ANVIL_BINARY` when set, else the platform package's bin/anvil. */
export function anvilBinaryPath(): string {
	const override = process.env.ANVIL_BINARY;
	if (override) return override;
	const key = `${process.platform}-${process.arch}`;
	const pkg = PLATFORM_PACKAGES[key];
	if (!pkg) throw new Error(`no @foundry-rs/anvil binary package for ${key}; set ANVIL_BINARY`);
	// `require` exists under CommonJS (jest, tsc output); resolve from the project root otherwise.
	const resolver = typeof require === 'function' ? require : createRequire(join(process.cwd(), 'package.json'));
	let pkgDir: string | undefined;
	try {
		pkgDir = dirname(resolver.resolve(`${pkg}/package.json`));
	} catch {
		pkgDir = undefined;
	}
	if (!pkgDir) throw new Error(`${pkg} is not installed (it is an optional dependency of @foundry-rs/anvil); run npm ci`);
	const binary = join(pkgDir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
	if (!existsSync(binary)) throw new Error(`anvil binary missing at ${binary}`);
	return binary;
}

const running = new Set<ChildProcess>();
let exitHooksInstalled = false;

function killAllSync(): void {
	for (const child of running) {
		try {
			child.kill('SIGKILL');
		} catch {
			// Already gone: nothing left to reap.
		}
	}
	running.clear();
}

/** Kills every anvil on process exit, and on SIGINT/SIGTERM when nobody else handles those signals. */
function installExitHooks(): void {
	if (exitHooksInstalled) return;
	exitHooksInstalled = true;
	process.on('exit', killAllSync);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		// With another listener present, that listener owns the exit; 'exit' above still reaps anvil then.
		if (process.listenerCount(signal) > 0) continue;
		const handler = () => {
			killAllSync();
			process.removeListener(signal, handler);
			process.kill(process.pid, signal);
		};
		process.on(signal, handler);
	}
}

export interface AnvilOptions {
	/** Port to bind; a free one when omitted. */
	port?: number;
	chainId?: number;
	/** Number of funded dev accounts (anvil's default mnemonic). */
	accounts?: number;
	/** Milliseconds to wait for the RPC to answer. */
	startTimeoutMs?: number;
}

export class AnvilProcess {
	private constructor(
		readonly rpcUrl: string,
		readonly port: number,
		readonly chainId: number,
		private readonly child: ChildProcess,
		private readonly exited: Promise<void>,
	) {}

	/** Process id of the anvil binary (not of a wrapper). */
	get pid(): number {
		return this.child.pid as number;
	}

	get isRunning(): boolean {
		return this.child.exitCode === null && this.child.signalCode === null;
	}

	static async start(options: AnvilOptions = {}): Promise<AnvilProcess> {
		const attempts = options.port !== undefined ? 1 : 3;
		let lastError: unknown;
		for (let attempt = 0; attempt < attempts; attempt++) {
			try {
				// The OS picks a free port; there is a tiny window before anvil binds it, which this retry covers.
				return await AnvilProcess.startOnce(options.port ?? (await freePort()), options);
			} catch (error) {
				lastError = error;
			}
		}
		throw lastError;
	}

	private static async startOnce(port: number, options: AnvilOptions): Promise<AnvilProcess> {
		installExitHooks();
		const chainId = options.chainId ?? 31337;
		const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'];
		args.push('--accounts', String(options.accounts ?? 10));
		const child = spawn(anvilBinaryPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
		running.add(child);
		let stderr = '';
		child.stderr?.on('data', (chunk: Buffer) => {
			stderr = (stderr + chunk.toString('utf8')).slice(-4000);
		});
		const exited = new Promise<void>((resolve) => {
			child.once('exit', () => {
				running.delete(child);
				resolve();
			});
			child.once('error', (error) => {
				stderr += String(error);
				running.delete(child);
				resolve();
			});
		});
		const rpcUrl = `http://127.0.0.1:${port}`;
		const anvil = new AnvilProcess(rpcUrl, port, chainId, child, exited);
		const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
		for (;;) {
			if (!anvil.isRunning || child.pid === undefined) {
				running.delete(child);
				throw new Error(`anvil exited before answering on port ${port}: ${stderr.trim() || 'no output'}`);
			}
			try {
				const response = await fetch(rpcUrl, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
				});
				const body = (await response.json()) as { result?: string };
				if (body.result !== undefined && Number(body.result) === chainId) return anvil;
			} catch {
				// Not listening yet: poll again.
			}
			if (Date.now() > deadline) {
				await anvil.stop();
				throw new Error(`anvil did not answer on ${rpcUrl} within the start timeout: ${stderr.trim()}`);
			}
			await new Promise((r) => setTimeout(r, 40));
		}
	}

	/** Stops anvil (SIGTERM, then SIGKILL after 3 s) and waits until the process is gone. */
	async stop(): Promise<void> {
		if (this.isRunning) {
			this.child.kill('SIGTERM');
			const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
			await this.exited;
			clearTimeout(timer);
		}
		running.delete(this.child);
	}
}
