import type { IDataObject } from 'n8n-workflow';

import { PAGING_BOUNDS } from '../../../nodes/shared/paging/pages';
import type { RunResult } from '../../harness';
import { PLATFORM_OTHER_USER_TOKEN } from '../../simulator/platform';
import { jsonOf, ROUTES, usePlatform } from '../helpers';
import { TOKEN, useLyingList } from '../lyingResults';

const PAGE_SIZE = 10;

const ids = (result: RunResult) => result.items.map((item) => String(item.json.id));
const hintsOf = (result: RunResult) => (result.run.data.resultData.runData[result.nodeName]?.[0]?.hints ?? []).map((hint) => hint.message);

describe('Result > Get Many', () => {
	const ctx = usePlatform();
	beforeAll(() => {
		// A fresh user so the count is exact: 1,234 results.
		ctx.sim.seedResults(PLATFORM_OTHER_USER_TOKEN, 1234);
	});

	it('Return All walks every page: every record once, requests = pages', async () => {
		const result = await ctx.run(
			{ resource: 'result', operation: 'getMany', returnAll: true, sort: { rule: { sortField: 'createdAt', sortOrder: 'ASC' } }, options: { pageSize: 100 } },
			{ token: PLATFORM_OTHER_USER_TOKEN },
		);
		expect(result.error).toBeUndefined();
		const ids = jsonOf(result.items).map((r) => r.id);
		expect(ids).toHaveLength(1234);
		expect(new Set(ids).size).toBe(1234);
		const requests = ctx.sim.server.log.for(ROUTES.results);
		expect(requests).toHaveLength(13);
		expect(requests.map((r) => r.query.page)).toEqual(Array.from({ length: 13 }, (_, i) => String(i + 1)));
		for (const r of requests) expect(r.query).toMatchObject({ pageSize: '100', sortField: 'createdAt', sortOrder: 'ASC' });
		// Listings send data as a JSON string: the node turns it into an object.
		expect(typeof result.items[0].json.data).toBe('object');
	});

	it('Limit stops early and asks only for what it needs', async () => {
		const result = await ctx.run(
			{ resource: 'result', operation: 'getMany', returnAll: false, limit: 30 },
			{ token: PLATFORM_OTHER_USER_TOKEN },
		);
		expect(result.items).toHaveLength(30);
		const requests = ctx.sim.server.log.for(ROUTES.results);
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({ page: '1', pageSize: '30', sortField: 'updatedAt', sortOrder: 'DESC' });
	});

	it('sends search, the date-range column and its bounds in UTC ISO form', async () => {
		const result = await ctx.run(
			{
				resource: 'result',
				operation: 'getMany',
				returnAll: true,
				sort: { rule: { sortField: 'status', sortOrder: 'ASC' } },
				filters: { search: 'Finished', dateRangeColumn: 'updatedAt', startAt: '2026-01-01T10:00:00', endAt: '2030-01-01T00:00:00' },
			},
			{ token: PLATFORM_OTHER_USER_TOKEN, timezone: 'Europe/Berlin' },
		);
		expect(result.error).toBeUndefined();
		const query = ctx.sim.server.log.last(ROUTES.results)!.query;
		expect(query).toMatchObject({
			search: 'Finished',
			dateRangeColumn: 'updatedAt',
			startAt: '2026-01-01T09:00:00.000Z',
			endAt: '2029-12-31T23:00:00.000Z',
			sortField: 'status',
		});
		for (const record of jsonOf(result.items)) expect(JSON.stringify(record).toLowerCase()).toContain('finished');
	});
});

