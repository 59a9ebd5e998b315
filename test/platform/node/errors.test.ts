import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_OTHER_USER_TOKEN, PLATFORM_RESTRICTED_TOKEN } from '../../simulator/platform';
import type { IDataObject } from 'n8n-workflow';
import { allText } from '../../harness';
import { errorReply } from '../../simulator/platform/errors';
import { ROUTES, usePlatform } from '../helpers';
import { useTokenHosts } from '../tokenHosts';

// What the service answers when it refuses (401, 403, 404, 422, 429): each named in words the user can act on, and
// retried only where that can help. 5xx answers, lost connections and an unreachable service: networkErrors.test.ts.

const ctx = usePlatform();
const missing = '00000000-0000-4000-8000-000000000000';
let aiScraperId: string;

beforeAll(async () => {
	const created = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://e.example.com/', prompt: 'T' });
	aiScraperId = created.items[0].json.scraperId as string;
});

const create = { resource: 'aiScraper', operation: 'createAndRun', url: 'https://e.example.com/', prompt: 'T' };
const rerun = () => ({ resource: 'aiScraper', operation: 'rerun', scraperId: aiScraperId, url: 'https://e.example.com/2' });
const bulk = { resource: 'bulk', operation: 'start', scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: 'https://e.example.com/1' };

describe('401 on every endpoint', () => {
	const operations: IDataObject[] = [
		{ resource: 'account', operation: 'get' },
		create,
		{ resource: 'aiScraper', operation: 'rerun', scraperId: missing, url: 'https://e.example.com/' },
		bulk,
		{ resource: 'bulk', operation: 'get', bulkId: missing },
		{ resource: 'bulk', operation: 'cancel', bulkId: missing },
		{ resource: 'result', operation: 'get', resultId: missing },
		{ resource: 'result', operation: 'getMany' },
		{ resource: 'analytics', operation: 'getStatusSummary', domain: 'e.example.com', startDate: '2026-01-01T00:00:00', endDate: '2026-01-02T00:00:00' },
		{ resource: 'analytics', operation: 'getProxyBandwidth', startDate: '2026-01-01T00:00:00', endDate: '2026-01-02T00:00:00' },
	];
	it.each(operations.map((op) => [`${op.resource} ${op.operation}`, op]))('%s', async (_name, parameters) => {
		const result = await ctx.run(parameters as IDataObject, { token: 'invalid-token-value' });
		expect(result.error?.message).toBe('Scraper Platform did not accept the API token (401 Unauthorized) [item 0]');
		expect(result.error?.httpCode).toBe('401');
		expect(allText(result.error)).not.toContain('invalid-token-value');
		// 401 is not retried: one request.
		expect(ctx.sim.server.log.count()).toBe(1);
	});
});

// Page > Fetch and Search > Google go to hosts of their own, with the same token and the same statuses.
const hosts = useTokenHosts();
const fetchPage = { resource: 'page', operation: 'fetch', url: 'https://e.example.com/' };
const search = { resource: 'search', operation: 'google', query: 'tea' };
const onHosts = [['Page > Fetch', fetchPage, () => hosts.fetchHost.server], ['Search > Google', search, () => hosts.searchHost.server]] as const;
afterEach(() => onHosts.forEach(([, , server]) => (server().afterHandle = undefined)));

describe('401 and the service\'s own 400 on the fetch and search hosts', () => {
	it.each(onHosts)('%s: 401, one request, the token never shown', async (_name, parameters, server) => {
		const result = await hosts.run({ ...parameters }, { credential: hosts.credential({ apiToken: 'invalid-token-value' }) });
		expect(result.error?.message).toBe('Scraper Platform did not accept the API token (401 Unauthorized) [item 0]');
		expect(allText(result.error)).not.toContain('invalid-token-value');
		expect(server().log.for().map((r) => r.status)).toEqual([401]);
	});
	const forms = onHosts.flatMap(([name, parameters, server]) => (['json', 'text'] as const).map((form) => [`${name}, a ${form} body`, parameters, server, form] as const));
	it.each(forms)('%s: 400 passed through with its words', async (_name, parameters, server, form) => {
		const said = 'region is not served for this account';
		server().afterHandle = () => (form === 'json' ? errorReply(400, said) : { status: 400, text: said });
		expect((await hosts.run({ ...parameters })).error?.message).toBe(`Scraper Platform rejected the request: ${said} [item 0]`);
	});
});

