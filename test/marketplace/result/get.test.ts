import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { ROUTES, jsonOf, runOk, useMarketplace } from '../helpers';
import { LOCATOR_SHAPES, invalid, messageOf } from '../locators';

const ctx = useMarketplace();

describe('Result: Get', () => {
	it.each(LOCATOR_SHAPES)('%s: exactly that result, as the results list shows it', async (_shape, locator) => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		const listed = await runOk(ctx, { resource: 'result', operation: 'getMany', returnAll: true });
		ctx.sim.server.log.clear();
		const [result] = await runOk(ctx, { resource: 'result', operation: 'get', resultId: locator(90002) });
		expect(ctx.requests().map((r) => [r.route, r.method, r.path])).toEqual([[ROUTES.result, 'GET', '/api/results/90002']]);
		expect(result).toEqual(listed.find((r) => r.id === 90002));
	});

	it('Continue On Fail: good, missing and invalid ids, each item paired with its input', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 2);
		const input = [{ id: 90001 }, { id: 999_999 }, { id: 1.5 }, { id: 90002 }];
		const result = await ctx.run(
			{ resource: 'result', operation: 'get', resultId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			{ input, continueOnFail: true },
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		const json = jsonOf(result.items);
		expect(json[0].id).toBe(90001);
		expect(messageOf(json[1].error as string, 1)).toMatch(/^The result .999999. was not found \(404\)$/);
		expect(messageOf(json[2].error as string, 2)).toMatch(invalid('Result ID'));
		expect(json[3].id).toBe(90002);
		// The invalid id was refused before any request.
		expect(ctx.requests().map((r) => r.path)).toEqual(['/api/results/90001', '/api/results/999999', '/api/results/90002']);
	});
});
