import type { IDataObject } from 'n8n-workflow';

import { DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PLATFORM_RESTRICTED_TOKEN, TOKEN_LIMIT_MESSAGE } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';
import { useTokenHosts } from '../tokenHosts';

// The 403 "Token limit exceeded" (public facts) told apart from the permission 403 by its message: its own words
// and its own way out, and never a word n8n's guidelines keep out of messages.

const ctx = usePlatform();
const BANNED = /\b(errors?|problems?|failures?|failed to|mistakes?)\b/i;
const TOKEN_LIMIT_TEXT = `Scraper Platform: the plan's token limit is used up (403 ${TOKEN_LIMIT_MESSAGE}) [item 0]`;

afterEach(() => ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: null }));

// Page > Fetch and Search > Google spend tokens on hosts of their own, which answer the same 403.
const hosts = useTokenHosts();
afterEach(() => {
	hosts.platform.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: null });
	hosts.fetchHost.server.afterHandle = undefined;
	hosts.searchHost.server.afterHandle = undefined;
});
const onHosts = [
	['Page > Fetch', { resource: 'page', operation: 'fetch', url: 'https://shop.example.com/p/1' }, () => hosts.fetchHost.server],
	['Search > Google', { resource: 'search', operation: 'google', query: 'tea' }, () => hosts.searchHost.server],
] as const;

const spending: Array<[string, () => IDataObject]> = [
	['AI Scraper > Create and Run', () => ({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://shop.example.com/', prompt: 'Titles' })],
	['AI Scraper > Rerun', () => ({ resource: 'aiScraper', operation: 'rerun', scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/p/1' })],
	['Bulk > Start', () => ({ resource: 'bulk', operation: 'start', scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: 'https://shop.example.com/p/1' })],
	['Manual Scraper > Rerun', () => ({ resource: 'manualScraper', operation: 'rerun', scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/p/1' })],
];

describe('403 Token limit exceeded', () => {
	it.each(spending)('%s: said as the plan\'s token limit, with its own way out; sent once', async (_name, parameters) => {
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: 0 });
		const result = await ctx.run(parameters());
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.message).toBe(TOKEN_LIMIT_TEXT);
		expect(result.error?.description).toBe(
			"Not a matter of permissions: the account of the 'Scraper Platform API' credential has spent every token its plan includes. See its tokenUsage and tokenLimit with Scraper Platform's Account > Get, then upgrade the plan or wait until it renews.",
		);
		expect(`${result.error?.message} ${result.error?.description}`).not.toMatch(BANNED);
		expect(ctx.sim.server.log.for().map((r) => r.status)).toEqual([403]);
	});

	it('the permission 403 keeps its own message, which says nothing of tokens', async () => {
		const result = await ctx.run(spending[0][1](), { token: PLATFORM_RESTRICTED_TOKEN });
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.message).toBe('The API token has no access to this scraper (403 Forbidden) [item 0]');
		expect(result.error?.description).not.toMatch(/token limit|tokenUsage/);
	});

	it('is reached once the usage meets the limit: Account > Get shows both, the next start is refused, reads go on', async () => {
		const first = await ctx.run(spending[0][1]());
		expect(first.error).toBeUndefined();
		const before = (await ctx.run({ resource: 'account', operation: 'get', simplify: false })).items[0].json;
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: Number(before.tokenUsage) + 1 });
		// Below the limit by one token: this create still runs, and spends more than one.
		expect((await ctx.run(spending[0][1]())).error).toBeUndefined();
		const refused = await ctx.run(spending[0][1]());
		expect(refused.error?.message).toBe(TOKEN_LIMIT_TEXT);
		const account = (await ctx.run({ resource: 'account', operation: 'get', simplify: false })).items[0].json;
		expect(account.tokenLimit).toBe(Number(before.tokenUsage) + 1);
		expect(Number(account.tokenUsage)).toBeGreaterThanOrEqual(Number(account.tokenLimit));
		expect((await ctx.run({ resource: 'result', operation: 'getMany', limit: 1 })).error).toBeUndefined();
	});

	it('Bulk > Retry Failed URLs: the job is read, the start is refused with the same words, nothing started', async () => {
		const bulkId = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[2], ['https://shop.example.com/sim-fail']).id;
		ctx.sim.clock.advance(600_000);
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: 0 });
		ctx.sim.server.log.clear();
		const result = await ctx.run({ resource: 'bulk', operation: 'retryFailed', bulkId, options: { retryScraperKind: 'manual' } });
		expect(result.error?.message).toBe(TOKEN_LIMIT_TEXT);
		expect(ctx.sim.server.log.for(ROUTES.bulk).map((r) => r.status)).toEqual([403]);
	});

	it('the words of the service decide, in `message` or `error`, whatever else the body says', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 403, body: { statusCode: 403, error: 'Token limit exceeded', message: 'Forbidden' }, routes: [ROUTES.createAndRun] });
		const result = await ctx.run(spending[0][1]());
		expect(result.error?.message).toBe("Scraper Platform: the plan's token limit is used up (403 Token limit exceeded) [item 0]");
		expect(result.error?.description).toMatch(/^Not a matter of permissions/);
	});

	it.each(onHosts)('%s: said as the plan\'s token limit; sent once', async (_name, parameters, server) => {
		hosts.platform.setAccountLimits(PLATFORM_DEMO_TOKEN, { tokenLimit: 0 });
		const result = await hosts.run({ ...parameters });
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.message).toBe(TOKEN_LIMIT_TEXT);
		expect(result.error?.description).toMatch(/^Not a matter of permissions/);
		expect(server().log.for().map((r) => r.status)).toEqual([403]);
	});

	it.each(onHosts)('%s: a plain-text 403 "Token limit exceeded" is the token limit too, not a permission 403', async (_name, parameters, server) => {
		server().afterHandle = () => ({ status: 403, text: TOKEN_LIMIT_MESSAGE, headers: { 'content-type': 'text/plain' } });
		const result = await hosts.run({ ...parameters });
		expect(result.error?.message).toBe(TOKEN_LIMIT_TEXT);
		expect(result.error?.description).toMatch(/^Not a matter of permissions/);
	});
});