describe('403 for a token without access', () => {
	it.each([
		['create and run', () => create],
		['rerun', rerun],
		['bulk start', () => bulk],
	])('%s', async (_name, parameters) => {
		const result = await ctx.run(parameters(), { token: PLATFORM_RESTRICTED_TOKEN });
		expect(result.error?.message).toMatch(/^The API token has no access to this scraper/);
		expect(result.error?.description).toContain('lacks access');
	});

	it('rerun of another user\'s scraper', async () => {
		const result = await ctx.run(rerun(), { token: PLATFORM_OTHER_USER_TOKEN });
		expect(result.error?.message).toBe(`The API token has no access to this scraper "${aiScraperId}" (403 Forbidden) [item 0]`);
	});
});

describe('404 names the id', () => {
	it('rerun of an unknown scraper', async () => {
		const result = await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId: missing, url: 'https://e.example.com/' });
		expect(result.error?.message).toBe(`The scraper "${missing}" was not found (404) [item 0]`);
	});
	it('bulk of an unknown scraper', async () => {
		const result = await ctx.run({ ...bulk, scraperId: missing });
		expect(result.error?.message).toBe(`The scraper "${missing}" was not found (404) [item 0]`);
	});
	it('cancel of an unknown bulk job', async () => {
		const result = await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId: missing });
		expect(result.error?.message).toBe(`The bulk job "${missing}" was not found (404) [item 0]`);
	});
});

describe('422 names the field', () => {
	it('a 422 from the service names the field it rejected', async () => {
		ctx.sim.server.faults.add({
			kind: 'status',
			status: 422,
			times: 1,
			routes: [ROUTES.bulk],
			body: { message: 'Validation failed', error: 'Unprocessable Entity', statusCode: 422, errors: [{ field: 'scraperId', message: 'scraperId must be a manual scraper' }] },
		});
		const result = await ctx.run(bulk);
		expect(result.error?.httpCode).toBe('422');
		expect(result.error?.message).toMatch(/^Scraper Platform rejected the input: .*scraperId/);
	});

	it('a bulk scraper id that is not a UUID is refused before anything is sent', async () => {
		const result = await ctx.run({ ...bulk, scraperId: 'not-a-uuid' });
		expect(result.error?.message).toBe('Invalid \'Scraper ID\': "not-a-uuid" is not a UUID [item 0]');
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(0);
	});
});

describe('429', () => {
	it('is retried with Retry-After and then succeeds, creating one scraper', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 1, times: 2, routes: [ROUTES.createAndRun] });
		const started = Date.now();
		const result = await ctx.run(create);
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
		expect(ctx.sim.server.log.for(ROUTES.createAndRun).map((r) => r.status)).toEqual([429, 429, 200]);
	});

	it('the account rate limit: over the limit the node waits out the window', async () => {
		ctx.sim.setAccountLimits(PLATFORM_OTHER_USER_TOKEN, { rateLimit: 2, rateTtl: 1 });
		const result = await ctx.run(create, { token: PLATFORM_OTHER_USER_TOKEN, input: [{}, {}, {}] });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(3);
		const statuses = ctx.sim.server.log.for(ROUTES.createAndRun).map((r) => r.status);
		expect(statuses.filter((s) => s === 200)).toHaveLength(3);
		expect(statuses).toContain(429);
		ctx.sim.setAccountLimits(PLATFORM_OTHER_USER_TOKEN, { rateLimit: 600, rateTtl: 60 });
	});

	it('a persistent 429 ends with the advice to wait or lower the pace', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 200, routes: [ROUTES.createAndRun] });
		const result = await ctx.run(create);
		expect(result.error?.message).toBe('Scraper Platform rate limit reached: too many requests [item 0]');
		expect(result.error?.description).toMatch(/Wait a little before running again, or lower the pace/);
	});
});

describe('429 with Retry-After: 0 forever', () => {
	it('stops after a bounded number of retries instead of looping', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 0, routes: [ROUTES.account] });
		const result = await ctx.run({ resource: 'account', operation: 'get' });
		expect(result.error?.message).toBe('Scraper Platform rate limit reached: too many requests [item 0]');
		expect(result.error?.description).toContain('retried 30 times');
		expect(ctx.sim.server.log.count(ROUTES.account)).toBe(31);
	});
});
