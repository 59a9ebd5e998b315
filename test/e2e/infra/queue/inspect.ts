/* eslint-disable @n8n/community-nodes/no-restricted-imports -- e2e tooling in plain Node: it reads /proc and probes ports and folders */
// What the queue-mode cluster's processes use, and what of them is left after a stop.
import { existsSync } from 'node:fs';

import type { ManagedProcess } from '../../../../scripts/demo/managed-process';
import { portInUse } from '../../../../scripts/demo/ports';
import { commandOf, descendants, groupMembers, isAlive, rssKb } from './procfs';

/** Memory of one process and its children (task runners), from /proc. */
export interface ProcessMemory {
	name: string;
	pid: number;
	rssKb: number;
	children: Array<{ pid: number; command: string; rssKb: number }>;
}

/** VmRSS of each running process and of its children. */
export function memoryOf(members: Array<{ name: string; process: ManagedProcess }>): ProcessMemory[] {
	const result: ProcessMemory[] = [];
	for (const member of members) {
		const pid = member.process.pid;
		if (!pid || !member.process.running) continue;
		const children = descendants(pid).map((child) => ({ pid: child, command: commandOf(child), rssKb: rssKb(child) }));
		result.push({ name: member.name, pid, rssKb: rssKb(pid), children });
	}
	return result;
}

/** What still runs of these processes (or of their process groups), which of these ports listen, whether the folder exists. */
export async function leftoversOf(processes: ManagedProcess[], ports: number[], folder: string): Promise<string[]> {
	const left: string[] = [];
	for (const pid of processes.flatMap((p) => (p.pid ? [p.pid] : []))) {
		if (isAlive(pid)) left.push(`process ${pid} (${commandOf(pid).slice(0, 120)})`);
		// Anything still in its process group (a task runner, a PostgreSQL backend).
		for (const member of groupMembers(pid)) {
			if (member !== pid) left.push(`process ${member} in group ${pid} (${commandOf(member).slice(0, 120)})`);
		}
	}
	for (const port of ports) if (await portInUse(port)) left.push(`port ${port}`);
	if (existsSync(folder)) left.push(`folder ${folder}`);
	return left;
}
