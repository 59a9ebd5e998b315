import { callPlatform } from '../../simulator/platform/client';
import {
	DEMO_MANUAL_SCRAPER_IDS,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PLATFORM_RESTRICTED_TOKEN,
	PLATFORM_ROUTES,
	PlatformSimulator,
	TOKEN_LIMIT_MESSAGE,
	type CreateAndRunRecord,
	type SubscriptionAccount,
} from '../../simulator/platform';
import { freshPerTest } from '../served';

// The create options of scrapers-ai as the public facts give them (the vendor's MCP server, SDKs and docs), and the
// token limit's 403.

interface Issue {
	field: string;
	rule: string;
}

describe('platform simulator: create options (scrapers-ai)', () => {
	const ctx = freshPerTest(() => new PlatformSimulator());
	const create = (body: Record<string, unknown>) => callPlatform<CreateAndRunRecord>(ctx.base, 'POST', '/api/v1/scrapers-ai', { body });
	const issues = async (body: Record<string, unknown>) => {
		const res = await create(body);
		expect(res.status).toBe(422);
		return ((res.body as unknown as { errors: Issue[] }).errors ?? []).map((i) => `${i.field}:${i.rule}`).sort();
	};
	const url = 'https://docs.example.com/';

	it("takes the agent as agent, as graph (the vendor's n8n node's name) or both when they agree; mode for the general agent", async () => {
		for (const body of [{ agent: 'listing' }, { graph: 'listing' }, { agent: 'listing', graph: 'listing' }]) {
			const res = await create({ url, message: 'Titles', ...body });
			expect(res.status).toBe(200);
			expect(ctx.sim.getScraper(res.body.data.scraperId)?.agent).toBe('listing');
		}
		expect(await issues({ url, message: 'Titles', agent: 'listing', graph: 'general' })).toEqual(['graph:equals']);
		expect((await create({ url, message: 'Titles', mode: 'Cheap' })).status).toBe(200);
		expect(await issues({ url, message: 'Titles', mode: 'cheap' })).toEqual(['mode:isIn']);
		expect(await issues({ url, message: 'Titles', agent: 'listing', mode: 'Super' })).toEqual(['mode:notForAgent']);
	});

	it('takes the instruction as prompt, as message (the vendor clients\' name) or both when they are the same text', async () => {
		for (const body of [{ prompt: 'Titles' }, { message: 'Titles' }, { prompt: 'Titles', message: 'Titles' }]) {
			const res = await create({ url, ...body });
			expect(res.status).toBe(200);
			expect(res.body.data.data.prompt).toBe('Titles');
			expect(ctx.sim.getScraper(res.body.data.scraperId)?.instructionSentAs).toEqual(Object.keys(body));
		}
		expect(await issues({ url, prompt: 'Titles', message: 'Prices' })).toEqual(['message:equals']);
		expect(await issues({ url, message: 5 })).toEqual(['message:isString']);
		expect(await issues({ url, agent: 'listing' })).toEqual(['prompt:required']);
	});

	it('the map agent takes no instruction and no proxy country, and needs none', async () => {
		const res = await create({ url, agent: 'map' });
		expect(res.status).toBe(200);
		expect(res.body.data.data).not.toHaveProperty('prompt');
		expect(await issues({ url, agent: 'map', prompt: 'x', message: 'x', proxyCountry: 'de' })).toEqual(['message:notForAgent', 'prompt:notForAgent', 'proxyCountry:notForAgent']);
	});

	it('records the map options sent, within their bounds, and its reruns crawl with them', async () => {
		const options = { maxDepth: 1, maxPages: 3, limit: 2, includePatterns: 'docs', excludePatterns: '/tag/' };
		const res = await create({ url, agent: 'map', ...options });
		expect(res.status).toBe(200);
		expect(res.body.data.data.options).toEqual(options);
		expect(ctx.sim.getScraper(res.body.data.scraperId)?.createOptions).toEqual(options);
		const rerun = await callPlatform<{ data: string[] }>(ctx.base, 'POST', '/api/v1/scrapers-ai-rerun', { body: { scraperId: res.body.data.scraperId, url } });
		expect(rerun.body.data.data.length).toBeLessThanOrEqual(2);
		// What a rerun sends wins over what the scraper was created with.
		const wider = await callPlatform<{ data: string[] }>(ctx.base, 'POST', '/api/v1/scrapers-ai-rerun', { body: { scraperId: res.body.data.scraperId, url, limit: 50, maxPages: 50 } });
		expect(wider.body.data.data.length).toBeGreaterThan(2);
		for (const [field, min, max] of [['maxDepth', 0, 5], ['maxPages', 1, 1000], ['limit', 1, 100_000]] as const) {
			expect((await create({ url, agent: 'map', [field]: min })).status).toBe(200);
			expect((await create({ url, agent: 'map', [field]: max })).status).toBe(200);
			expect(await issues({ url, agent: 'map', [field]: min - 1 })).toEqual([`${field}:isIntInRange`]);
			expect(await issues({ url, agent: 'map', [field]: max + 1 })).toEqual([`${field}:isIntInRange`]);
			expect(await issues({ url, agent: 'map', [field]: '3' })).toEqual([`${field}:isIntInRange`]);
		}
		expect(await issues({ url, agent: 'map', includePatterns: '(' })).toEqual(['includePatterns:isRegex']);
	});

	it('each option only for its agent: listing takes maxPages alone, general none', async () => {
		const listing = await create({ url, agent: 'listing', prompt: 'Items', maxPages: 7 });
		expect(listing.status).toBe(200);
		expect(ctx.sim.getScraper(listing.body.data.scraperId)?.createOptions).toEqual({ maxPages: 7 });
		expect(await issues({ url, agent: 'listing', prompt: 'Items', maxDepth: 1, limit: 5, excludePatterns: 'x' })).toEqual([
			'excludePatterns:notForAgent',
			'limit:notForAgent',
			'maxDepth:notForAgent',
		]);
		expect(await issues({ url, prompt: 'Items', maxPages: 2, includePatterns: 'x' })).toEqual(['includePatterns:notForAgent', 'maxPages:notForAgent']);
		expect(await issues({ url, agent: 'listing', prompt: 'Items', maxPages: 0 })).toEqual(['maxPages:isIntInRange']);
	});
});

