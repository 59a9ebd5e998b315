 

import type { Measure } from '../../lib/report';
import type { BenchSettings } from '../../lib/stats';
import { median } from '../../lib/stats';
import type { HarnessResult } from './harness';
import { FLOOR_GOAL, SCRAPER_ID, SHARE_429_GOAL, SPEEDUP_GOAL, floorMs, seconds, thousands } from './workloads';
import type { RunStats, Workload } from './workloads';
import type { RealResult } from './realN8n';

/** Figure 7's words and numbers: tables, ramps and the goals met or missed. */

export const pct = (part: number, whole: number) => (whole === 0 ? 0 : (100 * part) / whole);

export function windowsText(r: RunStats, max = 40): string {
	const windows = r.windows ?? [];
	const shown = windows.slice(0, max).map((x) => (x.refused > 0 ? `${x.inFlight} (${x.refused}x 429)` : String(x.inFlight)));
	return `${shown.join(', ')}${windows.length > max ? `, ... (${windows.length} windows)` : ''}`;
}

/** Where Auto's time over the physical limit went, from what the simulator saw per latency-long window. */
export function rampText(w: Workload, r: RunStats): string {
	const windows = r.windows ?? [];
	const reached = windows.findIndex((x) => x.inFlight >= w.limit);
	if (reached < 0) return `it never had ${w.limit} requests in flight at once`;
	const ramp = windows.slice(0, reached);
	// Items the ramp's windows could have served at the limit, and did not: each full window serves `limit` items.
	const unused = ramp.reduce((sum, x) => sum + (w.limit - x.inFlight), 0);
	return `it started at ${ramp[0]?.inFlight ?? w.limit} and doubled per round (${ramp.map((x) => x.inFlight).join(', ')}), reaching the limit in round ${reached + 1}: the ramp left about ${unused} item-rounds unused, ${thousands(Math.round((unused * w.latencyMs) / w.limit))} ms at the limit`;
}

