import { Agent } from 'undici';

import { PLATFORM_DEMO_TOKEN, PlatformSimulator, PLATFORM_ROUTES } from '../../simulator/platform';
import { getJson, replayHeaders, runPlatform, urlOf } from '../lib/platform';
import type { FigureResult } from '../lib/report';
import { timedMeasure } from '../lib/report';
import type { BenchSettings } from '../lib/stats';
import { interleaved, median } from '../lib/stats';

const RESULTS = 10_000;
const PAGE_SIZE = 100;
const MINIMUM = Math.ceil(RESULTS / PAGE_SIZE);

const PARAMETERS = { resource: 'result', operation: 'getMany', returnAll: true, options: { pageSize: PAGE_SIZE } };

/** The node's own run: the requests it made, which the baselines resend in the same order. */
interface Pages {
	requestsMade: number;
	headers: Record<string, string>;
	urls: string[];
	itemsSeen: number;
}

interface ReturnAllSamples {
	wall: Record<'node' | 'undici' | 'undiciDecode', number[]>;
	/** Requests per timed run of the node. */
	requestCounts: number[];
}

/** Figure 6: Result > Get Many with Return All over 10,000 results at page size 100. */
export async function returnAllFigure(settings: BenchSettings): Promise<FigureResult> {
	const sim = new PlatformSimulator();
	await sim.listen();
	try {
		sim.seedResults(PLATFORM_DEMO_TOKEN, RESULTS);
		const pages = await recordPages(sim);
		return returnAllReport(pages, await measureReturnAll(settings, sim, pages));
	} finally {
		await sim.close();
	}
}

/** Set-up: one run gives the requests the node makes; the baseline resends exactly those, in the same order. */
async function recordPages(sim: PlatformSimulator): Promise<Pages> {
	sim.server.log.clear();
	const first = await runPlatform(sim, PARAMETERS);
	const entries = sim.server.log.for(PLATFORM_ROUTES.results);
	const requestsMade = sim.server.log.count();
	if (first.items.length !== RESULTS) throw new Error(`Return All output ${first.items.length} items, expected ${RESULTS}`);
	const headers = replayHeaders(entries[0]);
	const urls = entries.map((entry) => urlOf(sim.url, entry));
	const itemsSeen = new Set(first.items.map((item) => String(item.json.id))).size;
	sim.server.log.clear();
	return { requestsMade, headers, urls, itemsSeen };
}

/** Measure: the node, a bare loop over the same pages, and one that also decodes and makes items, taking turns. */
async function measureReturnAll(settings: BenchSettings, sim: PlatformSimulator, { headers, urls }: Pages): Promise<ReturnAllSamples> {
	const requestCounts: number[] = [];
	const wall = await interleaved(settings, 'return all', {
		node: async () => {
			const run = await runPlatform(sim, PARAMETERS);
			if (run.items.length !== RESULTS) throw new Error(`Return All output ${run.items.length} items`);
			requestCounts.push(sim.server.log.count());
			sim.server.log.clear();
		},
		undici: async () => {
			const agent = new Agent();
			let records = 0;
			for (const url of urls) records += ((await getJson(url, headers, { dispatcher: agent })) as { data: unknown[] }).data.length;
			await agent.close();
			if (records !== RESULTS) throw new Error(`baseline read ${records} records`);
			sim.server.log.clear();
		},
		undiciDecode: async () => {
			const items = await readAndDecode(urls, headers);
			if (items.length !== RESULTS) throw new Error(`baseline output ${items.length} items`);
			sim.server.log.clear();
		},
	});
	return { wall, requestCounts };
}

/** The least a client must do to hand out what the node hands out: each record's JSON-string data decoded, one item per record. */
async function readAndDecode(urls: string[], headers: Record<string, string>): Promise<Array<{ json: Record<string, unknown>; pairedItem: { item: number } }>> {
	const agent = new Agent();
	const items: Array<{ json: Record<string, unknown>; pairedItem: { item: number } }> = [];
	for (const url of urls) {
		const page = (await getJson(url, headers, { dispatcher: agent })) as { data: Array<Record<string, unknown>> };
		for (const record of page.data) {
			if (typeof record.data === 'string') record.data = JSON.parse(record.data) as unknown;
			items.push({ json: record, pairedItem: { item: 0 } });
		}
	}
	await agent.close();
	return items;
}

/** Report: the figure's setup, measures and notes. */
function returnAllReport({ requestsMade, itemsSeen }: Pages, { wall, requestCounts }: ReturnAllSamples): FigureResult {
	const maxRequests = Math.max(requestsMade, ...requestCounts);
	return {
		id: 6,
		title: 'Return All',
		setup: [
			`${RESULTS.toLocaleString('en-US')} results stored for the account (PlatformSimulator.seedResults); Result > Get Many with Return All and Page Size ${PAGE_SIZE}, one input item, through the harness.`,
			`Minimum: ceil(${RESULTS.toLocaleString('en-US')} / ${PAGE_SIZE}) = ${MINIMUM} list requests. Requests counted from the simulator's log (every route).`,
			'Wall-time baseline: a bare undici loop requesting the same pages (same URLs and headers as the node sent) one after another, parsing each JSON body.',
		],
		measures: [
			{
				slug: '6.requests',
				label: `Requests for ${RESULTS.toLocaleString('en-US')} results`,
				unit: 'requests',
				value: maxRequests,
				baseline: { label: 'minimum', value: MINIMUM },
				ratio: maxRequests / MINIMUM,
				headline: true,
				flag: maxRequests > MINIMUM ? 'more than the minimum' : undefined,
			},
			{ slug: '6.items', label: 'Distinct results output', unit: '', value: itemsSeen, baseline: { label: 'stored', value: RESULTS }, ratio: itemsSeen / RESULTS },
			timedMeasure('6.wall', 'Wall time, Return All', wall.node, { label: 'undici loop over the same pages', samples: wall.undici }, { headline: true }),
			timedMeasure('6.wallDecode', 'Attribution: Wall time, Return All, against a loop that also decodes each record\'s data and makes one item per record', wall.node, { label: 'undici loop + decode + items', samples: wall.undiciDecode }),
		],
		notes: [
			`Return All reads ${maxRequests} pages for ${RESULTS.toLocaleString('en-US')} results at ${PAGE_SIZE} per page (the minimum is ${MINIMUM}): when the last page the answer's meta.totalPage names is full, the paging guard reads one more, because a count can lag behind a listing that grows while it is read; here it comes back empty. The wall time is the simulator's work per page (filtering and sorting the stored results for each request) plus decoding each record's data field; the node takes ${(median(wall.node) / median(wall.undici)).toFixed(2)}x the bare loop over the same pages. A loop that also decodes each record's JSON-string data and makes one item per record, as the node's output does, takes ${(median(wall.undiciDecode) / median(wall.undici)).toFixed(2)}x the bare loop: the node takes ${(median(wall.node) / median(wall.undiciDecode)).toFixed(2)}x that loop.`,
		],
	};
}