describe('platform simulator: the token limit', () => {
	const ctx = freshPerTest(() => new PlatformSimulator());
	const account = async (token = PLATFORM_DEMO_TOKEN) => (await callPlatform<SubscriptionAccount>(ctx.base, 'GET', '/api/v1/subscription-accounts', { token })).body.data;

	it('a limit set by setAccountLimits is reported and enforced on the token-spending endpoints only; null lifts it', async () => {
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: 0 });
		expect((await account()).tokenLimit).toBe(0);
		const spending: Array<[string, string, Record<string, unknown>]> = [
			['POST', '/api/v1/scrapers-ai', { url: 'https://a.example.com/', prompt: 'x' }],
			['POST', '/api/v1/scrapers-ai-rerun', { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://a.example.com/' }],
			['POST', '/api/v1/scrapers-manual-rerun', { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://a.example.com/' }],
			['POST', '/api/v1/scrapers-manual-rerun/bulk', { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: ['https://a.example.com/'] }],
			['POST', '/api/v1/scrapers-ai-rerun/bulk', { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: ['https://a.example.com/'] }],
		];
		for (const [method, path, body] of spending) {
			const res = await callPlatform(ctx.base, method, path, { body, headers: { accept: 'application/json' } });
			expect([path, res.status, res.body]).toEqual([path, 403, { message: TOKEN_LIMIT_MESSAGE, error: 'Forbidden', statusCode: 403 }]);
		}
		expect(() => ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], ['https://a.example.com/'])).toThrow(TOKEN_LIMIT_MESSAGE);
		// Reads and cancels spend nothing; another account is not concerned.
		expect((await callPlatform(ctx.base, 'GET', '/api/v1/results?page=1&pageSize=10&sortField=id&sortOrder=ASC')).status).toBe(200);
		expect((await callPlatform(ctx.base, 'PATCH', `/api/v1/scrapers-bulks/${DEMO_MANUAL_SCRAPER_IDS[0]}/cancel`)).status).toBe(200);
		expect((await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { token: PLATFORM_OTHER_USER_TOKEN, body: spending[0][2] })).status).toBe(200);
		expect(ctx.sim.server.log.count(PLATFORM_ROUTES.createAndRun)).toBe(2);

		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: null });
		expect((await account()).tokenLimit).toBe(1_000_000);
		expect((await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { body: spending[0][2] })).status).toBe(200);
	});

	it('the limit is reached when the usage meets it, and the permission 403 comes first', async () => {
		expect((await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { body: { url: 'https://a.example.com/', prompt: 'x' } })).status).toBe(200);
		const used = (await account()).tokenUsage;
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: used });
		const res = await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { body: { url: 'https://b.example.com/', prompt: 'x' } });
		expect(res.body).toMatchObject({ message: TOKEN_LIMIT_MESSAGE });
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: used + 1 });
		expect((await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { body: { url: 'https://b.example.com/', prompt: 'x' } })).status).toBe(200);
		ctx.sim.setAccountLimits(PLATFORM_RESTRICTED_TOKEN, { tokenLimit: 0 });
		const restricted = await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { token: PLATFORM_RESTRICTED_TOKEN, body: { url: 'https://b.example.com/', prompt: 'x' } });
		expect(restricted.body).toMatchObject({ message: 'You do not have permission to access this resource', statusCode: 403 });
	});
});
