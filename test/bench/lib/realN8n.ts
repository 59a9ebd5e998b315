/* eslint-disable @n8n/community-nodes/no-restricted-imports -- benchmark code runs in plain Node: it installs and runs a real n8n and writes its workflow to a temp folder */
// Figure 1's anchor: what a user would pick instead of our node is n8n's own HTTP Request node. Both run in the same
// real n8n process (installed from the registry into the e2e cache, our core package installed into it as n8n's
// installer does), in one workflow that alternates them over the same 1,000 items, and each node's time is the
// `executionTime` n8n itself records for it. So the ratio compares like with like on each n8n version, whatever
// that version's HTTP helper does with connections.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { N8nInstance } from '../../../scripts/demo/n8n';
import type { N8nRun } from '../../../scripts/demo/n8n';
import { buildAndPack } from '../../../scripts/demo/pack';
import { ensureN8n } from '../../../scripts/demo/runtime';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator, PLATFORM_ROUTES } from '../../simulator/platform';
import type { BenchSettings } from './stats';
import { withRetry } from './stats';

export interface RealN8nTimes {
	version: string;
	node: string;
	/** executionTime of each timed run of our node (Account > Get over every item), ms. */
	ours: number[];
	/** executionTime of each timed run of n8n's HTTP Request node (the same GET over every item), ms. */
	httpRequest: number[];
	/** HTTP Request node type version used. */
	httpRequestVersion: number;
	/** Connection header the simulator saw on our node's requests. */
	connection: string;
}

export const HTTP_REQUEST_VERSION = 4.2;
/**
 * Timed rounds per execution. `n8n execute` prints the whole run data and exits: past a few MB of output the pipe
 * loses the end of it, so a long series runs as several executions of a few rounds each.
 */
const ROUNDS_PER_EXECUTION = 2;

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	/** Node setting "On Error"; n8n stops the workflow when it is not set. */
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
}

type TimedKind = 'ours' | 'httpRequest';

/** Manual Trigger -> N items -> (HTTP Request, our node) x (1 warm-up + rounds), chained: each gets the same N items. */
function anchorWorkflow(items: number, rounds: number, baseUrl: string): { workflow: object; timed: Array<{ name: string; kind: TimedKind }> } {
	const nodes = listItemNodes('b0', 'Numbers', 'n', `Array.from({ length: ${items} }, (_, i) => i)`);
	const timed: Array<{ name: string; kind: TimedKind }> = [];
	for (let round = 0; round <= rounds; round++) {
		// Round 0 warms both up (JIT, first connections); rounds alternate which one goes first.
		const pair: TimedKind[] = round % 2 === 0 ? ['httpRequest', 'ours'] : ['ours', 'httpRequest'];
		for (const kind of pair) {
			const name = `${kind === 'ours' ? 'Scraper Platform' : 'HTTP Request'} ${round === 0 ? 'warm-up' : round}`;
			nodes.push(timedNode(kind, name, nodes.length, baseUrl));
			if (round > 0) timed.push({ name, kind });
		}
	}
	return {
		workflow: { id: 'benchHttpAnchor1', name: 'Bench: HTTP Request node vs Scraper Platform', active: false, nodes, connections: chained(nodes), settings: { executionOrder: 'v1' } },
		timed,
	};
}

/**
 * Manual Trigger -> Set (`field`: the array the expression `values` gives) -> Split Out: one item per element, the
 * start of every real-n8n benchmark workflow. Node ids start with `idPrefix` (two hex digits), unique per workflow.
 */
export function listItemNodes(idPrefix: string, listName: string, field: string, values: string): WorkflowNode[] {
	const id = (n: number) => `${idPrefix}000000-0000-4000-8000-00000000000${n}`;
	return [
		{ id: id(1), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: id(2),
			name: listName,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: {
				mode: 'manual',
				assignments: { assignments: [{ id: `${idPrefix}100000-0000-4000-8000-000000000001`, name: field, value: `={{ ${values} }}`, type: 'array' }] },
				includeOtherFields: false,
				options: {},
			},
		},
		{ id: id(3), name: 'Items', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [400, 0], parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} } },
	];
}

