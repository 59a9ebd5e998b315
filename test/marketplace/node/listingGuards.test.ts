import type { INodeListSearchResult } from 'n8n-workflow';

import { runListSearch } from '../../harness';
import type { LoggedRequest } from '../../simulator/core/log';
import type { SimReply } from '../../simulator/core/http';
import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { ROUTES, runOk, useMarketplace } from '../helpers';

/**
 * Section C listings (`{data: [...]}`, no count) that repeat themselves or shift while they are read, through n8n's
 * engine: Result > Get Many and Scraper > Get Many end with a clear stop, and the Result picker lists each result
 * once and ends. The simulator's `afterHandle` rewrites answers; `beforeHandle` adds results between two page reads.
 */

const ctx = useMarketplace();

/** From page 2 on, every answer of `route` repeats page 1, as a listing that ignores `page` would. */
function repeatFirstPage(route: string): void {
	let first: unknown;
	ctx.sim.server.afterHandle = (request: LoggedRequest, reply: SimReply) => {
		if (request.route !== route || reply.status !== 200) return undefined;
		if (request.query.page === '1') first = reply.json;
		return { ...reply, json: first };
	};
}

afterEach(() => {
	ctx.sim.server.afterHandle = undefined;
	ctx.sim.server.beforeHandle = undefined;
});

describe('Get Many over a listing that repeats its first page', () => {
	it('Result > Get Many: a clear stop after 2 requests, not 20,000 items of 10 records', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 25);
		repeatFirstPage(ROUTES.listResults);
		const result = await ctx.run({ resource: 'result', operation: 'getMany', returnAll: true, options: { perPage: 10 } });
		expect(result.error?.message).toBe('The results list is not advancing: page 2 held only records already read [item 0]');
		expect(result.error?.description).toContain("Turn off 'Return All' and set 'Limit' to 10 or fewer");
		expect(ctx.requests(ROUTES.listResults)).toHaveLength(2);
	});

	it('Scraper > Get Many: the same stop, naming the scrapers list', async () => {
		for (let i = 0; i < 25; i++) ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		repeatFirstPage(ROUTES.listScrapers);
		const result = await ctx.run({ resource: 'scraper', operation: 'getMany', returnAll: true, options: { perPage: 10 } });
		expect(result.error?.message).toBe('The scrapers list is not advancing: page 2 held only records already read [item 0]');
		expect(ctx.requests(ROUTES.listScrapers)).toHaveLength(2);
	});

	it('Result > Get Many with a Limit above what the listing gives: the stop says which Limit takes it', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 25);
		repeatFirstPage(ROUTES.listResults);
		const result = await ctx.run({ resource: 'result', operation: 'getMany', returnAll: false, limit: 40, options: { perPage: 10 } });
		expect(result.error?.description).toContain("Set 'Limit' to 10 or fewer to output the records read so far.");
		expect(ctx.requests(ROUTES.listResults)).toHaveLength(2);
	});
});

describe('Result > Get Many over a listing that shifts while it is read', () => {
	it('results added between two page reads push the list down: each result once', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 30);
		ctx.sim.server.beforeHandle = (request) => {
			if (request.route === ROUTES.listResults && request.query.page === '2') ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 4);
		};
		const items = await runOk(ctx, { resource: 'result', operation: 'getMany', returnAll: true, options: { perPage: 10 } });
		const ids = items.map((item) => item.id);
		expect(new Set(ids).size).toBe(ids.length);
		// The 30 results there when the walk began, each once; the 4 added on top of page 1 are not reached.
		expect(ids).toHaveLength(30);
	});
});

describe('Result picker', () => {
	async function scroll(paginationToken?: string): Promise<INodeListSearchResult> {
		return await runListSearch({
			nodeType: 'scraperMarketplace',
			method: 'searchResults',
			parameters: { resource: 'result', operation: 'get' },
			credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: ctx.sim.url } },
			paginationToken,
		});
	}

	const values = (result: INodeListSearchResult) => result.results.map((r) => String(r.value));

	it('a listing that repeats its first page: each result listed once, then no next page', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 250);
		repeatFirstPage(ROUTES.listResults);
		const one = await scroll();
		expect(one.results).toHaveLength(100);
		const two = await scroll(one.paginationToken as string);
		expect(two.results).toEqual([]);
		expect(two.paginationToken).toBeUndefined();
		expect(ctx.requests(ROUTES.listResults)).toHaveLength(2);
	});

	it('results added while scrolling push the list down: none listed twice, none of the first ones missed', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 150);
		const one = await scroll();
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 30);
		const two = await scroll(one.paginationToken as string);
		const listed = [...values(one), ...values(two)];
		expect(new Set(listed).size).toBe(listed.length);
		expect(listed).toHaveLength(150);
		expect(two.paginationToken).toBeUndefined();
	});
});
