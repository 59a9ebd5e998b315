import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { DEMO_AI_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PLATFORM_ROUTES } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';

/**
 * Parallel Requests on the Platform node: items' requests overlap, within a fixed number or a limit the node finds
 * by itself (Auto). What the simulator counts (its own in-flight peak and 429s) is the ground truth.
 */

const ctx = usePlatform();
const scraperId = DEMO_AI_SCRAPER_IDS.general;
const rerun = { resource: 'aiScraper', operation: 'rerun', scraperId };
const inputUrls = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://shop.example.com/p/${i}` }));

beforeEach(() => {
	ctx.sim.options.latencyMs = {};
	ctx.sim.options.concurrencyLimit = undefined;
	ctx.sim.resetConcurrencyStats();
});

describe('Parallel Requests', () => {
	it('unset, items go one at a time, as before', async () => {
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 50 };
		const result = await ctx.run({ ...rerun, url: '={{ $json.url }}' }, { input: inputUrls(6) });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN).peak).toBe(1);
	});

	it('a fixed number overlaps that many; output order and pairing follow the input, whatever finishes first', async () => {
		// Half the answers are slower, at random: completions come back out of order.
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 100 };
		ctx.sim.server.faults.add({ kind: 'slow', delayMs: 300, rate: 0.5, routes: [ROUTES.rerun] });
		const input = inputUrls(20);
		const result = await ctx.run({ ...rerun, url: '={{ $json.url }}', options: { parallel: { settings: { requests: 5 } } } }, { input });
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.url)).toEqual(input.map((i) => i.url));
		expect(result.items.map((i) => i.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		// The simulator counts a request in flight during its latency only (a slow answer waits before that).
		const stats = ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN);
		expect(stats.peak).toBeGreaterThanOrEqual(2);
		expect(stats.peak).toBeLessThanOrEqual(5);
		expect(stats.refused).toBe(0);
		expect(ctx.sim.server.log.count(ROUTES.rerun)).toBe(20);
	});

	it('a fixed number is exactly the number of requests in flight at once', async () => {
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 100 };
		const result = await ctx.run({ ...rerun, url: '={{ $json.url }}', options: { parallel: { settings: { requests: 5 } } } }, { input: inputUrls(20) });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN).peak).toBe(5);
	});

	it('Continue On Fail: failures mid-flight become error items at their own index, the rest succeed', async () => {
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 50 };
		const input = inputUrls(12).map((item, i) => (i % 4 === 1 ? { url: 'not a url' } : i % 4 === 3 ? { url: item.url, id: '00000000-0000-4000-8000-000000000000' } : item));
		const result = await ctx.run(
			{ ...rerun, scraperId: '={{ $json.id ?? "' + scraperId + '" }}', url: '={{ $json.url }}', options: { parallel: { settings: { requests: 4 } } } },
			{ input, continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(12);
		result.items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			if (i % 4 === 1) expect(item.json.error).toMatch(/^Invalid 'URL'/);
			else if (i % 4 === 3) expect(item.json.error).toMatch(/was not found \(404\)/);
			else expect(item.json.url).toBe(input[i].url);
		});
	});

	it('Auto finds the account limit: after the first 429 it stays at or under it, and every item succeeds', async () => {
		ctx.sim.options.concurrencyLimit = 6;
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 150 };
		const result = await ctx.run({ ...rerun, url: '={{ $json.url }}', options: { parallel: { settings: { auto: true } } } }, { input: inputUrls(120) });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(120);
		expect(result.items.every((i) => i.json.status === 'Finished')).toBe(true);
		const stats = ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN);
		expect(stats.peak).toBe(6);
		// It probes above the limit now and then, and otherwise stays under it: few refusals.
		const sent = ctx.sim.server.log.count(ROUTES.rerun);
		expect(sent).toBe(120 + stats.refused);
		expect(stats.refused).toBeGreaterThan(0);
		expect(stats.refused / sent).toBeLessThan(0.1);
	});

	it('Auto never goes above Requests at Once', async () => {
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 100 };
		const result = await ctx.run({ ...rerun, url: '={{ $json.url }}', options: { parallel: { settings: { auto: true, requests: 3 } } } }, { input: inputUrls(30) });
		expect(result.error).toBeUndefined();
		const stats = ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN);
		expect(stats.peak).toBe(3);
		expect(stats.refused).toBe(0);
	});

	it("Retry-After is honoured: a refused request is sent again no sooner than the service asked", async () => {
		ctx.sim.options.concurrencyLimit = 2;
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 100 };
		const result = await ctx.run({ ...rerun, url: '={{ $json.url }}', options: { parallel: { settings: { requests: 3 } } } }, { input: inputUrls(3) });
		expect(result.error).toBeUndefined();
		const requests = ctx.sim.server.log.for(ROUTES.rerun);
		const refused = requests.find((r) => r.status === 429);
		expect(refused).toBeDefined();
		const again = requests.filter((r) => (r.body as IDataObject).url === (refused?.body as IDataObject).url && r.status === 200);
		expect(again).toHaveLength(1);
		// Retry-After: 1 (seconds); the log keeps arrival times.
		expect(again[0].at - (refused?.at ?? 0)).toBeGreaterThanOrEqual(1_000);
	});

	it('Stop during a parallel run ends every wait at once and sends nothing more', async () => {
		ctx.sim.options.latencyMs = { [PLATFORM_ROUTES.rerun]: 1_500 };
		const started = Date.now();
		const result = await ctx.run({ ...rerun, url: '={{ $json.url }}', options: { parallel: { settings: { requests: 4 } } } }, { input: inputUrls(12), cancelAfterMs: 300 });
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(result.items).toHaveLength(0);
		const sentAtStop = ctx.sim.server.log.count(ROUTES.rerun);
		expect(sentAtStop).toBeLessThanOrEqual(4);
		await sleep(2_000);
		expect(ctx.sim.server.log.count(ROUTES.rerun)).toBe(sentAtStop);
	});

	it.each([
		['0', { requests: 0 }, "Invalid 'Requests at Once': 0 is out of range from 1 to 100"],
		['101', { requests: 101 }, "Invalid 'Requests at Once': 101 is out of range from 1 to 100"],
		['a fraction', { requests: 2.5 }, "Invalid 'Requests at Once': it must be a whole number"],
	])('Requests at Once %s is refused before anything is sent', async (_name, parallel, message) => {
		const result = await ctx.run({ ...rerun, url: 'https://shop.example.com/', options: { parallel: { settings: parallel } } });
		expect(result.error?.message).toContain(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});
