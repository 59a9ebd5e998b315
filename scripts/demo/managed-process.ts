/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- demo/e2e tooling in plain Node: it runs long-lived programs (n8n, the simulator, Redis, PostgreSQL, Verdaccio, the demo, jest) as child processes, never inside n8n */
// A long-running child process, the one way the demo and the e2e tooling start one: in a process group of its own,
// its output kept (and shown too, if asked), waited for until ready (a log line, a port, a probe), stopped with its
// whole group (its stop signal, SIGKILL after a grace period, then SIGKILL to whatever of the group is left: a task
// runner, a PostgreSQL backend), and never left running: groups.ts kills it when this process exits or is
// interrupted. A readiness wait that fails stops it before it throws. A program that starts no children of its own (the
// simulator's anvil) can instead run in this process's group and die with this process (`group`, `dieWithParent`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

import type { Env } from './commands';
import { killGroup, trackGroup, untrackGroup } from './groups';
import { portInUse } from './ports';

export interface ExitInfo {
	code: number | null;
	signal: NodeJS.Signals | null;
	/** When it exited (Date.now()). */
	at: number;
}

interface ManagedProcessOptions {
	cwd?: string;
	/** Its whole environment; default this process's. */
	env?: Env;
	/** Output kept in memory (the newest characters). Default 4,000,000. */
	maxLogChars?: number;
	/** Also write its output through to this process's stdout and stderr. */
	echo?: boolean;
	/** What stop() sends first (default SIGTERM) and how long it waits before SIGKILL (default 15 s). */
	stopSignal?: NodeJS.Signals;
	graceMs?: number;
	/**
	 * 'own' (default): a process group of its own, signalled as a group. 'parent': this process's group, so whatever
	 * signals that group (Ctrl-C in a terminal, a group stop by whoever started this process) reaches it too; it is
	 * then signalled alone.
	 */
	group?: 'own' | 'parent';
	/**
	 * Linux with setpriv (util-linux): the kernel SIGKILLs it when the thread that started it ends, so when this
	 * process dies, by SIGKILL too (PR_SET_PDEATHSIG, set by setpriv before it execs the program: same pid, no wrapper
	 * left). Elsewhere nothing more than the exit hooks.
	 */
	dieWithParent?: boolean;
}

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True when `promise` settles within `ms`, false when the time runs out first. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
	try {
		return await Promise.race([promise.then(() => true), timeout]);
	} finally {
		clearTimeout(timer);
	}
}

let parentDeathSignal: boolean | undefined;

/** True when `setpriv --pdeathsig` can run a program (asked once). */
function canSetParentDeathSignal(): boolean {
	parentDeathSignal ??= process.platform === 'linux' && spawnSync('setpriv', ['--help'], { encoding: 'utf8' }).stdout?.includes('--pdeathsig') === true;
	return parentDeathSignal;
}

export class ManagedProcess {
	private output = '';
	private exitInfo?: ExitInfo;
	private readonly child: ChildProcess;
	private readonly exited: Promise<void>;
	/** Its output streams have ended (later than `exited` while something of its group holds them open). */
	private readonly closed: Promise<void>;

