/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- demo/e2e tooling: it installs and runs a real n8n and the simulator as child processes (fixed programs, fixed arguments) in plain Node, never inside n8n */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import type { SimulatorInfo, SimulatorPorts } from '../../test/simulator/index';
import { REPO_ROOT } from './pack';
import { cleanEnv, stopGroup } from './runtime';

/** The standalone simulator (test/simulator/cli.ts) as a child process in its own process group. */
export class SimulatorProcess {
	private child?: ChildProcess;
	private output = '';

	/** Starts it and resolves with its addresses and demo credentials once every section listens. */
	async start(ports: SimulatorPorts, timeoutMs = 120_000): Promise<SimulatorInfo> {
		const child = spawn(
			process.execPath,
			['--import', 'tsx', path.join('test', 'simulator', 'cli.ts'), '--json', `--ports=${ports.platform},${ports.marketplace},${ports.gateway},${ports.model ?? 0},${ports.fetch ?? 0},${ports.search ?? 0}`],
			{ cwd: REPO_ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
		);
		this.child = child;
		return await new Promise<SimulatorInfo>((resolve, reject) => {
			const timer = setTimeout(() => {
				void this.stop();
				reject(new Error(`The simulator did not start within ${timeoutMs} ms\n${this.output.slice(-3000)}`));
			}, timeoutMs);
			const onData = (d: Buffer) => {
				this.output = (this.output + d.toString()).slice(-20_000);
				const line = this.output.split('\n').find((l) => l.startsWith('SIMULATOR_READY '));
				if (line) {
					clearTimeout(timer);
					child.stdout?.off('data', onData);
					resolve(JSON.parse(line.slice('SIMULATOR_READY '.length)) as SimulatorInfo);
				}
			};
			child.stdout?.on('data', onData);
			child.stderr?.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-20_000)));
			child.once('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`The simulator exited (${code}) before it was ready\n${this.output.slice(-3000)}`));
			});
		});
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	onExit(listener: (code: number | null) => void): void {
		this.child?.once('exit', listener);
	}

	/** SIGTERM lets it close its servers and its chain; SIGKILL to the whole group after a grace period. */
	async stop(graceMs = 10_000): Promise<void> {
		const child = this.child;
		if (!child) return;
		this.child = undefined;
		await stopGroup(child, graceMs);
	}
}
