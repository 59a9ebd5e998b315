/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code in plain Node, never inside n8n: it samples the simulator on a timer while a run goes */
import type { IDataObject } from 'n8n-workflow';

import { N8N_STABLE } from '../../../scripts/demo/runtime';
import type { N8nRun } from '../../../scripts/demo/n8n';
import { runNode } from '../../harness';
import { DEMO_AI_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator, PLATFORM_ROUTES } from '../../simulator/platform';
import { callPlatform } from '../../simulator/platform/client';
import { platformCredentials } from '../lib/platform';
import { HTTP_REQUEST_VERSION, withRealN8n } from '../lib/realN8n';
import type { RealN8nSession, WorkflowNode } from '../lib/realN8n';
import type { FigureResult, Measure } from '../lib/report';
import type { BenchSettings } from '../lib/stats';
import { collectGarbage, interleaved, median, withRetry } from '../lib/stats';

/** Goals of the issue that asked for this figure. */
const SPEEDUP_GOAL = 8;
const FLOOR_GOAL = 1.15;
const SHARE_429_GOAL = 5;
/** Auto is repeated (warm-up + settings.reps, median) when the physical limit is below this; otherwise timed once. */
const REPEAT_BELOW_MS = 5_000;

/** One workload: N items of one operation against an account with a concurrency limit and a fixed latency. */
interface Workload {
	key: 'rerun' | 'result';
	title: string;
	items: number;
	latencyMs: number;
	limit: number;
	route: string;
	/** HTTP Request node's Batching: items per batch (the account's limit), interval 0 ms. */
	batchSize: number;
}

const WORKLOADS: Workload[] = [
	{ key: 'rerun', title: 'AI Scraper > Rerun', items: 200, latencyMs: 2_000, limit: 10, route: PLATFORM_ROUTES.rerun, batchSize: 10 },
	{ key: 'result', title: 'Result > Get', items: 1_000, latencyMs: 100, limit: 100, route: PLATFORM_ROUTES.result, batchSize: 100 },
];

const SCRAPER_ID = DEMO_AI_SCRAPER_IDS.general;

/** What one run did, as the simulator (requests, 429s, peak) and the node's output (failed items) tell it. */
interface RunStats {
	wallMs: number;
	/** Items out without an error. */
	answered: number;
	failed: number;
	sent: number;
	refused: number;
	peak: number;
	/** Per latency-long window from the first request: most requests seen in flight, and 429s answered in it. */
	windows?: Array<{ inFlight: number; refused: number }>;
}

const floorMs = (w: Workload) => (w.items * w.latencyMs) / w.limit;
const thousands = (n: number) => n.toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)} s`;

/** A simulator for one workload: its account limit and route latency set, Result > Get's results seeded. */
async function startSimulator(w: Workload): Promise<{ sim: PlatformSimulator; ids: string[] }> {
	const sim = new PlatformSimulator({ concurrencyLimit: w.limit, latencyMs: { [w.route]: w.latencyMs } });
	await sim.listen();
	const ids: string[] = [];
	if (w.key === 'result') {
		sim.seedResults(PLATFORM_DEMO_TOKEN, w.items);
		for (let page = 1; ids.length < w.items; page++) {
			const listed = await callPlatform<Array<{ id: string }>>(sim.url, 'GET', '/api/v1/results', { query: { page, pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC' } });
			if (listed.body.data.length === 0) break;
			ids.push(...listed.body.data.map((r) => r.id));
		}
		if (ids.length !== w.items) throw new Error(`seeded ${ids.length} results, expected ${w.items}`);
	}
	return { sim, ids };
}

/** Input items: a fresh URL per rerun (the simulator's rerun cache never applies), or one result id each. */
function inputFor(w: Workload, ids: string[], tag: string): IDataObject[] {
	return w.key === 'rerun'
		? Array.from({ length: w.items }, (_, i) => ({ url: `https://shop.example.com/throughput/${tag}/${i}` }))
		: ids.map((id) => ({ id }));
}

function ourParameters(w: Workload, parallel?: IDataObject): IDataObject {
	const base: IDataObject =
		w.key === 'rerun'
			? { resource: 'aiScraper', operation: 'rerun', scraperId: SCRAPER_ID, url: '={{ $json.url }}' }
			: { resource: 'result', operation: 'get', resultId: '={{ $json.id }}' };
	return parallel ? { ...base, parallel } : base;
}

