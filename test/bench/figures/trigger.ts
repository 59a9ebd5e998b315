import { Agent } from 'undici';

import { PlatformSimulator } from '../../simulator/platform';
import type { TriggerInstance } from '../../harness/trigger';
import { LIST, MINUTE, newTrigger, startJob } from '../../platform/trigger/helpers';
import { getJson, replayHeaders, urlOf } from '../lib/platform';
import type { FigureResult, Measure } from '../lib/report';
import { timedMeasure } from '../lib/report';
import type { BenchSettings } from '../lib/stats';
import { interleaved, median } from '../lib/stats';

const STORED = [1, 100, 1_000] as const;
const COMPLETIONS = 10;
const DAY = 24 * 3_600_000;

/** A simulator holding `count` bulk jobs started 50 s apart; a third of them still running (for days). */
async function simulatorWithJobs(count: number): Promise<PlatformSimulator> {
	const sim = new PlatformSimulator({ bulkUrlDurationMs: 1000, bulkConcurrency: 1 });
	await sim.listen();
	for (let i = 0; i < count; i++) {
		startJob(sim, { urlMs: i % 3 === 2 ? 5 * DAY : 1000 });
		sim.clock.advance(50_000);
	}
	return sim;
}

/** Activates the trigger and polls until the cursor has settled (the poll after a move re-reads the overlap). */
async function activated(sim: PlatformSimulator): Promise<TriggerInstance> {
	const trigger = newTrigger(sim);
	await trigger.poll();
	for (let i = 0; i < 2; i++) {
		sim.clock.advance(MINUTE);
		await trigger.poll();
	}
	return trigger;
}

function requestsOf(sim: PlatformSimulator, from: number): number {
	return sim.server.log.entries.length - from;
}

/** Figure 4: what the Scraper Platform Trigger (Bulk Job Completed) costs per poll, idle and when jobs complete. */
export async function triggerFigure(settings: BenchSettings): Promise<FigureResult> {
	const measures: Measure[] = [];
	const setupNotes: string[] = [];
	for (const stored of STORED) {
		const sim = await simulatorWithJobs(stored);
		try {
			const trigger = await activated(sim);
			measures.push(...(await measureIdle(settings, sim, trigger, stored)));
			if (stored !== STORED[STORED.length - 1]) continue;
			measures.push(...(await measureFinding(settings, sim, trigger)));
			setupNotes.push(`Polls finding completions: before each, ${COMPLETIONS} new bulk jobs (1-3 URLs, 1 s each) start and complete within the minute; every one must be emitted by that poll (checked).`);
		} finally {
			await sim.close();
		}
	}
	return triggerReport(measures, setupNotes);
}

/** Measure: idle polls, one simulated minute apart, against a bare GET of the poll's own list request. */
async function measureIdle(settings: BenchSettings, sim: PlatformSimulator, trigger: TriggerInstance, stored: number): Promise<Measure[]> {
	// Polls are short: three times the repetitions, so the median is steadier.
	const pollSettings: BenchSettings = { ...settings, reps: settings.reps * 3 };
	const counts: number[] = [];
	// What the baseline sends: the idle poll's own request, resent by a bare client.
	let probe: { url: string; headers: Record<string, string> } | undefined;
	const agent = new Agent();
	const samples = await interleaved(pollSettings, `idle poll, ${stored} stored`, {
		poll: async () => {
			sim.clock.advance(MINUTE);
			const from = sim.server.log.entries.length;
			const items = await trigger.poll();
			if (items.length !== 0) throw new Error('an idle poll emitted items');
			counts.push(requestsOf(sim, from));
			const entry = sim.server.log.last(LIST);
			if (entry) probe = { url: urlOf(sim.url, entry), headers: replayHeaders(entry) };
		},
		undici: async () => {
			if (probe) await getJson(probe.url, probe.headers, { dispatcher: agent });
		},
	});
	await agent.close();
	const measured = counts.slice(-pollSettings.reps);
	return [
		{
			slug: `4.idle${stored}`,
			label: `Requests per idle poll, ${stored.toLocaleString('en-US')} bulk job${stored === 1 ? '' : 's'} stored`,
			unit: 'requests',
			value: Math.max(...measured),
			baseline: { label: 'minimum', value: 1 },
			ratio: Math.max(...measured),
			headline: true,
			flag: Math.max(...measured) > 1 ? 'more than one request' : undefined,
		},
		timedMeasure(`4.idleWall${stored}`, `Wall time per idle poll, ${stored.toLocaleString('en-US')} stored`, samples.poll, { label: 'bare GET of the same list URL', samples: samples.undici }),
	];
}

