import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';
import { allText } from '../../harness';
import { runAgent } from '../../harness/agent';

const ctx = usePlatform();

describe('Account > Get', () => {
	it('returns the subscription account of the token (version 3: the whole answer)', async () => {
		const result = await ctx.run({ resource: 'account', operation: 'get' }, { typeVersion: 3 });
		expect(result.error).toBeUndefined();
		const account = result.items[0].json;
		for (const field of ['id', 'userId', 'tokenLimit', 'tokenUsage', 'rateLimit', 'rateTtl', 'isEnterprise', 'user']) {
			expect(account).toHaveProperty(field);
		}
		const [request] = ctx.sim.server.log.for(ROUTES.account);
		expect(request.method).toBe('GET');
		expect(request.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		// The platform's own host takes x-api-token only (interface, B): no Bearer goes there.
		expect(request.headers.authorization).toBeUndefined();
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

	it('Simplify (on by default from version 3.1) keeps ten fields, the plan and its usage first; off gives the whole answer', async () => {
		const simplified = (await ctx.run({ resource: 'account', operation: 'get' })).items[0].json;
		expect(Object.keys(simplified)).toEqual(['id', 'tokenLimit', 'tokenUsage', 'quantity', 'rateLimit', 'rateTtl', 'billingStatus', 'endsAt', 'isAutoRenew', 'isEnterprise']);
		const whole = (await ctx.run({ resource: 'account', operation: 'get', simplify: false })).items[0].json;
		expect(Object.keys(whole).length).toBeGreaterThan(10);
		expect(whole).toHaveProperty('user.email');
	});

	it.each(['billing', 'stripe'] as const)("Simplify shows the billing status whichever names the service uses (%s…)", async (names) => {
		ctx.sim.options.accountBillingNames = names;
		try {
			const simplified = (await ctx.run({ resource: 'account', operation: 'get' })).items[0].json;
			expect(simplified.billingStatus).toBe('active');
			expect(Object.keys(simplified)).toHaveLength(10);
			const whole = (await ctx.run({ resource: 'account', operation: 'get', simplify: false })).items[0].json;
			// The whole answer is the service's, under its own names.
			expect(whole).toHaveProperty(names === 'stripe' ? 'stripeStatus' : 'billingStatus', 'active');
			expect(whole).not.toHaveProperty(names === 'stripe' ? 'billingStatus' : 'stripeStatus');
			const agent = await runAgent({
				credentials: { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: ctx.sim.url } },
				tools: [{ name: 'Account', nodeType: 'scraperPlatform', parameters: { resource: 'account', operation: 'get', toolOutput: 'selected', toolFields: ['billingSubscriptionId', 'billingStatus'] } }],
				turns: [[{ tool: 'Account', input: {} }]],
			});
			expect(agent.observations[0].output?.[0]).toEqual({ id: expect.any(String), billingSubscriptionId: expect.any(String), billingStatus: 'active' });
		} finally {
			ctx.sim.options.accountBillingNames = 'billing';
		}
	});

	it("the user's latest API token is masked even when the service sends it whole, at every version", async () => {
		// A token as the service would send it unmasked (built here: it is no real secret).
		const unmasked = ['sk', 'live', '0123456789abcdef'].join('-');
		ctx.sim.server.afterHandle = (request, reply) => {
			const body = reply.json as { data?: { user?: { latestApiToken?: string } } } | undefined;
			if (request.route !== ROUTES.account || !body?.data?.user) return reply;
			return { ...reply, json: { ...body, data: { ...body.data, user: { ...body.data.user, latestApiToken: unmasked } } } };
		};
		try {
			for (const typeVersion of [3, 3.1]) {
				const result = await ctx.run({ resource: 'account', operation: 'get', simplify: false }, { typeVersion });
				expect(allText(result.items)).not.toContain(unmasked);
				expect(result.items[0].json).toHaveProperty(['user', 'latestApiToken'], 'sk-l…');
			}
		} finally {
			ctx.sim.server.afterHandle = undefined;
		}
	});
});
