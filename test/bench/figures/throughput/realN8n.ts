 
import type { IDataObject } from 'n8n-workflow';

import { N8N_STABLE } from '../../../../scripts/demo/runtime';
import type { N8nRun } from '../../../../scripts/demo/n8n';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../../simulator/platform';
import { chained, HTTP_REQUEST_VERSION, listItemNodes, withRealN8n } from '../../lib/realN8n';
import type { RealN8nSession, WorkflowNode } from '../../lib/realN8n';
import type { BenchSettings } from '../../lib/stats';
import { withRetry } from '../../lib/stats';
import { SCRAPER_ID, WORKLOADS, isFailure, observed, startSimulator } from './workloads';
import type { RunStats, Workload } from './workloads';

/** Figure 7 in a real n8n: our node with Auto next to n8n's HTTP Request node with Batching. */

export const HEADER_CREDENTIAL = { id: 'benchThrHeader01', name: 'x-api-token (bench)' };

export function itemsNodes(w: Workload, ids: string[], tag: string): WorkflowNode[] {
	const field = w.key === 'rerun' ? 'url' : 'id';
	const values = w.key === 'rerun' ? `Array.from({ length: ${w.items} }, (_, i) => 'https://shop.example.com/throughput/${tag}/' + i)` : JSON.stringify(ids);
	return listItemNodes('c0', 'List', field, values);
}

/** n8n's HTTP Request node sending what our node sends: same method, path, `x-api-token` and `accept` headers, body. */
export function httpRequestNode(w: Workload, baseUrl: string): WorkflowNode {
	const common = {
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		sendHeaders: true,
		headerParameters: { parameters: [{ name: 'accept', value: 'application/json' }] },
		options: { batching: { batch: { batchSize: w.batchSize, batchInterval: 0 } } },
	};
	const parameters =
		w.key === 'rerun'
			? {
					method: 'POST',
					url: `${baseUrl}/api/v1/scrapers-ai-rerun`,
					...common,
					sendBody: true,
					contentType: 'json',
					specifyBody: 'keypair',
					bodyParameters: { parameters: [{ name: 'scraperId', value: SCRAPER_ID }, { name: 'url', value: '={{ $json.url }}' }] },
				}
			: { method: 'GET', url: `=${baseUrl}/api/v1/results/{{ $json.id }}`, ...common };
	return {
		id: 'c0000000-0000-4000-8000-000000000004',
		name: 'Measured',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position: [600, 0],
		parameters,
		credentials: { httpHeaderAuth: HEADER_CREDENTIAL },
		onError: 'continueRegularOutput',
	};
}

export function ourNode(w: Workload, credentialId: string): WorkflowNode {
	const locator = (value: string) => ({ __rl: true, mode: 'id', value });
	const parameters =
		w.key === 'rerun'
			? { resource: 'aiScraper', operation: 'rerun', scraperId: locator(SCRAPER_ID), url: '={{ $json.url }}', options: { parallel: { settings: { auto: true, requests: 100 } } } }
			: { resource: 'result', operation: 'get', resultId: locator('={{ $json.id }}'), options: { parallel: { settings: { auto: true, requests: 100 } } } };
	return {
		id: 'c0000000-0000-4000-8000-000000000004',
		name: 'Measured',
		type: 'n8n-nodes-scraper-service.scraperPlatform',
		// Version 3, where Parallel Requests is the option the parameters above set (version 2 keeps it in its own collection).
		typeVersion: 3,
		position: [600, 0],
		parameters,
		credentials: { scraperPlatformApi: { id: credentialId, name: `Platform (bench ${credentialId})` } },
		onError: 'continueRegularOutput',
	};
}

export function workflow(id: string, name: string, nodes: WorkflowNode[]): object {
	return { id, name, active: false, nodes, connections: chained(nodes), settings: { executionOrder: 'v1' } };
}

export interface RealCase {
	w: Workload;
	kind: 'ours' | 'httpRequest';
	workflowId: string;
	sim: PlatformSimulator;
}

