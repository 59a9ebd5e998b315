import { jsonOf, ROUTES, scrapeStatsDomain, usePlatform } from '../helpers';

const ctx = usePlatform();

describe('Analytics', () => {
	beforeAll(async () => await scrapeStatsDomain(ctx));

	it('Get Proxy Bandwidth outputs one item per proxy username', async () => {
		const result = await ctx.run({
			resource: 'analytics',
			operation: 'getProxyBandwidth',
			startDate: '2020-01-01T00:00:00',
			endDate: '2099-01-01T00:00:00',
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.bandwidth)?.query).toEqual({ startDate: '2020-01-01 00:00:00', endDate: '2099-01-01 00:00:00' });
		expect(result.items.length).toBeGreaterThan(0);
		for (const row of jsonOf(result.items)) {
			expect(row.username).toEqual(expect.any(String));
			expect(row.total_bandwidth_usage).toEqual(expect.any(Number));
		}
	});
});
