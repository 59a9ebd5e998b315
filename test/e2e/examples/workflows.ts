/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test support in plain Node: it reads the example workflow files */
// The example workflows (examples/*.json) and what a run of one output. The checks of each example's run, wherever
// n8n runs it (one process, or a worker in queue mode), are in this folder by node: platform.ts (examples 1, 2,
// 10), pageFetch.ts (9, 11), marketplace.ts (3, 5), gateway.ts (4). The caller clears the simulator's request log
// before the run.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { N8nItem, N8nRun } from '../../../scripts/demo/n8n-run';
import { REPO_ROOT } from '../../../scripts/demo/pack';

export const EXAMPLES = path.join(REPO_ROOT, 'examples');

interface WorkflowFile {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
	[key: string]: unknown;
}

export function example(file: string): WorkflowFile {
	return JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as WorkflowFile;
}

export const keysOf = (items: N8nItem[]) => items.map((i) => Object.keys(i.json));

/**
 * Items a node output in a run (first run of that node, first output). Throws a readable error when the node did
 * not run or failed, so a test shows what went wrong inside n8n.
 */
export function nodeOutput(run: N8nRun, nodeName: string): N8nItem[] {
	const tasks = run.data.resultData.runData[nodeName];
	if (!tasks || tasks.length === 0) {
		throw new Error(`Node "${nodeName}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`);
	}
	const task = tasks[0];
	if (task.error) throw new Error(`Node "${nodeName}" failed: ${task.error.message} ${task.error.description ?? ''}`);
	return task.data?.main?.[0] ?? [];
}