/** Samples the account's requests in flight while `fn` runs; summarises per latency-long window. */
async function observed(sim: PlatformSimulator, w: Workload, fn: () => Promise<{ answered: number; failed: number }>): Promise<RunStats> {
	sim.server.log.clear();
	sim.resetConcurrencyStats();
	const samples: Array<{ at: number; inFlight: number }> = [];
	const timer = setInterval(() => samples.push({ at: Date.now(), inFlight: sim.concurrencyStats(PLATFORM_DEMO_TOKEN).inFlight }), Math.max(5, w.latencyMs / 10));
	const t0 = performance.now();
	let outcome: { answered: number; failed: number };
	try {
		outcome = await fn();
	} finally {
		clearInterval(timer);
	}
	const wallMs = performance.now() - t0;
	const stats = sim.concurrencyStats(PLATFORM_DEMO_TOKEN);
	const entries = sim.server.log.for(w.route);
	const windows: Array<{ inFlight: number; refused: number }> = [];
	// Windows start at the first request (a real n8n takes seconds to start before it sends any).
	const origin = entries.length > 0 ? Math.min(...entries.map((e) => e.at)) : Date.now();
	const windowOf = (at: number) => {
		const index = Math.max(0, Math.floor((at - origin) / w.latencyMs));
		while (windows.length <= index) windows.push({ inFlight: 0, refused: 0 });
		return windows[index];
	};
	for (const s of samples.filter((x) => x.at >= origin)) windowOf(s.at).inFlight = Math.max(windowOf(s.at).inFlight, s.inFlight);
	for (const e of entries) if (e.status === 429) windowOf(e.at).refused++;
	return { wallMs, ...outcome, sent: entries.length, refused: stats.refused, peak: stats.peak, windows };
}

/**
 * An item the node failed (Continue On Fail / On Error: Continue): `error` set and no answer. Answers carry `error`
 * too (a result record's own field, null unless the scrape failed): ours has the record's `id`, the HTTP Request
 * node's the body's `data`.
 */
function isFailure(json: IDataObject): boolean {
	return json.error !== undefined && json.error !== null && json.id === undefined && json.data === undefined;
}

/** Our node in the harness (n8n-core's WorkflowExecute, this process), Continue On Fail so failures are counted. */
async function runOurs(sim: PlatformSimulator, w: Workload, input: IDataObject[], parallel?: IDataObject): Promise<{ answered: number; failed: number }> {
	collectGarbage();
	const result = await runNode({
		nodeType: 'scraperPlatform',
		parameters: ourParameters(w, parallel) as never,
		credentials: platformCredentials(sim),
		input,
		continueOnFail: true,
	});
	if (result.error) throw new Error(`benchmark run failed: ${result.error.message}`);
	if (result.items.length !== input.length) throw new Error(`node output ${result.items.length} items, expected ${input.length}`);
	result.items.forEach((item, i) => {
		if ((item.pairedItem as { item: number } | undefined)?.item !== i) throw new Error('output order changed');
	});
	const failed = result.items.filter((item) => isFailure(item.json)).length;
	return { answered: result.items.length - failed, failed };
}

/** Logs how many requests the simulator has answered, every 30 s, during a long run. */
function progress(settings: BenchSettings, sim: PlatformSimulator, w: Workload, what: string): () => void {
	const started = Date.now();
	const timer = setInterval(() => {
		settings.log(`    ${what}: ${sim.server.log.count(w.route)} requests after ${((Date.now() - started) / 1000).toFixed(0)} s`);
	}, 30_000);
	return () => clearInterval(timer);
}

interface HarnessResult {
	sequential: RunStats;
	auto: RunStats;
	/** Every timed run of Auto (one when the workload is long). */
	autoRuns: RunStats[];
	/** Attribution, short workloads only: Requests at Once fixed at the account's limit (no discovery). */
	fixed?: RunStats;
	fixedRuns?: RunStats[];
	autoSamples: number[];
	fixedSamples?: number[];
	repeated: boolean;
}