/** Our node (Account > Get) or n8n's HTTP Request node (the same GET with Header Auth), as the workflow's `index`th node. */
function timedNode(kind: TimedKind, name: string, index: number, baseUrl: string): WorkflowNode {
	const id = `b0000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
	if (kind === 'ours') {
		return {
			id,
			name,
			type: 'n8n-nodes-scraper-service.scraperPlatform',
			typeVersion: 1,
			position: [200 * index, 0],
			parameters: { resource: 'account', operation: 'get' },
			credentials: { scraperPlatformApi: { id: 'benchPlatform0001', name: 'Platform (bench)' } },
		};
	}
	return {
		id,
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position: [200 * index, 0],
		parameters: { url: `${baseUrl}/api/v1/subscription-accounts`, authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth', options: {} },
		credentials: { httpHeaderAuth: { id: 'benchHeader00001', name: 'x-api-token (bench)' } },
	};
}

/** Each node's main output into the next one's input. */
export function chained(nodes: WorkflowNode[]): Record<string, { main: Array<Array<{ node: string; type: 'main'; index: 0 }>> }> {
	const connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: 0 }>> }> = {};
	for (let i = 0; i < nodes.length - 1; i++) connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return connections;
}

function executionTime(run: N8nRun, name: string, items: number): number {
	const task = run.data.resultData.runData[name]?.[0] as ({ executionTime?: number; error?: { message?: string }; data?: { main?: unknown[][] } } | undefined);
	if (!task) throw new Error(`${name} did not run`);
	if (task.error) throw new Error(`${name} failed: ${task.error.message}`);
	const out = task.data?.main?.[0]?.length ?? 0;
	if (out !== items) throw new Error(`${name} output ${out} items, expected ${items}`);
	if (typeof task.executionTime !== 'number') throw new Error(`n8n recorded no executionTime for ${name}`);
	return task.executionTime;
}

/** Runs the anchor workflow once in a real n8n `version` (installed into the e2e cache when missing). */
export async function measureInRealN8n(version: string, items: number, settings: BenchSettings): Promise<RealN8nTimes> {
	const { reps, log } = settings;
	const runtime = await ensureN8n(version);
	const [coreTarball] = await buildAndPack({ build: false });
	const sim = new PlatformSimulator();
	await sim.listen();
	const folder = mkdtempSync(path.join(os.tmpdir(), `bench-n8n-${version}-`));
	try {
		const n8n = new N8nInstance({ runtime, userFolder: folder });
		await n8n.installCommunityPackage(coreTarball);
		await n8n.importCredentials([
			{ id: 'benchPlatform0001', name: 'Platform (bench)', type: 'scraperPlatformApi', data: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: sim.url } },
			{ id: 'benchHeader00001', name: 'x-api-token (bench)', type: 'httpHeaderAuth', data: { name: 'x-api-token', value: PLATFORM_DEMO_TOKEN } },
		]);
		const { workflow, timed } = anchorWorkflow(items, ROUNDS_PER_EXECUTION, sim.url);
		const file = path.join(folder, 'bench-workflow.json');
		writeFileSync(file, JSON.stringify(workflow));
		await n8n.importWorkflows(file);
		const ours: number[] = [];
		const httpRequest: number[] = [];
		let connection = '(none)';
		for (let execution = 1; ours.length < reps; execution++) {
			log(`  n8n ${version}, execution ${execution}: ${timed.length + 2} nodes x ${items} requests ...`);
			// The pipe can still lose the end of a few MB of output when n8n exits: that execution is run again.
			const run = await withRetry(settings, `n8n ${version} execution ${execution}`, async () => {
				sim.server.log.clear();
				const result = await n8n.execute('benchHttpAnchor1', 900_000);
				if (!result.run) throw new Error(`n8n ${version} printed no readable run data (exit ${result.code}, ${result.stdout.length} characters on stdout)`);
				return result.run;
			});
			const sent = sim.server.log.count(PLATFORM_ROUTES.subscriptionAccount);
			if (sent !== (timed.length + 2) * items) throw new Error(`the simulator saw ${sent} requests, expected ${(timed.length + 2) * items}`);
			ours.push(...timed.filter((t) => t.kind === 'ours').map((t) => executionTime(run, t.name, items)));
			httpRequest.push(...timed.filter((t) => t.kind === 'httpRequest').map((t) => executionTime(run, t.name, items)));
			connection = String(sim.server.log.entries.find((e) => String(e.headers['user-agent'] ?? '').includes('scraper'))?.headers.connection ?? '(none)');
		}
		return { version, node: runtime.nodeVersion, ours, httpRequest, httpRequestVersion: HTTP_REQUEST_VERSION, connection };
	} finally {
		await sim.close();
		rmSync(folder, { recursive: true, force: true });
	}
}

/** A real n8n with our packed core installed and a figure's credentials and workflows imported (`withRealN8n`). */
export interface RealN8nSession {
	version: string;
	/** The Node version it runs on. */
	node: string;
	/** `n8n execute` of one imported workflow: its run data, or an error when n8n printed none. */
	execute: (workflowId: string, timeoutMs?: number) => Promise<N8nRun>;
}

/**
 * Runs `fn` with a real n8n `version` (installed into the e2e cache when missing), our packed core installed as n8n's
 * installer does, `credentials` ({id, name, type, data}) and `workflows` imported. For figures that measure a
 * workflow of their own; each `execute` is one `n8n execute` process (a few seconds to start).
 */
export async function withRealN8n<T>(
	version: string,
	setup: { credentials: unknown[]; workflows: object[] },
	fn: (session: RealN8nSession) => Promise<T>,
): Promise<T> {
	const runtime = await ensureN8n(version);
	const [coreTarball] = await buildAndPack({ build: false });
	const folder = mkdtempSync(path.join(os.tmpdir(), `bench-n8n-${version}-`));
	try {
		const n8n = new N8nInstance({ runtime, userFolder: folder });
		await n8n.installCommunityPackage(coreTarball);
		await n8n.importCredentials(setup.credentials);
		for (const [index, workflow] of setup.workflows.entries()) {
			const file = path.join(folder, `bench-workflow-${index}.json`);
			writeFileSync(file, JSON.stringify(workflow));
			await n8n.importWorkflows(file);
		}
		return await fn({
			version,
			node: runtime.nodeVersion,
			execute: async (workflowId, timeoutMs = 900_000) => {
				const result = await n8n.execute(workflowId, timeoutMs);
				if (!result.run) throw new Error(`n8n ${version} printed no readable run data (exit ${result.code}, ${result.stdout.length} characters on stdout)`);
				return result.run;
			},
		});
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
