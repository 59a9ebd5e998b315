import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';
import { allText } from '../../harness';

const ctx = usePlatform();

describe('Account > Get', () => {
	it('returns the subscription account of the token', async () => {
		const result = await ctx.run({ resource: 'account', operation: 'get' });
		expect(result.error).toBeUndefined();
		const account = result.items[0].json;
		for (const field of ['id', 'userId', 'tokenLimit', 'tokenUsage', 'rateLimit', 'rateTtl', 'isEnterprise', 'user']) {
			expect(account).toHaveProperty(field);
		}
		const [request] = ctx.sim.server.log.for(ROUTES.account);
		expect(request.method).toBe('GET');
		expect(request.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(request.body).toBeUndefined();
		// The token itself never comes back in the output.
		expect(allText(result.items)).not.toContain(PLATFORM_DEMO_TOKEN);
	});

	it('shows token usage growing after a scrape', async () => {
		const before = (await ctx.run({ resource: 'account', operation: 'get' })).items[0].json.tokenUsage as number;
		await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://a.example.com/', prompt: 'Title' });
		const after = (await ctx.run({ resource: 'account', operation: 'get' })).items[0].json.tokenUsage as number;
		expect(after).toBeGreaterThan(before);
	});

	it('a wrong token gets the 401 advice to check the credential', async () => {
		const result = await ctx.run({ resource: 'account', operation: 'get' }, { token: 'wrong-token' });
		expect(result.error?.message).toBe('Scraper Platform did not accept the API token (401 Unauthorized) [item 0]');
		expect(result.error?.description).toContain("Check the token in the 'Scraper Platform API' credential");
		expect(allText(result.error)).not.toContain('wrong-token');
	});
});
