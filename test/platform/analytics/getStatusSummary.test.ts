import { jsonOf, ROUTES, scrapeStatsDomain, usePlatform } from '../helpers';

const ctx = usePlatform();

describe('Analytics', () => {
	beforeAll(async () => await scrapeStatsDomain(ctx));

	it('Get Status Summary converts the dates to UTC yyyy-MM-dd HH:mm:ss and counts the domain', async () => {
		const result = await ctx.run(
			{
				resource: 'analytics',
				operation: 'getStatusSummary',
				domain: 'stats.example.com',
				startDate: '2020-01-01T01:00:00',
				endDate: '2099-01-01T01:00:00',
			},
			{ timezone: 'Europe/Paris' },
		);
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.statuses)?.query).toEqual({
			domain: 'stats.example.com',
			startDate: '2020-01-01 00:00:00',
			endDate: '2099-01-01 00:00:00',
		});
		const summary = result.items[0].json;
		expect(summary.countAll).toBe(3);
		expect((summary.data as Array<{ key: string }>).map((row) => row.key).sort()).toEqual(
			['CANCELLED', 'COMPLETED', 'FAILED', 'PENDING', 'PROCESSING', 'RUNNING'],
		);
	});

	it.each([
		['a page URL', 'https://Stats.Example.com/shop/item?id=1#top'],
		['a URL without its scheme', 'stats.example.com/shop'],
		['an http URL', 'http://stats.example.com'],
	])('Domain given as %s: its host name is sent, as the vendor\'s clients send it, and counts the same', async (_name, domain) => {
		const result = await ctx.run({ resource: 'analytics', operation: 'getStatusSummary', domain, startDate: '2020-01-01T00:00:00', endDate: '2099-01-01T00:00:00' });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.statuses)?.query.domain).toBe('stats.example.com');
		expect(result.items[0].json.countAll).toBe(3);
	});

	it('sends action and token name only when set, and splits rows into items with numbers', async () => {
		const result = await ctx.run({
			resource: 'analytics',
			operation: 'getStatusSummary',
			domain: 'stats.example.com',
			startDate: '2020-01-01T00:00:00',
			endDate: '2099-01-01T00:00:00',
			additionalFields: { apiTokenName: 'demo' },
			options: { split: true },
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.statuses)?.query.apiTokenName).toBe('demo');
		expect(ctx.sim.server.log.last(ROUTES.statuses)?.query).not.toHaveProperty('action');
		const rows = jsonOf(result.items);
		expect(rows).toHaveLength(6);
		for (const row of rows) {
			expect(typeof row.count).toBe('number');
			expect(row.domain).toBe('stats.example.com');
		}
	});
});
