/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code in plain Node, never inside n8n: it samples the simulator on a timer while a run goes */
import type { IDataObject } from 'n8n-workflow';

import { runNode } from '../../../harness';
import { PlatformSimulator } from '../../../simulator/platform';
import { platformCredentials } from '../../lib/platform';
import type { BenchSettings } from '../../lib/stats';
import { collectGarbage, interleaved, withRetry } from '../../lib/stats';
import { REPEAT_BELOW_MS, floorMs, inputFor, isFailure, observed, ourParameters, seconds, startSimulator } from './workloads';
import type { RunStats, Workload } from './workloads';

/**
 * Auto as a user sets it for the highest plan: from node version 3 Requests at Once is always set (10 when added) and
 * is Auto's ceiling, so it is set to the most any account allows and Auto finds the account's limit below it.
 */
const AUTO = { auto: true, requests: 100 };

/** Figure 7 on n8n's engine in this process: our node, sequential and with Auto. */

/** Our node in the harness (n8n-core's WorkflowExecute, this process), Continue On Fail so failures are counted. */
export async function runOurs(sim: PlatformSimulator, w: Workload, input: IDataObject[], parallel?: IDataObject): Promise<{ answered: number; failed: number }> {
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
export function progress(settings: BenchSettings, sim: PlatformSimulator, w: Workload, what: string): () => void {
	const started = Date.now();
	const timer = setInterval(() => {
		settings.log(`    ${what}: ${sim.server.log.count(w.route)} requests after ${((Date.now() - started) / 1000).toFixed(0)} s`);
	}, 30_000);
	return () => clearInterval(timer);
}

export interface HarnessResult {
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

export async function measureHarness(settings: BenchSettings, w: Workload): Promise<HarnessResult> {
	const { sim, ids } = await startSimulator(w);
	try {
		let tag = 0;
		const nextInput = (name: string) => inputFor(w, ids, `${name}-${++tag}`);
		const auto: RunStats[] = [];
		const fixed: RunStats[] = [];
		const runAuto = async () => auto.push(await observed(sim, w, () => runOurs(sim, w, nextInput('auto'), AUTO)));
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
