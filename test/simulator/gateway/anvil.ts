/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the simulator is test code that runs in plain Node, never inside n8n; it finds the local anvil chain's binary and runs it */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { ManagedProcess } from '../../../scripts/demo/managed-process';
import { freePort } from '../../../scripts/demo/ports';

/**
 * The local chain of the gateway simulator: the anvil binary shipped in the registry package
 * `@foundry-rs/anvil-<platform>` (no download), spawned directly (a wrapper like npx would survive a kill of
 * its own process and leave anvil running), on a free loopback port, as a ManagedProcess
 * (scripts/demo/managed-process.ts) like every long-running child. It runs in this process's group, so a signal
 * to that group (Ctrl-C, the demo or the e2e runner stopping the simulator) reaches anvil too, and it dies with
 * this process, SIGKILL included, where setpriv can tell the kernel so (Linux). It is killed by `stop()`, and by
 * the exit hooks of scripts/demo/groups.ts when this process exits or is interrupted (also under jest).
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
		private readonly managed: ManagedProcess,
	) {}

	/** Process id of the anvil binary (not of a wrapper). */
	get pid(): number {
		return this.managed.pid as number;
	}

	get isRunning(): boolean {
		return this.managed.running;
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

	/** Starts anvil and waits until its RPC answers with the chain id; a failed wait has stopped it. */
	private static async startOnce(port: number, options: AnvilOptions): Promise<AnvilProcess> {
		const chainId = options.chainId ?? 31337;
		const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'];
		args.push('--accounts', String(options.accounts ?? 10));
		const managed = ManagedProcess.start('anvil', anvilBinaryPath(), args, { group: 'parent', dieWithParent: true, graceMs: 3_000, maxLogChars: 4_000 });
		const rpcUrl = `http://127.0.0.1:${port}`;
		await managed.waitUntil(`answer eth_chainId ${chainId} on ${rpcUrl}`, async () => await answersChainId(rpcUrl, chainId), options.startTimeoutMs ?? 20_000, 40);
		return new AnvilProcess(rpcUrl, port, chainId, managed);
	}

	/** Stops anvil (SIGTERM, then SIGKILL after 3 s) and waits until the process is gone. */
	async stop(): Promise<void> {
		await this.managed.stop();
	}
}

/** True when the RPC at `rpcUrl` answers eth_chainId with `chainId`. */
async function answersChainId(rpcUrl: string, chainId: number): Promise<boolean> {
	const response = await fetch(rpcUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
		signal: AbortSignal.timeout(5_000),
	});
	const body = (await response.json()) as { result?: string };
	return body.result !== undefined && Number(body.result) === chainId;
}
