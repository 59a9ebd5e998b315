import { HTTP_REQUEST_VERSION } from '../lib/realN8n';
import type { FigureResult } from '../lib/report';
import type { BenchSettings } from '../lib/stats';
import { measureHarness } from './throughput/harness';
import type { HarnessResult } from './throughput/harness';
import { REPEAT_BELOW_MS, WORKLOADS, seconds } from './throughput/workloads';
import type { Workload } from './throughput/workloads';
import { measureRealN8n } from './throughput/realN8n';
import { workloadResult } from './throughput/report';

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
			'Our node (Scraper Platform, the bundle in dist/) on n8n\'s engine in this process (test/harness runNode, Continue On Fail), against a PlatformSimulator whose account has a concurrency limit and a fixed real-time latency on the measured route. Variants: Parallel Requests not set (sequential, as before the option existed) and Parallel Requests > Auto with Requests at Once 100, the most any plan allows (node version 3 always carries Requests at Once: it is Auto\'s ceiling).',
			...parts.map((p) => p.setup),
			`Anchor: n8n's own HTTP Request node (n8n-nodes-base, v${HTTP_REQUEST_VERSION}) with Options > Batching, items per batch = the account's limit, batch interval 0 ms, Header Auth (x-api-token), \`accept: application/json\`, the same method, path and body as our node; On Error: Continue (Regular Output), so every failure is an item. It runs in a real n8n ${real.version} (Node ${real.node}; installed in the e2e cache, our packed core installed as n8n's installer does) next to our node with Auto: one workflow per node (Manual Trigger -> Set + Split Out producing the items -> the node), each against a simulator of its own, one \`n8n execute\` each; the time is the executionTime n8n records for the node. One run each.`,
			'With a batch interval of 0 the HTTP Request node does not batch at all: n8n-nodes-base 2.8.4 (HttpRequest/V3/HttpRequestV3.node.js) sleeps between batches only when the interval is above 0 and never waits for a batch\'s answers, so every item\'s request goes out as soon as the node has prepared it; it does not retry a 429 (Retry On Fail is off by default).',
			`The sequential baselines are timed once, and so is Auto when the physical limit is above ${seconds(REPEAT_BELOW_MS)} (the reruns): their time is the fixed latency, not noise, and repeating them would multiply the figure's time (this run of it: ${((Date.now() - figureStart) / 1000).toFixed(0)} s). Shorter ones are repeated as in the other figures.`,
		],
		measures: parts.flatMap((p) => p.measures),
		notes: parts.flatMap((p) => p.notes),
	};
}