async function measureHarness(settings: BenchSettings, w: Workload): Promise<HarnessResult> {
	const { sim, ids } = await startSimulator(w);
	try {
		let tag = 0;
		const nextInput = (name: string) => inputFor(w, ids, `${name}-${++tag}`);
		const auto: RunStats[] = [];
		const fixed: RunStats[] = [];
		const runAuto = async () => auto.push(await observed(sim, w, () => runOurs(sim, w, nextInput('auto'), { auto: true })));
		const runFixed = async () => fixed.push(await observed(sim, w, () => runOurs(sim, w, nextInput('fixed'), { requests: w.limit })));
		let autoRuns: RunStats[];
		let fixedRuns: RunStats[] | undefined;
		let autoSamples: number[];
		let fixedSamples: number[] | undefined;
		const repeated = floorMs(w) < REPEAT_BELOW_MS;
		if (repeated) {
			// Short: warm-up + reps, Auto taking turns with Requests at Once fixed at the limit (what finding the limit costs).
			const samples = await interleaved(settings, w.key, { auto: runAuto, fixed: runFixed });
			autoRuns = auto.slice(settings.warmups);
			fixedRuns = fixed.slice(settings.warmups);
			autoSamples = samples.auto;
			fixedSamples = samples.fixed;
		} else {
			// Long: one timed run; its time is the latency the limit allows, not noise.
			settings.log(`  ${w.key}: Auto, ${w.items} items: about ${seconds(floorMs(w))} at best ...`);
			await withRetry(settings, `${w.key} auto`, runAuto);
			autoRuns = auto.slice(-1);
			autoSamples = autoRuns.map((r) => r.wallMs);
		}
		const last = autoRuns[autoRuns.length - 1];
		settings.log(`  ${w.key}: Auto ${last.wallMs.toFixed(0)} ms, ${last.sent} requests, ${last.refused} answered 429, peak ${last.peak}, ${last.failed} failed`);
		settings.log(`  ${w.key}: sequential (Parallel Requests not set), ${w.items} items: about ${seconds(w.items * w.latencyMs)} ...`);
		const stop = progress(settings, sim, w, `${w.key} sequential`);
		const sequential = await withRetry(settings, `${w.key} sequential`, () => observed(sim, w, () => runOurs(sim, w, nextInput('sequential')))).finally(stop);
		settings.log(`  ${w.key}: sequential ${sequential.wallMs.toFixed(0)} ms, ${sequential.failed} failed`);
		const medianRun = (runs: RunStats[], samples: number[]) => runs[samples.indexOf([...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) / 2)])] ?? runs[0];
		return {
			sequential,
			auto: medianRun(autoRuns, autoSamples),
			autoRuns,
			fixed: fixedRuns && fixedSamples ? medianRun(fixedRuns, fixedSamples) : undefined,
			fixedRuns,
			autoSamples,
			fixedSamples,
			repeated,
		};
	} finally {
		await sim.close();
	}
}

// ---------------------------------------------------------------------------------------------------------------
// The same workloads in a real n8n: our node (Auto) and n8n's own HTTP Request node with Batching, each against a
// simulator of its own (so each one's requests, 429s and peak are its own), each in its own `n8n execute`.

const HEADER_CREDENTIAL = { id: 'benchThrHeader01', name: 'x-api-token (bench)' };

function itemsNodes(w: Workload, ids: string[], tag: string): WorkflowNode[] {
	const field = w.key === 'rerun' ? 'url' : 'id';
	const values = w.key === 'rerun' ? `Array.from({ length: ${w.items} }, (_, i) => 'https://shop.example.com/throughput/${tag}/' + i)` : JSON.stringify(ids);
	return [
		{ id: 'c0000000-0000-4000-8000-000000000001', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'c0000000-0000-4000-8000-000000000002',
			name: 'List',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: {
				mode: 'manual',
				assignments: { assignments: [{ id: 'c1000000-0000-4000-8000-000000000001', name: field, value: `={{ ${values} }}`, type: 'array' }] },
				includeOtherFields: false,
				options: {},
			},
		},
		{
			id: 'c0000000-0000-4000-8000-000000000003',
			name: 'Items',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [400, 0],
			parameters: { fieldToSplitOut: field, include: 'noOtherFields', options: {} },
		},
	];
}

