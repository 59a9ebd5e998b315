// Figure 8's anchor: Page > Fetch against n8n's own HTTP Request node sending the same GET (the fetch host, `?url=`
// read from the item, the token in `x-api-token`), both in one real n8n process. Unlike figure 1's chain, the measured
// nodes hang side by side off one item list: the HTTP Request node's output has no `url` for a next node to read, and
// `$('Items')` lookups through a chain would cost more the deeper a node sits. n8n's v1 order runs them one at a time,
// top to bottom; the order is checked against the run data.
import type { N8nRun } from '../../../scripts/demo/n8n';
import type { LoggedRequest } from '../../simulator/core/log';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { FETCH_ROUTES, FetchSimulator } from '../../simulator/platform/fetch';
import { HTTP_REQUEST_VERSION, listItemNodes, withRealN8n } from './realN8n';
import type { WorkflowNode } from './realN8n';
import type { BenchSettings } from './stats';
import { withRetry } from './stats';

export interface FetchAnchorTimes {
	version: string;
	node: string;
	/** executionTime of each timed run of Page > Fetch over every item, ms. */
	ours: number[];
	/** executionTime of each timed run of the HTTP Request node doing the same GETs, ms. */
	httpRequest: number[];
	/** Requests the fetch host received per item and node, over every execution: 1 is one GET per page. */
	requestsPerItem: number;
	/** Header names each sent (the simulator's log), for the notes. */
	headers: { ours: string[]; httpRequest: string[] };
}

/** Timed rounds per `n8n execute`: each page's HTML is in the run data n8n prints, which must stay a few MB. */
const ROUNDS_PER_EXECUTION = 2;
const WORKFLOW_ID = 'benchFetchAnchor1';
const OUR_UA = 'n8n-nodes-scraper-service';
const CREDENTIALS = { platform: { id: 'benchPlatform0008', name: 'Platform (bench 8)' }, header: { id: 'benchHeader00008', name: 'x-api-token (bench 8)' } };

type Kind = 'ours' | 'httpRequest';

/** What both nodes ask of each page: Page > Fetch's Options, and the same settings as the query the HTTP Request node sends. */
export interface FetchVariant {
	options: Record<string, unknown>;
	/** Beside `url`, in the order Page > Fetch sends them. */
	query: Record<string, string>;
	/**
	 * A base64 field of the answer that Page > Fetch outputs as a file: the HTTP Request node leaves it as text, so
	 * n8n's Convert to File follows it (Move Base64 String to File), as a user wanting the file would add, and its
	 * time counts with the HTTP Request node's.
	 */
	toFile?: string;
}

/** Each node at its defaults: the page's HTML. */
export const HTML_ONLY: FetchVariant = { options: {}, query: {} };

/** One measured node: ours with `variant`'s options, or the HTTP Request node at its defaults with the same query and token. */
function measuredNode(kind: Kind, name: string, index: number, fetchUrl: string, variant: FetchVariant): WorkflowNode {
	const common = { id: `b8000000-0000-4000-8000-${String(index + 101).padStart(12, '0')}`, name, position: [600, 200 * index] as [number, number] };
	return kind === 'ours'
		? {
				...common,
				type: 'n8n-nodes-scraper-service.scraperPlatform',
				typeVersion: 3,
				parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', options: variant.options },
				credentials: { scraperPlatformApi: CREDENTIALS.platform },
			}
		: {
				...common,
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: HTTP_REQUEST_VERSION,
				parameters: {
					url: `${fetchUrl}/`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					sendQuery: true,
					specifyQuery: 'keypair',
					queryParameters: { parameters: [{ name: 'url', value: '={{ $json.url }}' }, ...Object.entries(variant.query).map(([name, value]) => ({ name, value }))] },
					options: {},
				},
				credentials: { httpHeaderAuth: CREDENTIALS.header },
			};
}