describe('Result > Get Many: Return All ends however the results list behaves', () => {
	const { ctx, lie, requests } = useLyingList();
	/** The 50 records of the account, oldest first, as a faithful Return All reads them. */
	let truth: string[] = [];

	async function getMany(parameters: IDataObject = { returnAll: true }): Promise<RunResult> {
		return await ctx.run(
			{ resource: 'result', operation: 'getMany', sort: { rule: { sortField: 'createdAt', sortOrder: 'ASC' } }, simplify: false, options: { pageSize: PAGE_SIZE }, ...parameters },
			{ token: TOKEN },
		);
	}

	beforeAll(async () => {
		const faithful = await getMany();
		truth = ids(faithful);
		expect(new Set(truth).size).toBe(50);
		expect(hintsOf(faithful)).toEqual([]);
	});

	it('the same page again and again, with a billion pages counted: a clear stop after 2 requests, and Limit takes what was read', async () => {
		let first: IDataObject[] = [];
		lie((page, data, meta) => {
			if (page === 1) first = data;
			return { data: first, meta: { ...meta, total: 1e11, totalPage: 1e9 } };
		});
		const result = await getMany();
		expect(result.error?.message).toBe('The results list is not advancing: page 2 held only records already read [item 0]');
		expect(result.error?.description).toContain("Turn off 'Return All' and set 'Limit' to 10 or fewer to output the records read so far.");
		expect(requests()).toBe(2);

		ctx.sim.server.log.clear();
		const limited = await getMany({ returnAll: false, limit: 10 });
		expect(limited.error).toBeUndefined();
		expect(ids(limited)).toEqual(truth.slice(0, 10));
		expect(requests()).toBe(1);
	});

	it('no meta and the same full page forever: the same stop after 2 requests', async () => {
		let first: IDataObject[] = [];
		lie((page, data) => {
			if (page === 1) first = data;
			return { data: first };
		});
		const result = await getMany();
		expect(result.error?.message).toBe('The results list is not advancing: page 2 held only records already read [item 0]');
		expect(requests()).toBe(2);
	});

	it('an empty page 3 of 5 pages counted: read past, all 40 records, no hint', async () => {
		// 40 records on pages 1, 2, 4 and 5; page 3 is empty. Each page answers the faithful page it stands for.
		const faithful = new Map<number, IDataObject[]>();
		lie((page, data, meta) => {
			faithful.set(page, data);
			const stands = page < 3 ? page : page === 3 || page > 5 ? undefined : page - 1;
			return { data: stands === undefined ? [] : (faithful.get(stands) ?? []), meta: { ...meta, total: 40, totalPage: 5 } };
		});
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(truth.slice(0, 40));
		expect(hintsOf(result)).toEqual([]);
		// Pages 1 to 5, and page 6 after the full page 5 (the count could lag behind), which ends it.
		expect(requests()).toBe(6);
	});

	it('an empty page 3 that loses its records: the other 40, and a hint that the list said 50', async () => {
		lie((page, data, meta) => ({ data: page === 3 ? [] : data, meta }));
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual([...truth.slice(0, 20), ...truth.slice(30)]);
		expect(hintsOf(result)).toEqual([
			'The results list said it holds 50 records, but 40 records could be read (page 3 came back empty where it said more follow). ' +
				'Records deleted while the list is read, or a count that is out of date, can do this: run the node again to check.',
		]);
	});

	it('a count too low (20 records, 2 pages): all 50 records, read past the end it gave', async () => {
		lie((_page, data, meta) => ({ data, meta: { ...meta, total: 20, totalPage: 2 } }));
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(truth);
		expect(hintsOf(result)).toEqual([]);
		expect(requests()).toBe(6);
	});

	it('fresh full pages past the end it gave, forever: a clear stop after a bounded number of requests', async () => {
		const madeUp = (page: number) => Array.from({ length: PAGE_SIZE }, (_, i) => ({ id: `made-up-${page}-${i}`, status: 'Finished' }));
		lie((page, data, meta) => ({ data: page <= 2 ? data : madeUp(page), meta: { ...meta, total: 20, totalPage: 2 } }));
		const result = await getMany();
		expect(result.error?.message).toBe('The results list kept sending full pages past the end it gave [item 0]');
		expect(result.error?.description).toMatch(/^It said it holds 20 records, yet 10 full pages followed that end, and reading stopped at page 12 with 120 records read/);
		expect(requests()).toBe(2 + PAGING_BOUNDS.pastEnd);
	});
});

describe("Result > Get Many: Filters > Scraper ID, as the service's own n8n node filters", () => {
	const ctx = usePlatform();
	/** A scraper with its create and `reruns` reruns: `1 + reruns` results of its own. */
	async function scraperWithResults(reruns: number): Promise<string> {
		const created = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://filter.example.com/', prompt: 'Title and price' });
		const scraperId = created.items[0].json.scraperId as string;
		for (let i = 1; i <= reruns; i++) await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId, url: `https://filter.example.com/page/${i}` });
		return scraperId;
	}

	it('sends filters[scraperId] on every page and outputs that scraper\'s results only, all of them', async () => {
		const scraperId = await scraperWithResults(4);
		await scraperWithResults(2);
		ctx.sim.server.log.clear();
		const result = await ctx.run({ resource: 'result', operation: 'getMany', returnAll: true, filters: { scraperId }, options: { pageSize: 2 } });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.scraperId)).toEqual(Array(5).fill(scraperId));
		expect(new Set(ids(result)).size).toBe(5);
		const requests = ctx.sim.server.log.for(ROUTES.results);
		expect(requests.map((r) => r.query.page)).toEqual(['1', '2', '3']);
		for (const r of requests) expect(r.query).toEqual({ 'filters[scraperId]': scraperId, page: r.query.page, pageSize: '2', sortField: 'updatedAt', sortOrder: 'DESC' });
	});

	it('a service that ignores the filter: other scrapers\' records are read but never output, and Limit counts only its own', async () => {
		const scraperId = await scraperWithResults(3);
		const other = await scraperWithResults(0);
		// Each page as a service that ignored the filter would send it: another scraper's record among this one's.
		ctx.sim.server.afterHandle = (request, reply) => {
			const body = reply.json as { data?: Array<Record<string, unknown>> } | undefined;
			if (request.route !== ROUTES.results || !body?.data?.length) return reply;
			const foreign = { ...body.data[0], id: `f0000000-0000-4000-8000-00000000000${request.query.page}`, scraperId: other };
			return { ...reply, json: { ...body, data: [foreign, ...body.data] } };
		};
		try {
			const limited = await ctx.run({ resource: 'result', operation: 'getMany', limit: 3, filters: { scraperId }, options: { pageSize: 2 } });
			expect(limited.error).toBeUndefined();
			expect(limited.items.map((item) => item.json.scraperId)).toEqual([scraperId, scraperId, scraperId]);
			expect(hintsOf(limited)).toEqual([]);
		} finally {
			ctx.sim.server.afterHandle = undefined;
		}
	});

	it('an ID that is no UUID, or the filter added but blank (it would list every scraper), is refused before anything is sent', async () => {
		ctx.sim.server.log.clear();
		for (const [scraperId, rule] of [
			['my scraper', '"my scraper" is not a UUID'],
			['={{ "" }}', 'it was added but is empty'],
			['={{ $json.missing }}', 'it was added but is empty'],
		]) {
			const result = await ctx.run({ resource: 'result', operation: 'getMany', filters: { scraperId } });
			expect(result.error?.message).toBe(`Invalid 'Scraper ID': ${rule} [item 0]`);
			if (scraperId !== 'my scraper') expect(result.error?.description).toBe("Enter a value for 'Scraper ID', or remove the option.");
		}
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});
