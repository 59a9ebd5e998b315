/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the storm figures are printed for the closing note */
import { ROUTES, usePlatform } from './helpers';

const ctx = usePlatform({ rateLimit: 100_000 });

describe('a 30% 429 storm over 300 items', () => {
	it('every item succeeds exactly once and no job is created twice', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 429, rate: 0.3, retryAfterSeconds: 0, routes: [ROUTES.createAndRun] });
		const input = Array.from({ length: 300 }, (_, i) => ({ target: `https://storm.example.com/page/${i}` }));
		const started = Date.now();
		const result = await ctx.run(
			{ resource: 'aiScraper', operation: 'createAndRun', url: '={{ $json.target }}', prompt: 'Title' },
			{ input },
		);
		const elapsedMs = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(300);
		result.items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect(item.json.url).toBe(`https://storm.example.com/page/${i}`);
		});

		const requests = ctx.sim.server.log.for(ROUTES.createAndRun);
		const accepted = requests.filter((r) => r.status === 200);
		const limited = requests.filter((r) => r.status === 429);
		// Exactly one accepted request (one scraper) per item; the rest were 429s the service did not act on.
		expect(accepted).toHaveLength(300);
		expect(new Set(accepted.map((r) => (r.body as { url: string }).url)).size).toBe(300);
		expect(new Set(result.items.map((i) => i.json.scraperId)).size).toBe(300);
		expect(limited.length).toBeGreaterThan(60);
		// Figures for the closing note.
		process.stdout.write(`429 storm: 300 items, ${requests.length} requests, ${limited.length} answered 429, ${accepted.length} accepted, ${elapsedMs} ms\n`);
	}, 120_000);
});