/** Measure: polls that each find 10 jobs completed since the last one (with 1,000 stored), and the poll after each. */
async function measureFinding(settings: BenchSettings, sim: PlatformSimulator, trigger: TriggerInstance): Promise<Measure[]> {
	const finding: number[] = [];
	const after: number[] = [];
	const findingSamples = await interleaved(settings, `poll finding ${COMPLETIONS} completions`, {
		poll: async () => {
			const jobs = Array.from({ length: COMPLETIONS }, (_, i) => startJob(sim, { urls: 1 + (i % 3), urlMs: 1000 }));
			sim.clock.advance(MINUTE);
			let from = sim.server.log.entries.length;
			const items = await trigger.poll();
			const emitted = new Set(items.map((item) => String(item.json.id)));
			if (emitted.size !== COMPLETIONS || !jobs.every((id) => emitted.has(id))) throw new Error(`the poll emitted ${emitted.size} jobs`);
			finding.push(requestsOf(sim, from));
			// The next poll re-reads the minute before the moved cursor once.
			sim.clock.advance(MINUTE);
			from = sim.server.log.entries.length;
			await trigger.poll();
			after.push(requestsOf(sim, from));
		},
	});
	const found = finding.slice(-settings.reps);
	return [
		{
			slug: '4.finding',
			label: `Requests per poll that finds ${COMPLETIONS} completed jobs (1,000 stored)`,
			unit: 'requests',
			value: Math.max(...found),
			baseline: { label: 'minimum', value: 1 },
			ratio: Math.max(...found),
			headline: true,
			flag: Math.max(...found) > 1 ? 'more than one request' : undefined,
		},
		{
			slug: '4.afterFinding',
			label: 'Requests in the poll after it (overlap re-read)',
			unit: 'requests',
			value: Math.max(...after.slice(-settings.reps)),
			baseline: { label: 'minimum', value: 1 },
			ratio: Math.max(...after.slice(-settings.reps)),
		},
		{ slug: '4.findingWall', label: `Wall time per poll that finds ${COMPLETIONS} (start of 10 jobs included)`, unit: 'ms', value: median(findingSamples.poll), samples: findingSamples.poll },
	];
}

/** Report: the figure's setup and notes around its measures. */
function triggerReport(measures: Measure[], setupNotes: string[]): FigureResult {
	return {
		id: 4,
		title: 'Trigger cost',
		setup: [
			'Scraper Platform Trigger\'s poll() (Bulk Job Completed) on n8n-core\'s PollContext (test/harness/trigger.ts TriggerInstance, static data kept between polls as n8n keeps it), against PlatformSimulator.',
			'Stored jobs: started 50 s apart of simulated time, 1 URL each; two thirds completed, one third running for days (they stay in the listing but never trigger). The trigger is activated, then polled twice so the cursor has settled; then each idle poll comes one simulated minute after the previous one.',
			'Requests are counted from the simulator\'s log; the figure is the largest count over the measured polls. The minimum is one request: a poll has to ask.',
			'Idle polls are short, so their wall times are the median of three times the usual repetitions.',
			'Wall-time baseline: a bare undici GET of the idle poll\'s own list URL (same query and headers), taken from the log.',
			...setupNotes,
		],
		measures,
		notes: [
			'An idle poll is one list request however many jobs are stored: it asks only for bulk records whose updatedAt is past the cursor (dateRangeColumn=updatedAt, startAt, sortOrder ASC, search Bulk-AI), and a running job\'s updatedAt stays at its start until it completes. A poll that finds completed jobs needs no per-job request, because the listing carries each job\'s urlDetails and mergedData. After a poll that moved the cursor, the next one re-reads the minute before it once (late writes): still one request while that minute holds fewer than 100 bulk records.',
		],
	};
}
