/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- demo/e2e tooling in plain Node: it runs fixed commands (npm, tar, the n8n CLI) to completion and prints */
// Commands run to completion (npm, tar, the n8n CLI), each in a process group of its own: a timeout, the end of
// this process or Ctrl-C ends the command and whatever it started (groups.ts). Long-running programs are
// ManagedProcess (managed-process.ts).
import { spawn } from 'node:child_process';

import { killGroup, trackGroup, untrackGroup } from './groups';

export type Env = Record<string, string | undefined>;

/**
 * The environment without the `npm_*` variables `npm run` injects: they would carry this project's settings
 * (notably ignore-scripts=true, which skips sqlite3's build) into the n8n install and into n8n itself. Also
 * without what a test runner sets (NODE_ENV=test, JEST_*: n8n then prints nothing) and the unit tests' n8n folder.
 */
export function cleanEnv(extra: Env = {}): Env {
	const env: Env = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (!/^(npm_|JEST_)/i.test(key) && !['INIT_CWD', 'NODE', 'NODE_ENV', 'N8N_USER_FOLDER'].includes(key)) env[key] = value;
	}
	return { ...env, ...extra };
}

export function log(message: string): void {
	process.stdout.write(`[demo] ${message}\n`);
}

interface RunOptions {
	cwd?: string;
	env?: Env;
	/** Capture output instead of showing it. */
	quiet?: boolean;
	/** Kill the command (and fail) after this long. */
	timeoutMs?: number;
}

export interface RunResult {
	stdout: string;
	stderr: string;
	code: number;
}

/** Runs a command to completion; resolves with its output whatever the exit code. */
export function runCommand(cmd: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, {
			cwd: options.cwd,
			env: options.env ?? cleanEnv(),
			stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
			detached: true,
		});
		const pid = child.pid;
		// Ctrl-C or the end of this process during a command (an n8n install) ends it at once.
		if (pid) trackGroup(pid, { kill: () => killGroup(pid, 'SIGKILL'), stop: async () => killGroup(pid, 'SIGKILL') });
		let stdout = '';
		let stderr = '';
		let timedOut = false;
		child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
		child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
		const timer =
			options.timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						killGroup(pid, 'SIGKILL');
					}, options.timeoutMs);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			if (timer) clearTimeout(timer);
			// The command's own children (n8n's task runner, npm's scripts) go with it.
			killGroup(pid, 'SIGKILL');
			if (pid) untrackGroup(pid);
			if (timedOut) reject(new Error(`${cmd} ${args.join(' ')} took longer than ${options.timeoutMs} ms\n${stderr.slice(-4000)}`));
			else resolve({ stdout, stderr, code: code ?? (signal ? 128 : 1) });
		});
	});
}

/** Runs a command; throws with its error output on a non-zero exit. */
export async function run(cmd: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
	const result = await runCommand(cmd, args, options);
	if (result.code !== 0) {
		throw new Error(`${cmd} ${args.join(' ')} exited with ${result.code}\n${(result.stderr || result.stdout).slice(-4000)}`);
	}
	return result;
}
