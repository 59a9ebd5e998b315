import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_OTHER_USER_TOKEN } from '../../simulator/marketplace';
import { BEARER, ROUTES, runOk, useMarketplace } from '../helpers';

const ctx = useMarketplace();
const getMany = { resource: 'result', operation: 'getMany' };

describe('Result: Get Many', () => {
	it('Return All reads every page: one request per page, newest first', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 25);
		const items = await runOk(ctx, { ...getMany, returnAll: true, options: { perPage: 10 } });
		const requests = ctx.requests();
		expect(requests.map((r) => r.query)).toEqual([
			{ page: '1', per_page: '10' },
			{ page: '2', per_page: '10' },
			{ page: '3', per_page: '10' },
		]);
		expect(requests.every((r) => r.route === ROUTES.listResults && r.method === 'GET' && r.headers.authorization === BEARER)).toBe(true);
		expect(items).toHaveLength(25);
		expect(new Set(items.map((i) => i.id)).size).toBe(25);
		const created = items.map((i) => Date.parse(i.created_at as string));
		expect([...created].sort((a, b) => b - a)).toEqual(created);
		expect(items.every((i) => i.status === 'succeeded' && Array.isArray(i.content))).toBe(true);
	});

	it('Return All stops at an empty page when the last full page ends the list', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 20);
		const items = await runOk(ctx, { ...getMany, returnAll: true, options: { perPage: 10 } });
		expect(items).toHaveLength(20);
		expect(ctx.requests()).toHaveLength(3);
	});

	it('Limit asks for no more than needed', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 30);
		const five = await runOk(ctx, { ...getMany, limit: 5 });
		expect(five).toHaveLength(5);
		expect(ctx.requests().map((r) => r.query)).toEqual([{ page: '1', per_page: '5' }]);

		ctx.sim.server.log.clear();
		const twelve = await runOk(ctx, { ...getMany, limit: 12, options: { perPage: 5 } });
		expect(twelve).toHaveLength(12);
		expect(ctx.requests().map((r) => r.query.page)).toEqual(['1', '2', '3']);
		expect(twelve.map((i) => i.id)).toEqual(
			(await runOk(ctx, { ...getMany, limit: 12 })).map((i) => i.id),
		);
	});

	it('lists only the results of the token\'s account', async () => {
		ctx.sim.seedRuns(MARKETPLACE_OTHER_USER_TOKEN, 3);
		expect(await runOk(ctx, { ...getMany, returnAll: true })).toHaveLength(0);
	});

	it('Split Into Items outputs one item per extracted record, with the result IDs', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 2);
		const results = await runOk(ctx, { ...getMany, returnAll: true });
		const records = await runOk(ctx, { ...getMany, returnAll: true, options: { split: true } });
		const expected = results.reduce((n, r) => n + (r.content as unknown[]).length, 0);
		expect(records).toHaveLength(expected);
		expect(records.every((r) => typeof r.result_id === 'number' && typeof r.email === 'string')).toBe(true);
	});

	it.each([
		['limit 0', { limit: 0 }, "Invalid 'Limit': 0 is out of range of at least 1"],
		['page size 101', { options: { perPage: 101 } }, "Invalid 'Page Size': 101 is out of range from 1 to 100"],
		['page size 0', { options: { perPage: 0 } }, "Invalid 'Page Size': 0 is out of range from 1 to 100"],
	])('validation: %s (nothing is sent)', async (_name, parameters, message) => {
		const result = await ctx.run({ ...getMany, ...parameters });
		expect(result.error?.message).toContain(message);
		expect(ctx.requests()).toHaveLength(0);
	});
});
