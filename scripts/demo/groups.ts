/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- demo/e2e tooling in plain Node: it signals the process groups it started and hooks this process's exit and signals */
// Every process group the demo and the e2e tooling start (long-running programs and commands alike) is tracked
// here, so none outlives this process: on exit each is killed (SIGKILL); on SIGINT, SIGTERM or SIGHUP that nobody
// else handles, each is stopped (its stop signal, SIGKILL after its grace period), then this process exits as the
// signal would have ended it. A program that handles those signals itself (the demo) stops its children itself.
import os from 'node:os';
import { runInThisContext } from 'node:vm';

/** A started process group: how to end it at once, and how to stop it with its grace period. */
interface TrackedGroup {
	kill(): void;
	stop(): Promise<void>;
}

interface Registry {
	groups: Map<number, TrackedGroup>;
	hooked: boolean;
}

/**
 * The real `process`. Under jest, test code sees a copy whose listeners never fire (jest-util's
 * createProcessObject), so the hooks go on the process itself, with one registry per process: jest loads this
 * module once per test file.
 */
const realProcess = runInThisContext('process') as NodeJS.Process;
const REGISTRY_KEY = Symbol.for('n8n-nodes-scraper-service:process-groups');
const registry: Registry = ((realProcess as unknown as Record<symbol, Registry>)[REGISTRY_KEY] ??= { groups: new Map(), hooked: false });
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Signals a whole process group (children are started detached, each its own group); ignores a gone group. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (!pid) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// The group has already exited.
	}
}

/** Tracks a group started detached (its leader's pid) until untrackGroup. */
export function trackGroup(pid: number, group: TrackedGroup): void {
	registry.groups.set(pid, group);
	if (registry.hooked) return;
	registry.hooked = true;
	realProcess.on('exit', killAll);
	for (const signal of SIGNALS) realProcess.on(signal, onSignal);
}

export function untrackGroup(pid: number): void {
	registry.groups.delete(pid);
}

/** Runs `listener` when this process exits (the real one, also under jest); returns what removes it again. */
export function onProcessExit(listener: () => void): () => void {
	realProcess.once('exit', listener);
	return () => realProcess.removeListener('exit', listener);
}

/** Stops every tracked group, all at once, each as its own stop() does. */
export async function stopAllGroups(): Promise<void> {
	await Promise.allSettled([...registry.groups.values()].map(async (group) => await group.stop()));
}

function killAll(): void {
	for (const group of registry.groups.values()) group.kill();
	registry.groups.clear();
}

function onSignal(signal: NodeJS.Signals): void {
	// Another listener (the demo's Ctrl-C handler) owns this signal; the exit hook still kills what is left.
	if (realProcess.listeners(signal).some((listener) => listener !== onSignal)) return;
	const code = 128 + (os.constants.signals[signal] ?? 15);
	for (const other of SIGNALS) {
		realProcess.removeListener(other, onSignal);
		// A second Ctrl-C while the groups stop: end them at once.
		realProcess.once(other, () => realProcess.exit(code));
	}
	void stopAllGroups().finally(() => realProcess.exit(code));
}
