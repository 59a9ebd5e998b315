import { GatewaySimulator } from '../../simulator/gateway';
import { payingFetch } from '../../simulator/gateway/client';
import { fetchParameters, requestCounts, runGateway } from '../lib/gateway';
import type { FigureResult } from '../lib/report';
import { timedMeasure } from '../lib/report';
import type { BenchSettings } from '../lib/stats';
import { interleaved, median } from '../lib/stats';

const ITEMS = 100;

type Counts = ReturnType<typeof requestCounts>;

/** What figure 2 measured: wall times per variant, and each timed run's requests as the simulator counted them. */
interface PaidSamples {
	wall: Record<'node' | 'x402fetch', number[]>;
	node: Counts[];
	library: Counts[];
}

/** Figure 2: HTTP requests and wall time for 100 paid page fetches, the node against @x402/fetch. */
export async function paidFigure(settings: BenchSettings): Promise<FigureResult> {
	const sim = await GatewaySimulator.start({ testWalletCount: 1 });
	try {
		return paidReport(await measurePaid(settings, sim));
	} finally {
		await sim.close();
	}
}

/** Set-up: each call gives ITEMS URLs never fetched before (so every one is paid for). */
function freshUrls(): () => string[] {
	let round = 0;
	return () => {
		round++;
		return Array.from({ length: ITEMS }, (_, i) => `https://shop.example.com/bench-${round}/product-${i}`);
	};
}

/** Measure: the node and wrapFetchWithPayment taking turns, each paying for ITEMS fetches with the same wallet. */
async function measurePaid(settings: BenchSettings, sim: GatewaySimulator): Promise<PaidSamples> {
	const wallet = sim.testWallets[0];
	const pay = payingFetch(sim, wallet);
	const urls = freshUrls();
	// The default spend limit (1 USDC) is exactly 100 pages: raised so the limit is not what is measured.
	const parameters = fetchParameters({ maxTotalSpend: 5 });
	const node: Counts[] = [];
	const library: Counts[] = [];
	const wall = await interleaved(settings, 'paid', {
		node: async () => {
			const from = sim.server.log.entries.length;
			const settled = sim.settlements.length;
			const result = await runGateway(sim, wallet, parameters, urls().map((url) => ({ url })));
			if (result.items.length !== ITEMS || sim.settlements.length - settled !== ITEMS) throw new Error('node did not pay for every item');
			node.push(requestCounts(sim, from));
		},
		x402fetch: async () => {
			const from = sim.server.log.entries.length;
			const settled = sim.settlements.length;
			await payEach(sim, pay, urls());
			if (sim.settlements.length - settled !== ITEMS) throw new Error('wrapFetchWithPayment did not pay for every item');
			library.push(requestCounts(sim, from));
		},
	});
	return { wall, node, library };
}

/** The baseline: one wrapFetchWithPayment call per URL, one after another. */
async function payEach(sim: GatewaySimulator, pay: ReturnType<typeof payingFetch>, urls: string[]): Promise<void> {
	for (const url of urls) {
		const response = await pay(`${sim.url}/api/service/scraperAPI`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ url }),
		});
		if (response.status !== 200) throw new Error(`wrapFetchWithPayment got ${response.status}`);
		await response.json();
	}
}

/** Report: the figure's setup, measures and notes. */
function paidReport({ wall, node, library }: PaidSamples): FigureResult {
	const perItem = (counts: Counts[]) => median(counts.map((c) => c.total / ITEMS));
	const nodePerItem = perItem(node);
	const libraryPerItem = perItem(library);
	const afterFirst = median(node.map((c) => (c.total - 2) / (ITEMS - 1)));
	return {
		id: 2,
		title: 'Paid round trips',
		setup: [
			`${ITEMS} paid Page > Fetch items (one URL each, default fields, Parallel Requests 1) through the Scraper Gateway node on the harness, against GatewaySimulator: x402 v2, payments verified and settled on a local anvil chain, 0.01 USDC each, from one test wallet. Max Total Spend raised to 5 USDC (the default 1 USDC is exactly 100 pages).`,
			`Baseline: @x402/fetch's wrapFetchWithPayment (test/simulator/gateway/client.ts payingFetch) paying the same ${ITEMS} fetches with the same wallet, one after another.`,
			'Requests counted from the simulator\'s log (sim.server.log): every request that reached the gateway, signed or not.',
		],
		measures: [
			{
				slug: '2.requestsPerItem',
				label: 'HTTP requests per paid item',
				unit: '',
				value: nodePerItem,
				baseline: { label: 'wrapFetchWithPayment', value: libraryPerItem },
				ratio: nodePerItem / libraryPerItem,
				headline: true,
				flag: afterFirst > 1 ? 'more than one request per paid item' : undefined,
			},
			{
				slug: '2.requestsAfterFirst',
				label: 'HTTP requests per paid item after the first (the first learns the price from a 402)',
				unit: '',
				value: afterFirst,
			},
			{ slug: '2.signed', label: 'Signed requests per run', unit: '', value: median(node.map((c) => c.signed)), baseline: { label: 'wrapFetchWithPayment', value: median(library.map((c) => c.signed)) } },
			{ slug: '2.unpaid402', label: '402 answers per run', unit: '', value: median(node.map((c) => c.unpaid402)), baseline: { label: 'wrapFetchWithPayment', value: median(library.map((c) => c.unpaid402)) } },
			timedMeasure('2.wall', `Wall time, ${ITEMS} paid fetches`, wall.node, { label: 'wrapFetchWithPayment', samples: wall.x402fetch }, { headline: true }),
		],
		notes: [
			`The node sends one unpaid request per execution, whose 402 names the price, then exactly one signed request per item (${afterFirst.toFixed(2)} per paid item after the first; ${nodePerItem.toFixed(2)} over the run, the 402 included). wrapFetchWithPayment sends every call twice, unpaid then paid (${libraryPerItem.toFixed(2)}).`,
			`Wall time per paid item: ${(median(wall.node) / ITEMS).toFixed(0)} ms (node) against ${(median(wall.x402fetch) / ITEMS).toFixed(0)} ms (library). On loopback both are dominated by the payment itself (signing, the facilitator's verification and the on-chain settlement, one at a time); the round trip the node saves per item is worth a network round trip against a remote gateway, not on loopback.`,
		],
	};
}
