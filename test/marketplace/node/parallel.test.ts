import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../../simulator/marketplace';
import { ROUTES, useMarketplace, waitWith } from '../helpers';

/** Parallel Requests on the Marketplace node, against the simulator's per-account concurrency limit. */

const ctx = useMarketplace();
const scrape = { resource: 'jobBoard', operation: 'scrape', urls: '={{ $json.url }}' };
const boards = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://jobs.example.com/search?q=role-${i}` }));

beforeEach(() => {
	ctx.sim.options.latencyMs = {};
	ctx.sim.resetConcurrencyStats();
});

describe('Parallel Requests (Marketplace)', () => {
	it('Auto on a free account (10 at once): every board scraped once, in input order, at most a few refusals', async () => {
		ctx.sim.options.latencyMs = { [ROUTES.jobBoardScrape]: 200 };
		const input = boards(60);
		const result = await ctx.run({ ...scrape, options: { parallel: { settings: { auto: true } } } }, { input, token: MARKETPLACE_OTHER_USER_TOKEN });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(60);
		expect(result.items.map((i) => i.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		expect(result.items.every((i) => i.json.totalDone === 1)).toBe(true);
		const stats = ctx.sim.concurrencyStats(MARKETPLACE_OTHER_USER_TOKEN);
		expect(stats.peak).toBe(10);
		const sent = ctx.requests(ROUTES.jobBoardScrape).length;
		expect(sent).toBe(60 + stats.refused);
		expect(stats.refused / sent).toBeLessThan(0.1);
	});

	it('a fixed number caps the requests in flight, waits included', async () => {
		ctx.sim.options.latencyMs = { [ROUTES.socialLeadsCreateAndRun]: 150, [ROUTES.scrapingRun]: 100 };
		const input = Array.from({ length: 8 }, (_, i) => ({ keywords: `crm ${i}` }));
		const result = await ctx.run(
			{ resource: 'lead', operation: 'createAndRunSocial', name: 'CRM talk', keywords: '={{ $json.keywords }}', expectedData: 2, ...waitWith({ parallel: { settings: { requests: 3 } } }) },
			{ input },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(8);
		expect(result.items.every((i) => i.json.status === 'succeeded')).toBe(true);
		expect(ctx.sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN).peak).toBeLessThanOrEqual(3);
	});
});