/** n8n's HTTP Request node sending what our node sends: same method, path, `x-api-token` and `accept` headers, body. */
function httpRequestNode(w: Workload, baseUrl: string): WorkflowNode {
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

function ourNode(w: Workload, credentialId: string): WorkflowNode {
	const locator = (value: string) => ({ __rl: true, mode: 'id', value });
	const parameters =
		w.key === 'rerun'
			? { resource: 'aiScraper', operation: 'rerun', scraperId: locator(SCRAPER_ID), url: '={{ $json.url }}', options: { parallel: { settings: { auto: true, requests: 100 } } } }
			: { resource: 'result', operation: 'get', resultId: locator('={{ $json.id }}'), options: { parallel: { settings: { auto: true, requests: 100 } } } };
	return {
		id: 'c0000000-0000-4000-8000-000000000004',
		name: 'Measured',
		type: 'n8n-nodes-scraper-service.scraperPlatform',
		typeVersion: 2,
		position: [600, 0],
		parameters,
		credentials: { scraperPlatformApi: { id: credentialId, name: `Platform (bench ${credentialId})` } },
		onError: 'continueRegularOutput',
	};
}

function workflow(id: string, name: string, nodes: WorkflowNode[]): object {
	const connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: 0 }>> }> = {};
	for (let i = 0; i < nodes.length - 1; i++) connections[nodes[i].name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	return { id, name, active: false, nodes, connections, settings: { executionOrder: 'v1' } };
}

interface RealCase {
	w: Workload;
	kind: 'ours' | 'httpRequest';
	workflowId: string;
	sim: PlatformSimulator;
}