	private constructor(
		readonly name: string,
		cmd: string,
		args: string[],
		private readonly options: ManagedProcessOptions,
	) {
		const [command, commandArgs] = options.dieWithParent && canSetParentDeathSignal() ? ['setpriv', ['--pdeathsig', 'KILL', '--', cmd, ...args]] : [cmd, args];
		this.child = spawn(command, commandArgs, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.group !== 'parent' });
		const pid = this.child.pid;
		if (pid) trackGroup(pid, { kill: () => this.send('SIGKILL'), stop: async () => await this.stop() });
		this.child.stdout?.on('data', (d: Buffer) => this.append(d.toString(), options.echo ? process.stdout : undefined));
		this.child.stderr?.on('data', (d: Buffer) => this.append(d.toString(), options.echo ? process.stderr : undefined));
		this.exited = new Promise<void>((resolve) => {
			this.child.once('error', (error) => {
				this.append(`\n[spawn error] ${error.message}\n`);
				this.exitInfo ??= { code: null, signal: null, at: Date.now() };
				resolve();
			});
			this.child.once('exit', (code, signal) => {
				this.exitInfo = { code, signal, at: Date.now() };
				resolve();
			});
		});
		this.closed = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
	}

	/** Starts `cmd args` in a process group of its own; `name` names it in errors. */
	static start(name: string, cmd: string, args: string[], options: ManagedProcessOptions = {}): ManagedProcess {
		return new ManagedProcess(name, cmd, args, options);
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	/** Its output so far (stdout and stderr as they came), at most maxLogChars. */
	get log(): string {
		return this.output;
	}

	get exit(): ExitInfo | undefined {
		return this.exitInfo;
	}

	get running(): boolean {
		return this.exitInfo === undefined;
	}

	/** Calls `listener` once it has exited (at once if it has). */
	onExit(listener: (exit: ExitInfo) => void): void {
		void this.exited.then(() => listener(this.exitInfo as ExitInfo));
	}

	/** Waits until its output matches `pattern`; returns the match. */
	async waitForLog(pattern: RegExp, timeoutMs: number, what = `log ${pattern}`): Promise<RegExpMatchArray> {
		return await this.waitFor(what, () => this.output.match(pattern) ?? undefined, timeoutMs);
	}

	/** Waits until something accepts connections on 127.0.0.1:port. */
	async waitForPort(port: number, timeoutMs: number): Promise<void> {
		await this.waitFor(`listen on 127.0.0.1:${port}`, async () => ((await portInUse(port)) ? true : undefined), timeoutMs, 100);
	}

	/** Waits until `probe` says yes (a probe that throws says no), asking every `intervalMs`. */
	async waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 250): Promise<void> {
		await this.waitFor(what, async () => ((await probe().catch(() => false)) ? true : undefined), timeoutMs, intervalMs);
	}

	/** True once it has exited, false when `timeoutMs` passed first. */
	async waitForExit(timeoutMs: number): Promise<boolean> {
		return await within(this.exited, timeoutMs);
	}

	/** Signals the process itself only, not its group: what an operator's `kill -9 <pid>` does. */
	signal(signal: NodeJS.Signals): void {
		if (this.pid && this.running) process.kill(this.pid, signal);
	}

	/**
	 * Stops the whole group: `signal`, SIGKILL after `graceMs`, then SIGKILL to what is left of it; resolves once its
	 * output is complete (2 s at most). Safe to repeat, and after it exited by itself.
	 */
	async stop(signal = this.options.stopSignal ?? 'SIGTERM', graceMs = this.options.graceMs ?? 15_000): Promise<void> {
		const pid = this.pid;
		if (this.running) {
			this.send(signal);
			if (!(await this.waitForExit(graceMs))) this.send('SIGKILL');
			await this.waitForExit(5_000);
		}
		this.send('SIGKILL');
		if (pid) untrackGroup(pid);
		await within(this.closed, 2_000);
	}

	/** Signals its group, or, in this process's group, the process itself while it runs (never a reused pid). */
	private send(signal: NodeJS.Signals): void {
		if (this.options.group !== 'parent') killGroup(this.pid, signal);
		else if (this.running) this.child.kill(signal);
	}

	private append(text: string, echo?: NodeJS.WriteStream): void {
		echo?.write(text);
		const max = this.options.maxLogChars ?? 4_000_000;
		this.output += text;
		if (this.output.length > max) this.output = this.output.slice(-max);
	}

	/** Polls `check` until it returns something; stops the process and throws with its log when it exits or time runs out. */
	private async waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs: number, intervalMs = 200): Promise<T> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const found = await check();
			if (found !== undefined) return found;
			const exit = this.exitInfo;
			const problem = exit
				? `exited (${exit.signal ?? `code ${exit.code}`}) before it would ${what}`
				: Date.now() > deadline
					? `did not ${what} within ${timeoutMs} ms`
					: undefined;
			if (problem) {
				await this.stop();
				throw new Error(`${this.name} ${problem}\n${this.output.slice(-4000)}`);
			}
			await sleep(intervalMs);
		}
	}
}