/** The measured node's executionTime and output, as n8n recorded them. */
export function measuredNode(run: N8nRun, items: number): { executionTime: number; answered: number; failed: number; failedWith429: number } {
	const task = run.data.resultData.runData.Measured?.[0] as { executionTime?: number; error?: { message?: string }; data?: { main?: Array<Array<{ json: IDataObject }> | null> } } | undefined;
	if (!task) throw new Error(`the measured node did not run (${run.data.resultData.error?.message ?? 'no error'})`);
	if (task.error) throw new Error(`the measured node failed: ${task.error.message}`);
	const out = task.data?.main?.[0] ?? [];
	if (out.length !== items) throw new Error(`the measured node output ${out.length} items, expected ${items}`);
	if (typeof task.executionTime !== 'number') throw new Error('n8n recorded no executionTime');
	const failedItems = out.filter((item) => isFailure(item.json));
	const failedWith429 = failedItems.filter((item) => /429|too many requests|spacing your requests/i.test(JSON.stringify(item.json.error))).length;
	return { executionTime: task.executionTime, answered: out.length - failedItems.length, failed: failedItems.length, failedWith429 };
}

export interface RealResult {
	version: string;
	node: string;
	ours: Record<Workload['key'], RunStats>;
	httpRequest: Record<Workload['key'], RunStats & { failedWith429: number }>;
}

export async function measureRealN8n(settings: BenchSettings): Promise<RealResult> {
	const cases: RealCase[] = [];
	const started: PlatformSimulator[] = [];
	try {
		const credentials: unknown[] = [{ id: HEADER_CREDENTIAL.id, name: HEADER_CREDENTIAL.name, type: 'httpHeaderAuth', data: { name: 'x-api-token', value: PLATFORM_DEMO_TOKEN } }];
		const workflows: object[] = [];
		for (const w of WORKLOADS) {
			for (const kind of ['httpRequest', 'ours'] as const) {
				const { sim, ids } = await startSimulator(w);
				started.push(sim);
				const workflowId = `benchThr${w.key === 'rerun' ? 'Rrun' : 'Rslt'}${kind === 'ours' ? 'Ours' : 'Http'}`;
				const credentialId = `benchThrCred${cases.length.toString().padStart(4, '0')}`;
				if (kind === 'ours') credentials.push({ id: credentialId, name: `Platform (bench ${credentialId})`, type: 'scraperPlatformApi', data: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: sim.url } });
				const measured = kind === 'ours' ? ourNode(w, credentialId) : httpRequestNode(w, sim.url);
				workflows.push(workflow(workflowId, `Bench: throughput, ${w.title}, ${kind}`, [...itemsNodes(w, ids, `n8n-${kind}`), measured]));
				cases.push({ w, kind, workflowId, sim });
			}
		}
		settings.log(`  real n8n ${N8N_STABLE}: installing our package, importing ${workflows.length} workflows ...`);
		return await withRealN8n(N8N_STABLE, { credentials, workflows }, async (session: RealN8nSession) => {
			const ours = {} as RealResult['ours'];
			const httpRequest = {} as RealResult['httpRequest'];
			for (const c of cases) {
				const label = `${c.w.key} ${c.kind === 'ours' ? 'our node, Auto' : `HTTP Request node, Batching ${c.w.batchSize} / 0 ms`}`;
				settings.log(`  real n8n ${session.version}: ${label}, ${c.w.items} items ...`);
				let node: ReturnType<typeof measuredNode> | undefined;
				const stats = await withRetry(settings, `n8n ${session.version} ${label}`, () =>
					observed(c.sim, c.w, async () => {
						node = measuredNode(await session.execute(c.workflowId), c.w.items);
						return node;
					}),
				);
				if (!node) throw new Error('no run data');
				// executionTime is n8n's own record of the node; the wall time around `n8n execute` includes its start.
				const result = { ...stats, wallMs: node.executionTime };
				settings.log(`  real n8n: ${label}: ${node.executionTime} ms, ${stats.sent} requests, ${stats.refused} answered 429, peak ${stats.peak}, ${node.failed} failed`);
				if (c.kind === 'ours') ours[c.w.key] = result;
				else httpRequest[c.w.key] = { ...result, failedWith429: node.failedWith429 };
			}
			return { version: session.version, node: session.node, ours, httpRequest };
		});
	} finally {
		for (const sim of started) await sim.close();
	}
}

// ---------------------------------------------------------------------------------------------------------------
