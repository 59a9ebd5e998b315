/* eslint-disable @n8n/community-nodes/no-restricted-imports -- e2e tooling in plain Node: it reads /proc */
// Processes as /proc shows them (no `ps`/`pgrep`: slim images lack procps): what runs, its memory, its children.
import { readdirSync, readFileSync } from 'node:fs';

/** VmRSS of a process in kB (0 when it is gone). */
export function rssKb(pid: number): number {
	try {
		const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m);
		return match ? Number(match[1]) : 0;
	} catch {
		return 0;
	}
}

/** Every process in /proc with its parent and process group. */
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

/** True while the process runs; a zombie (exited, not yet reaped) counts as gone. */
export function isAlive(pid: number | undefined): boolean {
	return pid !== undefined && processTable().some((p) => p.pid === pid && !p.zombie);
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

/** A process's command line, arguments joined by spaces ('' when it is gone). */
export function commandOf(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
	} catch {
		return '';
	}
}