/** The measured node's executionTime and output, as n8n recorded them. */
function measuredNode(run: N8nRun, items: number): { executionTime: number; answered: number; failed: number; failedWith429: number } {
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

interface RealResult {
	version: string;
	node: string;
	ours: Record<Workload['key'], RunStats>;
	httpRequest: Record<Workload['key'], RunStats & { failedWith429: number }>;
}

async function measureRealN8n(settings: BenchSettings): Promise<RealResult> {
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

const pct = (part: number, whole: number) => (whole === 0 ? 0 : (100 * part) / whole);

function windowsText(r: RunStats, max = 40): string {
	const windows = r.windows ?? [];
	const shown = windows.slice(0, max).map((x) => (x.refused > 0 ? `${x.inFlight} (${x.refused}x 429)` : String(x.inFlight)));
	return `${shown.join(', ')}${windows.length > max ? `, ... (${windows.length} windows)` : ''}`;
}

/** Where Auto's time over the physical limit went, from what the simulator saw per latency-long window. */
function rampText(w: Workload, r: RunStats): string {
	const windows = r.windows ?? [];
	const reached = windows.findIndex((x) => x.inFlight >= w.limit);
	if (reached < 0) return `it never had ${w.limit} requests in flight at once`;
	const ramp = windows.slice(0, reached);
	// Items the ramp's windows could have served at the limit, and did not: each full window serves `limit` items.
	const unused = ramp.reduce((sum, x) => sum + (w.limit - x.inFlight), 0);
	return `it started at ${ramp[0]?.inFlight ?? w.limit} and doubled per round (${ramp.map((x) => x.inFlight).join(', ')}), reaching the limit in round ${reached + 1}: the ramp left about ${unused} item-rounds unused, ${thousands(Math.round((unused * w.latencyMs) / w.limit))} ms at the limit`;
}

/** The issue's goals, met or not, and the cause of each one missed. */
function goalNotes(w: Workload, h: HarnessResult, real: RealResult): string[] {
	const auto = median(h.autoSamples);
	const floor = floorMs(w);
	const speedup = h.sequential.wallMs / auto;
	const share = pct(h.auto.refused, h.auto.sent);
	const failed = h.autoRuns.reduce((sum, r) => sum + r.failed, 0) + real.ours[w.key].failed;
	const http = real.httpRequest[w.key];
	const ours = real.ours[w.key];
	const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
	const notes = [
		`Goals: Auto >= ${SPEEDUP_GOAL}x faster than sequential ${verdict(speedup >= SPEEDUP_GOAL)} (${speedup.toFixed(1)}x); 0 failed items ${verdict(failed === 0)} (${failed}); <= ${SHARE_429_GOAL} % of requests answered 429 ${verdict(share <= SHARE_429_GOAL)} (${share.toFixed(1)} %, ${thousands(h.auto.refused)} of ${thousands(h.auto.sent)}); within ${FLOOR_GOAL}x of the physical limit ${verdict(auto / floor <= FLOOR_GOAL)} (${(auto / floor).toFixed(2)}x); faster than or equal to n8n's HTTP Request node ${http.failed > 0 && ours.failed === 0 ? `met in work done: it answered ${thousands(http.answered)} of ${thousands(w.items)} items (the rest failed with 429) in ${thousands(Math.round(http.wallMs))} ms, ours all ${thousands(ours.answered)} in ${thousands(Math.round(ours.wallMs))} ms` : `${verdict(ours.wallMs <= http.wallMs && ours.failed === 0)} (${(ours.wallMs / http.wallMs).toFixed(2)}x its time; it answered ${thousands(http.answered)} of ${thousands(w.items)} items, ours ${thousands(ours.answered)})`}.`,
	];
	const causes: string[] = [];
	if (auto / floor > FLOOR_GOAL || share > SHARE_429_GOAL) {
		const first429 = (h.auto.windows ?? []).findIndex((x) => x.refused > 0);
		const firstBurst = first429 >= 0 ? (h.auto.windows ?? [])[first429].refused : 0;
		causes.push(`Auto is ${thousands(Math.round(auto - floor))} ms over the physical limit. Finding the limit: ${rampText(w, h.auto)}.`);
		if (h.auto.refused > 0) {
			causes.push(
				`Its 429s: ${firstBurst} in round ${first429 + 1}, where doubling overshot the limit of ${w.limit}, and ${h.auto.refused - firstBurst} later, from probing above it; a refused item waits its Retry-After (1 s = ${(1000 / w.latencyMs).toFixed(1)} rounds here) while the others go on.`,
			);
		} else if (w.limit >= 100) {
			causes.push(`No 429: Auto never goes above 100 (Requests at Once not set), which is this account's limit, so it never probed past it.`);
		}
		if (h.fixedSamples) {
			const fixed = median(h.fixedSamples);
			const perItem = (h.sequential.wallMs - w.items * w.latencyMs) / w.items;
			causes.push(
				`Requests at Once ${w.limit} (no discovery, same process) takes ${thousands(Math.round(fixed))} ms, ${(fixed / floor).toFixed(2)}x the limit: Auto's ${thousands(Math.round(auto - fixed))} ms more are the cost of finding the limit. The ${thousands(Math.round(fixed - floor))} ms it spends over the limit itself, about ${((fixed - floor) / w.items).toFixed(2)} ms per request, are work that no concurrency overlaps: n8n's engine, its HTTP helper (a new connection per request), the node and the in-process simulator share this process's one thread, and at ${thousands(w.latencyMs)} ms for ${w.limit} at once the limit leaves ${(w.latencyMs / w.limit).toFixed(2)} ms per request. (Sequentially each item costs ${perItem.toFixed(1)} ms beyond the latency, an upper bound of that work.)${fixed / floor > FLOOR_GOAL ? ` With nothing to find, Requests at Once ${w.limit} is itself above ${FLOOR_GOAL}x: in this setup (harness and simulator in one process, on the machine above) the goal is out of reach for the node whatever its setting. In the real n8n (simulator in this process, n8n in its own) Auto took ${thousands(Math.round(real.ours[w.key].wallMs))} ms and the HTTP Request node ${thousands(Math.round(real.httpRequest[w.key].wallMs))} ms.` : ''}`,
			);
		}
	}
	if (ours.wallMs > http.wallMs) {
		causes.push(
			`n8n's HTTP Request node took ${thousands(Math.round(http.wallMs))} ms, ours ${thousands(Math.round(ours.wallMs))} ms. With a batch interval of 0 it sends every item's request as soon as it has prepared it, without waiting for any answer: it had up to ${http.peak} in flight (limit ${w.limit}) from its first items on, and the service refused ${thousands(http.refused)} (429); it does not retry them, so ${thousands(http.failed)} items (${pct(http.failed, w.items).toFixed(1)} %) came out as errors${http.failed > 0 ? ` and it answered ${thousands(http.answered)} of ${thousands(w.items)}: answering all of them would take at least the physical limit, ${thousands(floor)} ms, whatever the client` : ''}. Ours answered all ${thousands(w.items)}, and paid for finding the limit (above).`,
		);
	}
	return [...notes, ...causes];
}

function tableRow(variant: string, engine: string, r: RunStats, items: number): string {
	const perSecond = r.answered / (r.wallMs / 1000);
	return `| ${variant} | ${engine} | ${thousands(Math.round(r.wallMs))} ms | ${thousands(r.answered)} of ${thousands(items)} | ${thousands(r.failed)} | ${thousands(r.sent)} | ${thousands(r.refused)} (${pct(r.refused, r.sent).toFixed(1)} %) | ${r.peak} | ${perSecond.toFixed(1)} |`;
}

function workloadResult(settings: BenchSettings, w: Workload, h: HarnessResult, real: RealResult): { measures: Measure[]; notes: string[]; setup: string } {
	const k = w.key;
	const name = `${thousands(w.items)} x ${w.title} (${thousands(w.latencyMs)} ms, limit ${w.limit})`;
	const floor = floorMs(w);
	const auto = median(h.autoSamples);
	const seq = h.sequential.wallMs;
	const speedup = seq / auto;
	const realOurs = real.ours[k];
	const http = real.httpRequest[k];
	const httpRatio = realOurs.wallMs / http.wallMs;
	const share = pct(h.auto.refused, h.auto.sent);
	const failedAuto = h.autoRuns.reduce((sum, r) => sum + r.failed, 0) + realOurs.failed;
	const runsText = h.repeated ? `median of ${h.autoSamples.length}` : 'one run';
	const measures: Measure[] = [
		{
			slug: `7.${k}.vsSequential`,
			label: `${name}: wall time, Parallel Requests Auto vs sequential`,
			unit: 'ms',
			value: auto,
			samples: h.autoSamples,
			baseline: { label: 'sequential', value: seq, samples: [seq] },
			ratio: auto / seq,
			ratioNote: `(${speedup.toFixed(1)}x faster; goal >= ${SPEEDUP_GOAL}x)`,
			flag: speedup < SPEEDUP_GOAL ? `under ${SPEEDUP_GOAL}x faster` : undefined,
			headline: true,
		},
		{
			slug: `7.${k}.vsFloor`,
			label: `${name}: Auto vs the physical limit (${thousands(w.items)} x ${thousands(w.latencyMs)} ms / ${w.limit})`,
			unit: 'ms',
			value: auto,
			samples: h.autoSamples,
			baseline: { label: 'physical limit', value: floor },
			ratio: auto / floor,
			ratioNote: `(goal <= ${FLOOR_GOAL})`,
			flag: auto / floor > FLOOR_GOAL ? `above ${FLOOR_GOAL}` : undefined,
			headline: true,
		},
		{
			slug: `7.${k}.vsHttpNode`,
			label: `${name}, real n8n ${real.version}: Auto vs n8n's HTTP Request node, Batching ${w.batchSize} / 0 ms (executionTime)`,
			unit: 'ms',
			value: realOurs.wallMs,
			samples: [realOurs.wallMs],
			baseline: { label: `HTTP Request node, ${http.failed} of ${thousands(w.items)} items failed`, value: http.wallMs, samples: [http.wallMs] },
			ratio: httpRatio,
			// A run that gave up on items did not do the work: its time is no bar to meet, and the note says why.
			ratioNote:
				http.failed > 0
					? `(goal <= 1.00 with 0 failed items; ours: ${realOurs.failed} failed; the HTTP Request node's time is not comparable: ${http.failed} of its ${thousands(w.items)} items failed with 429, ${((100 * http.failed) / w.items).toFixed(0)} %)`
					: `(goal <= 1.00 with 0 failed items; ours: ${realOurs.failed} failed)`,
			flag: realOurs.failed > 0 ? 'items failed' : http.failed === 0 && httpRatio > 1 ? 'slower than the HTTP Request node' : undefined,
			headline: true,
		},
		{
			slug: `7.${k}.failed`,
			label: `${name}: failed items, Auto (every run, harness and real n8n)`,
			unit: 'items',
			value: failedAuto,
			baseline: { label: 'HTTP Request node, real n8n', value: http.failed },
			flag: failedAuto > 0 ? 'above 0' : undefined,
		},
		{
			slug: `7.${k}.share429`,
			label: `${name}: requests answered 429, Auto (share of requests sent, ${runsText})`,
			unit: '%',
			value: share,
			baseline: { label: 'HTTP Request node, real n8n', value: pct(http.refused, http.sent) },
			ratioNote: `(goal <= ${SHARE_429_GOAL} %)`,
			flag: share > SHARE_429_GOAL ? `above ${SHARE_429_GOAL} %` : undefined,
		},
		{ slug: `7.${k}.sent`, label: `${name}: requests sent, Auto (${runsText})`, unit: 'requests', value: h.auto.sent, baseline: { label: 'one per item', value: w.items }, ratio: h.auto.sent / w.items },
		{ slug: `7.${k}.peak`, label: `${name}: peak requests in flight, Auto (${runsText})`, unit: '', value: h.auto.peak, baseline: { label: 'account limit', value: w.limit }, ratio: h.auto.peak / w.limit },
	];
	if (h.fixedSamples) {
		const fixed = median(h.fixedSamples);
		measures.push({
			slug: `7.${k}.fixedVsFloor`,
			label: `${name}, attribution: Requests at Once ${w.limit} (fixed, no discovery) vs the physical limit`,
			unit: 'ms',
			value: fixed,
			samples: h.fixedSamples,
			baseline: { label: 'physical limit', value: floor },
			ratio: fixed / floor,
		});
	}
	const perItemSeq = (seq - w.items * w.latencyMs) / w.items;
	measures.push({ slug: `7.${k}.perItemSequential`, label: `${name}: sequential time per item over the latency, (sequential - items x latency) / items`, unit: 'ms', value: perItemSeq });

	const rows = [
		'| Variant | Engine | Wall time | Items answered | Failed items | Requests sent | 429s (share of sent) | Peak in flight | Answered per second |',
		'|---|---|---|---|---|---|---|---|---|',
		tableRow('Our node, sequential (Parallel Requests not set)', 'harness', h.sequential, w.items),
		tableRow(`Our node, Parallel Requests Auto (${runsText})`, 'harness', { ...h.auto, wallMs: auto }, w.items),
		...(h.fixed && h.fixedSamples ? [tableRow(`Our node, Requests at Once ${w.limit} (median of ${h.fixedSamples.length})`, 'harness', { ...h.fixed, wallMs: median(h.fixedSamples) }, w.items)] : []),
		tableRow('Our node, Parallel Requests Auto', `real n8n ${real.version}`, realOurs, w.items),
		tableRow(`n8n's HTTP Request node, Batching ${w.batchSize} / 0 ms`, `real n8n ${real.version}`, http, w.items),
		`| Physical limit: ${thousands(w.items)} x ${thousands(w.latencyMs)} ms / ${w.limit} | | ${thousands(floor)} ms | | | ${thousands(w.items)} | 0 | ${w.limit} | ${((1000 * w.limit) / w.latencyMs).toFixed(1)} |`,
	];
	const autoRunsText = h.autoRuns.map((r) => `${thousands(Math.round(r.wallMs))} ms / ${thousands(r.sent)} sent / ${r.refused}x 429 / peak ${r.peak}`).join('; ');
	const notes = [
		`**${name}.** Every variant against a simulator of its own with the same account limit and latency; requests, 429s and peak as that simulator counted them, failed items from the node's output (Continue On Fail / On Error: Continue).`,
		rows.join('\n'),
		`Auto in the harness, ${h.repeated ? 'each timed run' : 'one timed run'} (time / requests / 429s / peak): ${autoRunsText}. How its concurrency evolved (most requests in flight per ${thousands(w.latencyMs)} ms from its first request, sampled every ${Math.max(5, w.latencyMs / 10)} ms, so a window where the process was busy can show less than it had; with the 429s answered in that window): ${windowsText(h.auto)}. The same in real n8n: ${windowsText(realOurs)}.`,
		...goalNotes(w, h, real),
		`n8n's HTTP Request node: ${thousands(http.failed)} of ${thousands(w.items)} items failed (${pct(http.failed, w.items).toFixed(1)} %)${http.failed > 0 ? `, ${thousands(http.failedWith429)} of them with its 429 message ("Try spacing your requests out using the batching settings under 'Options'")` : ''}; it sent ${thousands(http.sent)} requests, at most ${http.peak} in flight (limit ${w.limit}), no retries. Our node in the same n8n: ${thousands(realOurs.failed)} failed, ${thousands(realOurs.sent)} requests sent, ${thousands(realOurs.refused)} answered 429${realOurs.refused > 0 ? ', each sent again after its Retry-After' : ''}.`,
	];
	const setup = `${name}: our node's input ${w.key === 'rerun' ? `${w.items} items, each with a URL of its own (\`url: ={{ $json.url }}\`), scraper ${SCRAPER_ID} (the demo's general AI scraper)` : `${thousands(w.items)} items, each with the id of one of ${thousands(w.items)} seeded results (\`resultId: ={{ $json.id }}\`)`}; the simulator's \`latencyMs\` ${thousands(w.latencyMs)} ms on ${w.route} (real time, in flight), \`concurrencyLimit\` ${w.limit} (429 + Retry-After: 1 past it). Sequential: one run (${seconds(w.items * w.latencyMs)} of latency alone). Auto: ${h.repeated ? `${settings.warmups} warm-up + ${h.autoSamples.length} timed runs, taking turns with Requests at Once ${w.limit} (fixed: what finding the limit costs), median` : `one timed run (its time is the fixed latency: the separate run in a real n8n, below, took ${thousands(Math.round(real.ours[w.key].wallMs))} ms against this one's ${thousands(Math.round(median(h.autoSamples)))} ms)`}.`;
	return { measures, notes, setup };
}

/**
 * Figure 7: throughput of Parallel Requests Auto against an account's concurrency limit: 200 AI reruns at 2 s and
 * limit 10, 1,000 Result > Get at 100 ms and limit 100; against our node sequential, n8n's HTTP Request node with
 * Batching (in a real n8n), and the physical limit (items x latency / limit).
 */
export async function throughputFigure(settings: BenchSettings): Promise<FigureResult> {
	const figureStart = Date.now();
	const harness: Partial<Record<Workload['key'], HarnessResult>> = {};
	for (const w of WORKLOADS) harness[w.key] = await measureHarness(settings, w);
	const real = await measureRealN8n(settings);
	const parts = WORKLOADS.map((w) => workloadResult(settings, w, harness[w.key] as HarnessResult, real));
	return {
		id: 7,
		title: 'Throughput',
		setup: [
			'Our node (Scraper Platform, the bundle in dist/) on n8n\'s engine in this process (test/harness runNode, Continue On Fail), against a PlatformSimulator whose account has a concurrency limit and a fixed real-time latency on the measured route. Variants: Parallel Requests not set (sequential, as before the option existed) and Parallel Requests > Auto (no Requests at Once: at most 100).',
			...parts.map((p) => p.setup),
			`Anchor: n8n's own HTTP Request node (n8n-nodes-base, v${HTTP_REQUEST_VERSION}) with Options > Batching, items per batch = the account's limit, batch interval 0 ms, Header Auth (x-api-token), \`accept: application/json\`, the same method, path and body as our node; On Error: Continue (Regular Output), so every failure is an item. It runs in a real n8n ${real.version} (Node ${real.node}; installed in the e2e cache, our packed core installed as n8n's installer does) next to our node with Auto: one workflow per node (Manual Trigger -> Set + Split Out producing the items -> the node), each against a simulator of its own, one \`n8n execute\` each; the time is the executionTime n8n records for the node. One run each.`,
			'With a batch interval of 0 the HTTP Request node does not batch at all: n8n-nodes-base 2.8.4 (HttpRequest/V3/HttpRequestV3.node.js) sleeps between batches only when the interval is above 0 and never waits for a batch\'s answers, so every item\'s request goes out as soon as the node has prepared it; it does not retry a 429 (Retry On Fail is off by default).',
			`The sequential baselines are timed once, and so is Auto when the physical limit is above ${seconds(REPEAT_BELOW_MS)} (the reruns): their time is the fixed latency, not noise, and repeating them would multiply the figure's time (this run of it: ${((Date.now() - figureStart) / 1000).toFixed(0)} s). Shorter ones are repeated as in the other figures.`,
		],
		measures: parts.flatMap((p) => p.measures),
		notes: parts.flatMap((p) => p.notes),
	};
}