/** The issue's goals, met or not, and the cause of each one missed. */
export function goalNotes(w: Workload, h: HarnessResult, real: RealResult): string[] {
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

export function tableRow(variant: string, engine: string, r: RunStats, items: number): string {
	const perSecond = r.answered / (r.wallMs / 1000);
	return `| ${variant} | ${engine} | ${thousands(Math.round(r.wallMs))} ms | ${thousands(r.answered)} of ${thousands(items)} | ${thousands(r.failed)} | ${thousands(r.sent)} | ${thousands(r.refused)} (${pct(r.refused, r.sent).toFixed(1)} %) | ${r.peak} | ${perSecond.toFixed(1)} |`;
}

/** What every part of a workload's report reads: its name, the physical limit, the medians and the real n8n's runs. */
interface WorkloadFacts {
	w: Workload;
	h: HarnessResult;
	real: RealResult;
	name: string;
	floor: number;
	auto: number;
	seq: number;
	realOurs: RunStats;
	http: RealResult['httpRequest'][Workload['key']];
	runsText: string;
}

export function workloadResult(settings: BenchSettings, w: Workload, h: HarnessResult, real: RealResult): { measures: Measure[]; notes: string[]; setup: string } {
	const facts: WorkloadFacts = {
		w,
		h,
		real,
		name: `${thousands(w.items)} x ${w.title} (${thousands(w.latencyMs)} ms, limit ${w.limit})`,
		floor: floorMs(w),
		auto: median(h.autoSamples),
		seq: h.sequential.wallMs,
		realOurs: real.ours[w.key],
		http: real.httpRequest[w.key],
		runsText: h.repeated ? `median of ${h.autoSamples.length}` : 'one run',
	};
	const measures = [...headlineMeasures(facts), ...countMeasures(facts)];
	return { measures, notes: workloadNotes(facts), setup: workloadSetup(settings, facts) };
}

/** Auto against sequential, the physical limit and n8n's HTTP Request node. */
function headlineMeasures({ w, h, real, name, floor, auto, seq, realOurs, http }: WorkloadFacts): Measure[] {
	const k = w.key;
	const speedup = seq / auto;
	const httpRatio = realOurs.wallMs / http.wallMs;
	return [
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
	];
}

/** Failed items, 429s, requests and peak of Auto; the fixed-concurrency attribution; the sequential cost per item. */
function countMeasures({ w, h, name, floor, seq, realOurs, http, runsText }: WorkloadFacts): Measure[] {
	const k = w.key;
	const share = pct(h.auto.refused, h.auto.sent);
	const failedAuto = h.autoRuns.reduce((sum, r) => sum + r.failed, 0) + realOurs.failed;
	const measures: Measure[] = [
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
	return measures;
}

/** The workload's table: every variant in the harness and the real n8n, and the physical limit. */
function workloadTable({ w, h, real, floor, auto, realOurs, http, runsText }: WorkloadFacts): string {
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
	return rows.join('\n');
}

function workloadNotes(facts: WorkloadFacts): string[] {
	const { w, h, real, name, realOurs, http } = facts;
	const autoRunsText = h.autoRuns.map((r) => `${thousands(Math.round(r.wallMs))} ms / ${thousands(r.sent)} sent / ${r.refused}x 429 / peak ${r.peak}`).join('; ');
	return [
		`**${name}.** Every variant against a simulator of its own with the same account limit and latency; requests, 429s and peak as that simulator counted them, failed items from the node's output (Continue On Fail / On Error: Continue).`,
		workloadTable(facts),
		`Auto in the harness, ${h.repeated ? 'each timed run' : 'one timed run'} (time / requests / 429s / peak): ${autoRunsText}. How its concurrency evolved (most requests in flight per ${thousands(w.latencyMs)} ms from its first request, sampled every ${Math.max(5, w.latencyMs / 10)} ms, so a window where the process was busy can show less than it had; with the 429s answered in that window): ${windowsText(h.auto)}. The same in real n8n: ${windowsText(realOurs)}.`,
		...goalNotes(w, h, real),
		`n8n's HTTP Request node: ${thousands(http.failed)} of ${thousands(w.items)} items failed (${pct(http.failed, w.items).toFixed(1)} %)${http.failed > 0 ? `, ${thousands(http.failedWith429)} of them with its 429 message ("Try spacing your requests out using the batching settings under 'Options'")` : ''}; it sent ${thousands(http.sent)} requests, at most ${http.peak} in flight (limit ${w.limit}), no retries. Our node in the same n8n: ${thousands(realOurs.failed)} failed, ${thousands(realOurs.sent)} requests sent, ${thousands(realOurs.refused)} answered 429${realOurs.refused > 0 ? ', each sent again after its Retry-After' : ''}.`,
	];
}

function workloadSetup(settings: BenchSettings, { w, h, real, name }: WorkloadFacts): string {
	return `${name}: our node's input ${w.key === 'rerun' ? `${w.items} items, each with a URL of its own (\`url: ={{ $json.url }}\`), scraper ${SCRAPER_ID} (the demo's general AI scraper)` : `${thousands(w.items)} items, each with the id of one of ${thousands(w.items)} seeded results (\`resultId: ={{ $json.id }}\`)`}; the simulator's \`latencyMs\` ${thousands(w.latencyMs)} ms on ${w.route} (real time, in flight), \`concurrencyLimit\` ${w.limit} (429 + Retry-After: 1 past it). Sequential: one run (${seconds(w.items * w.latencyMs)} of latency alone). Auto: ${h.repeated ? `${settings.warmups} warm-up + ${h.autoSamples.length} timed runs, taking turns with Requests at Once ${w.limit} (fixed: what finding the limit costs), median` : `one timed run (its time is the fixed latency: the separate run in a real n8n, below, took ${thousands(Math.round(real.ours[w.key].wallMs))} ms against this one's ${thousands(Math.round(median(h.autoSamples)))} ms)`}.`;
}
