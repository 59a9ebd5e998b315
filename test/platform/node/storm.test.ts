/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the storm figures are printed for the closing note */
import type { IDataObject } from 'n8n-workflow';

import { FETCH_ROUTES } from '../../simulator/platform/fetch';
import { SEARCH_ROUTES } from '../../simulator/platform/search';
import { totalResults } from '../../simulator/platform/serp';
import { ROUTES, usePlatform } from '../helpers';
import { useTokenHosts } from '../tokenHosts';

/**
 * 429 storms: AI Scraper > Create and Run over 300 items, no scraper created twice; Page > Fetch and Search > Google
 * with several items and Parallel Requests: every item once, nothing lost, and a fetch or search page answered 5xx
 * never sent again (it may have used tokens).
 */

const parallel = { parallel: { settings: { requests: 5 } } };

describe('a 30% 429 storm over 300 items', () => {
	const ctx = usePlatform({ rateLimit: 100_000 });
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

describe('Page > Fetch under a 30% 429 storm with 10% 500s, 40 items, 5 at once, Continue On Fail', () => {
	const ctx = useTokenHosts({ rateLimit: 100_000 });
	it('every item once, in order; every page fetched once; nothing sent again after a 500', async () => {
		ctx.fetchHost.server.faults.add({ kind: 'status', status: 500, rate: 0.1, routes: [FETCH_ROUTES.fetch] });
		ctx.fetchHost.server.faults.add({ kind: 'status', status: 429, rate: 0.3, retryAfterSeconds: 0, routes: [FETCH_ROUTES.fetch] });
		const input = Array.from({ length: 40 }, (_, i) => ({ target: `https://storm.example.com/page/${i}` }));
		const result = await ctx.run({ resource: 'page', operation: 'fetch', url: '={{ $json.target }}', options: parallel }, { input, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));

		const requests = ctx.fetchHost.server.log.for(FETCH_ROUTES.fetch);
		const byUrl = new Map<string, number[]>();
		for (const request of requests) byUrl.set(request.query.url, [...(byUrl.get(request.query.url) ?? []), request.status ?? 0]);
		result.items.forEach((item, i) => {
			const statuses = byUrl.get(input[i].target) ?? [];
			// Only 429s before the one answer the service acted on: a 200 (the page) or a 500 (the item's error).
			expect(statuses.slice(0, -1).every((status) => status === 429)).toBe(true);
			if (statuses[statuses.length - 1] === 200) {
				expect(item.json).toMatchObject({ url: input[i].target, statusCode: 200 });
			} else {
				expect(statuses[statuses.length - 1]).toBe(500);
				expect(item.json.error).toMatch(/may have run and used tokens/);
			}
		});
		const answered = [...byUrl.values()].map((statuses) => statuses[statuses.length - 1]);
		expect(answered.filter((s) => s === 500).length).toBeGreaterThan(0);
		expect(requests.filter((r) => r.status === 429).length).toBeGreaterThan(5);
		expect(byUrl.size).toBe(40);
	}, 60_000);
});

describe('Search > Google under a 30% 429 storm, 12 items with Return All, 4 at once', () => {
	const ctx = useTokenHosts({ rateLimit: 100_000 });
	it('every result of every item once, every page asked until answered once', async () => {
		ctx.searchHost.server.faults.add({ kind: 'status', status: 429, rate: 0.3, retryAfterSeconds: 0, routes: [SEARCH_ROUTES.google] });
		const queries = Array.from({ length: 12 }, (_, i) => `storm topic ${i}`);
		const result = await ctx.run(
			{ resource: 'search', operation: 'google', query: '={{ $json.q }}', returnAll: true, options: { parallel: { settings: { requests: 4 } } } },
			{ input: queries.map((q) => ({ q })) },
		);
		expect(result.error).toBeUndefined();
		const expected = queries.flatMap((query, item) => Array.from({ length: totalResults(query) }, (_, r) => `${item}:${r + 1}`));
		expect(result.items.map((i) => `${(i.pairedItem as { item: number }).item}:${String(i.json.rank)}`)).toEqual(expected);

		const requests = ctx.searchHost.server.log.for(SEARCH_ROUTES.google);
		const answered = requests.filter((r) => r.status === 200).map((r) => `${(r.body as IDataObject).query as string}|${String((r.body as IDataObject).page ?? 1)}`);
		expect(new Set(answered).size).toBe(answered.length);
		// Each page with results once, and no page past the last: the answers say where they end.
		expect(answered).toHaveLength(queries.reduce((sum, q) => sum + Math.ceil(totalResults(q) / 10), 0));
		expect(requests.filter((r) => r.status === 429).length).toBeGreaterThan(5);
	}, 60_000);
});