/** Items -> a warm-up of each, then `rounds` timed pairs, which goes first alternating; listed in the order n8n runs them. */
function anchorWorkflow(items: number, rounds: number, fetchUrl: string, variant: FetchVariant): { workflow: object; order: Array<{ name: string; kind: Kind; timed: boolean }> } {
	// The item list: one page of the simulator's fake web per item.
	const nodes = listItemNodes('b8', 'URLs', 'url', `Array.from({ length: ${items} }, (_, i) => 'https://shop.example.com/bench/page-' + i)`);
	const order: Array<{ name: string; kind: Kind; timed: boolean }> = [];
	for (let round = 0; round <= rounds; round++) {
		const pair: Kind[] = round % 2 === 0 ? ['httpRequest', 'ours'] : ['ours', 'httpRequest'];
		for (const kind of pair) order.push({ name: `${kind === 'ours' ? 'Page Fetch' : 'HTTP Request'} ${round === 0 ? 'warm-up' : round}`, kind, timed: round > 0 });
	}
	// Ids after the list's nodes (n8n 2.41 refuses a workflow with two nodes of one id); y from 0, the run order.
	order.forEach((m, i) => nodes.push(measuredNode(m.kind, m.name, i, fetchUrl, variant)));
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {
		Start: { main: [[{ node: 'URLs', type: 'main', index: 0 }]] },
		URLs: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
		Items: { main: [order.map((m) => ({ node: m.name, type: 'main', index: 0 }))] },
	};
	// n8n's v1 order runs a branch to its end before the next: each converter right after its HTTP Request node.
	order.forEach((m, i) => {
		if (m.kind !== 'httpRequest' || !variant.toFile) return;
		nodes.push(toFileNode(m.name, i, variant.toFile));
		connections[m.name] = { main: [[{ node: toFileName(m.name), type: 'main', index: 0 }]] };
	});
	return { workflow: { id: WORKFLOW_ID, name: 'Bench: HTTP Request node vs Page > Fetch', active: false, nodes, connections, settings: { executionOrder: 'v1' } }, order };
}

const toFileName = (httpNode: string) => `${httpNode} to file`;

/** n8n's Convert to File after an HTTP Request node: the answer's base64 `field` becomes the item's file `field`. */
function toFileNode(httpNode: string, index: number, field: string): WorkflowNode {
	return {
		id: `b8000000-0000-4000-8000-${String(index + 501).padStart(12, '0')}`,
		name: toFileName(httpNode),
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [800, 200 * index],
		parameters: { operation: 'toBinary', sourceProperty: field, binaryPropertyName: field, options: {} },
	};
}

interface Task {
	executionTime?: number;
	startTime?: number;
	error?: { message?: string };
	data?: { main?: Array<Array<{ json: Record<string, unknown> }> | null> };
}

/** Each measured node's executionTime, after checking it ran, output every item and ran in the planned order. */
/** A node's task in the run, checked: it ran without error, output every item, and n8n timed it. */
function taskOf(run: N8nRun, name: string, items: number): Task {
	const task = run.data.resultData.runData[name]?.[0] as Task | undefined;
	if (!task) throw new Error(`${name} did not run (${run.data.resultData.error?.message ?? 'no error'})`);
	if (task.error) throw new Error(`${name} failed: ${task.error.message}`);
	const out = task.data?.main?.[0] ?? [];
	if (out.length !== items) throw new Error(`${name} output ${out.length} items, expected ${items}`);
	if (typeof task.executionTime !== 'number') throw new Error(`n8n recorded no executionTime for ${name}`);
	return task;
}

/**
 * Each measured node's executionTime (an HTTP Request node's with its Convert to File's, when the variant has one),
 * after checking it ran, output every item and ran in the planned order.
 */
function timesOf(run: N8nRun, order: Array<{ name: string; kind: Kind }>, items: number, variant: FetchVariant): number[] {
	const tasks = order.map(({ name }) => taskOf(run, name, items));
	const started = tasks.map((t) => t.startTime ?? 0);
	if (started.some((t, i) => i > 0 && t < started[i - 1])) throw new Error(`n8n ran the measured nodes in another order than planned: ${order.map((o) => o.name).join(', ')}`);
	return tasks.map((t, i) => {
		if (order[i].kind !== 'httpRequest' || !variant.toFile) return t.executionTime as number;
		return (t.executionTime as number) + (taskOf(run, toFileName(order[i].name), items).executionTime as number);
	});
}

