import { GatewaySimulator } from '../../simulator/gateway';
import { fetchParameters, runGateway } from '../lib/gateway';
import type { FigureResult } from '../lib/report';
import { timedMeasure } from '../lib/report';
import type { BenchSettings } from '../lib/stats';
import { interleaved, median } from '../lib/stats';

const URLS = 50;
const LATENCY_MS = 200;
const PARALLEL = 5;

/** Figure 3: 50 paid fetches at a simulated 200 ms service latency, Parallel Requests 1 against 5. */
export async function parallelFigure(settings: BenchSettings): Promise<FigureResult> {
	const sim = await GatewaySimulator.start({ testWalletCount: 1, upstreamDelayMs: LATENCY_MS });
	try {
		const wallet = sim.testWallets[0];
		let round = 0;
		const input = () => {
			round++;
			return Array.from({ length: URLS }, (_, i) => ({ url: `https://news.example.org/bench-${round}/story-${i}` }));
		};
		const run = async (parallelRequests: number) => {
			const settled = sim.settlements.length;
			const result = await runGateway(sim, wallet, fetchParameters({ parallelRequests }), input());
			if (result.items.length !== URLS || sim.settlements.length - settled !== URLS) throw new Error('not every item was paid and fetched');
			// Output order must stay the input order, whatever the concurrency.
			result.items.forEach((item, i) => {
				if (item.pairedItem && (item.pairedItem as { item: number }).item !== i) throw new Error('output order changed');
			});
		};
		const samples = await interleaved(settings, 'parallel', {
			parallel1: () => run(1),
			parallel5: () => run(PARALLEL),
		});
		const p1 = median(samples.parallel1);
		const p5 = median(samples.parallel5);
		const floor = Math.ceil(URLS / PARALLEL) * LATENCY_MS;
		return {
			id: 3,
			title: 'Parallel requests',
			setup: [
				`${URLS} paid Page > Fetch items through the Scraper Gateway node, the simulated service answering each paid request ${LATENCY_MS} ms after settling it (GatewaySimulator option upstreamDelayMs), real payments on the local chain.`,
				`Parallel Requests 1 (the default) against ${PARALLEL}. The simulator settles payments one at a time (one relayer account), as a facilitator with one signer does; only the ${LATENCY_MS} ms of service work overlaps.`,
				`Floor for ${PARALLEL} at a time: ceil(${URLS} / ${PARALLEL}) x ${LATENCY_MS} ms = ${floor} ms of latency alone; for 1 at a time ${URLS} x ${LATENCY_MS} = ${URLS * LATENCY_MS} ms.`,
			],
			measures: [
				timedMeasure('3.wall', `Wall time, Parallel Requests ${PARALLEL}`, samples.parallel5, { label: 'Parallel Requests 1', samples: samples.parallel1 }, { headline: true, ratioNote: '(lower is better)' }),
				{ slug: '3.speedup', label: 'Speed-up (1 / 5)', unit: 'x', value: p1 / p5, baseline: { label: 'ideal', value: PARALLEL } },
				{ slug: '3.floor5', label: `Wall time over the latency floor, Parallel Requests ${PARALLEL}`, unit: 'ms', value: p5, baseline: { label: 'floor', value: floor }, ratio: p5 / floor },
				{ slug: '3.floor1', label: 'Wall time over the latency floor, Parallel Requests 1', unit: 'ms', value: p1, baseline: { label: 'floor', value: URLS * LATENCY_MS }, ratio: p1 / (URLS * LATENCY_MS) },
			],
			notes: [
				`Parallel Requests ${PARALLEL} is ${(p1 / p5).toFixed(2)}x faster than 1 (ideal ${PARALLEL}x). With 1, each item costs ${(p1 / URLS).toFixed(0)} ms: the ${LATENCY_MS} ms of service latency plus ${((p1 - URLS * LATENCY_MS) / URLS).toFixed(0)} ms of payment and settlement. With ${PARALLEL}, the latency overlaps but the simulator settles one payment at a time, so the settlements (about ${((p1 - URLS * LATENCY_MS) / URLS).toFixed(0)} ms x ${URLS}) stay sequential: that, not the node, keeps the speed-up under ${PARALLEL}x. Output order and pairing are checked in every run.`,
			],
		};
	} finally {
		await sim.close();
	}
}
