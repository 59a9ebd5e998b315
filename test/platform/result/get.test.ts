import { PLATFORM_DEMO_TOKEN, PLATFORM_OTHER_USER_TOKEN } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();

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
