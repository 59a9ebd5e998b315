import { PLATFORM_DEMO_TOKEN, PLATFORM_OTHER_USER_TOKEN } from '../simulator/platform';
import { jsonOf, ROUTES, usePlatform } from './helpers';

const ctx = usePlatform();

describe('Result > Get Many', () => {
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

describe('Result > Get', () => {
	it('gets one record by id and can split its data into items', async () => {
		const created = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://list.example.com/', prompt: 'Items', agent: 'listing' });
		const scraperId = created.items[0].json.scraperId as string;
		const rerun = await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId, url: 'https://list.example.com/page/2' });
		const id = rerun.items[0].json.id as string;
		ctx.sim.server.log.clear();

		const one = await ctx.run({ resource: 'result', operation: 'get', resultId: id });
		expect(one.items).toHaveLength(1);
		expect(one.items[0].json).toMatchObject({ id, type: 'Rerun-AI' });
		expect(ctx.sim.server.log.last(ROUTES.result)?.path).toBe(`/api/v1/results/${id}`);

		const split = await ctx.run({ resource: 'result', operation: 'get', resultId: id, options: { split: true } });
		const data = one.items[0].json.data as unknown[];
		expect(Array.isArray(data)).toBe(true);
		expect(split.items).toHaveLength(data.length);
		expect(split.items.every((item) => item.json.resultId === id)).toBe(true);
	});

	it('a result of another user is not found (404) and names the id', async () => {
		const other = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://x.example.com/', prompt: 'T' }, { token: PLATFORM_DEMO_TOKEN });
		const id = other.items[0].json.id as string;
		const result = await ctx.run({ resource: 'result', operation: 'get', resultId: id }, { token: PLATFORM_OTHER_USER_TOKEN });
		expect(result.error?.message).toBe(`The result "${id}" was not found (404) [item 0]`);
	});
});