/** Runs the anchor workflow in a real n8n `version` until each node has `settings.reps` timed runs. */
export async function fetchAnchorInRealN8n(version: string, items: number, settings: BenchSettings, variant: FetchVariant = HTML_ONLY): Promise<FetchAnchorTimes> {
	const { reps, log } = settings;
	// Rate window raised: this figure measures per-item cost, not 429s (figure 7 does).
	const platform = new PlatformSimulator({ rateLimit: 1_000_000 });
	const fetchHost = new FetchSimulator(platform);
	await Promise.all([platform.listen(), fetchHost.listen()]);
	const { workflow, order } = anchorWorkflow(items, ROUNDS_PER_EXECUTION, fetchHost.url, variant);
	const credentials = [
		{ ...CREDENTIALS.platform, type: 'scraperPlatformApi', data: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url, fetchBaseUrl: fetchHost.url, searchBaseUrl: fetchHost.url } },
		{ ...CREDENTIALS.header, type: 'httpHeaderAuth', data: { name: 'x-api-token', value: PLATFORM_DEMO_TOKEN } },
	];
	try {
		return await withRealN8n(version, { credentials, workflows: [workflow] }, async (session) => {
			const result: FetchAnchorTimes = { version, node: session.node, ours: [], httpRequest: [], requestsPerItem: 0, headers: { ours: [], httpRequest: [] } };
			let sent = 0;
			let executions = 0;
			while (result.ours.length < reps) {
				executions++;
				log(`  n8n ${version}, execution ${executions}: ${order.length} nodes x ${items} page fetches ...`);
				// The pipe can lose the end of a few MB of output when n8n exits: that execution is run again.
				const { run, requests } = await withRetry(settings, `n8n ${version} fetch execution ${executions}`, async () => {
					fetchHost.server.log.clear();
					const done = await session.execute(WORKFLOW_ID);
					return { run: done, requests: fetchHost.server.log.for(FETCH_ROUTES.fetch) };
				});
				const times = timesOf(run, order, items, variant);
				for (const [i, m] of order.entries()) if (m.timed) result[m.kind].push(times[i]);
				log(`    ${order.map((m, i) => `${m.name} ${times[i]} ms`).join(', ')}`);
				checkRequests(requests, order.length, items, variant);
				sent += requests.length;
				const ours = requests.find((r) => r.headers['user-agent'] === OUR_UA);
				const theirs = requests.find((r) => r.headers['user-agent'] !== OUR_UA);
				result.headers = { ours: Object.keys(ours?.headers ?? {}).sort(), httpRequest: Object.keys(theirs?.headers ?? {}).sort() };
			}
			result.requestsPerItem = sent / (executions * order.length * items);
			return result;
		});
	} finally {
		await fetchHost.close();
		await platform.close();
	}
}

/** Every request the same GET: the token, `url` and the variant's query, answered 200; half of them ours. */
function checkRequests(requests: LoggedRequest[], nodes: number, items: number, variant: FetchVariant): void {
	if (requests.length !== nodes * items) throw new Error(`the fetch host saw ${requests.length} requests, expected ${nodes * items}`);
	const ours = requests.filter((r) => r.headers['user-agent'] === OUR_UA).length;
	if (ours !== (nodes / 2) * items) throw new Error(`${ours} requests came from our node, expected ${(nodes / 2) * items}`);
	const expected = JSON.stringify(variant.query);
	const odd = requests.find(({ query: { url, ...rest }, ...r }) => r.headers['x-api-token'] !== PLATFORM_DEMO_TOKEN || !url || JSON.stringify(rest) !== expected || r.status !== 200);
	if (odd) throw new Error(`a request differed from the rest: ${JSON.stringify({ query: odd.query, status: odd.status })}`);
}
