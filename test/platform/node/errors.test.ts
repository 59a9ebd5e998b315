import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PLATFORM_OTHER_USER_TOKEN, PLATFORM_RESTRICTED_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';
import { allText, runNode } from '../../harness';
import { errorReply } from '../../simulator/platform/errors';
import { ROUTES, usePlatform } from '../helpers';
import { useTokenHosts } from '../tokenHosts';

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

describe('5xx and network errors', () => {
	it('cancel: 500 is reported with what to do', async () => {
		const record = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], ['https://e.example.com/x']);
		ctx.sim.server.faults.add({ kind: 'status', status: 500, routes: [ROUTES.cancelJob] });
		const result = await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId: record.id });
		expect(result.error?.message).toBe('Scraper Platform could not complete the request (500): An unexpected error occurred [item 0]');
		expect(result.error?.description).toMatch(/Try again in a few minutes/);
	});

	it.each([
		['a 500', { kind: 'status' as const, status: 500 }],
		['a connection reset', { kind: 'reset' as const }],
	])('a read is retried after %s, and succeeds', async (_name, fault) => {
		ctx.sim.server.faults.add({ ...fault, times: 1, routes: [ROUTES.account] });
		const result = await ctx.run({ resource: 'account', operation: 'get' });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.count(ROUTES.account)).toBe(2);
	}, 30_000);

	it('a read whose answer is not valid JSON is retried', async () => {
		ctx.sim.server.faults.add({ kind: 'malformed', times: 1, routes: [ROUTES.account] });
		const result = await ctx.run({ resource: 'account', operation: 'get' });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.count(ROUTES.account)).toBe(2);
	}, 30_000);

	it('a read whose answer is never JSON fails naming the endpoint and the likely cause', async () => {
		ctx.sim.server.faults.add({ kind: 'malformed', times: 4, routes: [ROUTES.account] });
		const result = await ctx.run({ resource: 'account', operation: 'get' });
		expect(result.error?.message).toMatch(/^Scraper Platform answered GET \/api\/v1\/subscription-accounts with something that is not JSON/);
		expect(result.error?.description).toMatch(/read it 4 times.*Base URL in the 'Scraper Platform API' credential is the API's address/);
		expect(ctx.sim.server.log.count(ROUTES.account)).toBe(4);
	}, 60_000);

	it('a create whose answer is not JSON is not repeated, and says it may have been created and where to look', async () => {
		ctx.sim.server.faults.add({ kind: 'malformed', times: 1, routes: [ROUTES.createAndRun] });
		const result = await ctx.run(create);
		expect(result.error?.message).toMatch(/^Scraper Platform answered POST \/api\/v1\/scrapers-ai with something that is not JSON/);
		expect(result.error?.description).toMatch(/^The node did not send the request again, so nothing runs twice\. Look for it with Result > Get Many \(newest first\) before running the node again/);
		expect(ctx.sim.server.log.count(ROUTES.createAndRun)).toBe(1);
	});

	it('a create is never repeated after a 500 or a reset (it could start a second job)', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 502, times: 1, routes: [ROUTES.createAndRun] });
		const first = await ctx.run(create);
		expect(first.error?.message).toBe('Scraper Platform answered 502 (Bad Gateway): the AI scraper and its first run may have been created [item 0]');
		expect(first.error?.description).toMatch(/Look for it with Result > Get Many \(newest first\) before running the node again/);
		expect(first.error?.description).not.toMatch(/try again/i);
		expect(ctx.sim.server.log.count(ROUTES.createAndRun)).toBe(1);

		ctx.sim.server.log.clear();
		ctx.sim.server.faults.add({ kind: 'reset', times: 1, routes: [ROUTES.bulk] });
		const second = await ctx.run(bulk);
		// Our words, not n8n's generic ECONNRESET text, which would invite an immediate retry.
		expect(second.error?.message).toBe('The connection to Scraper Platform ended before its answer (connection reset by the server (ECONNRESET)): the bulk job may have been created [item 0]');
		expect(second.error?.message).not.toMatch(/retry the request immediately/);
		expect(second.error?.description).toMatch(/nothing runs twice\. Look for it with Result > Get Many \(newest first, Filters > 'Search' Bulk-AI\)/);
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(1);
	});

	it('a slow answer past the deadline is a time-out, not a hang', async () => {
		// Reads time out at 120 s by default: a slow fault shorter than that succeeds.
		ctx.sim.server.faults.add({ kind: 'slow', delayMs: 1_500, times: 1, routes: [ROUTES.account] });
		const result = await ctx.run({ resource: 'account', operation: 'get' });
		expect(result.error).toBeUndefined();
	});
});

describe('a stopped execution', () => {
	it('stops waiting for the answer and sends nothing more', async () => {
		// Each of 3 items waits 1.5 s for its answer; the workflow is stopped 300 ms into the first.
		ctx.sim.server.faults.add({ kind: 'slow', delayMs: 1_500, routes: [ROUTES.account] });
		const result = await ctx.run({ resource: 'account', operation: 'get' }, { input: [{}, {}, {}], cancelAfterMs: 300 });
		expect(result.run.status).toBe('canceled');
		// Past the moment the first answer would have come: the node did not go on to the second item.
		await sleep(2_000);
		expect(ctx.sim.server.log.count(ROUTES.account)).toBe(1);
		expect(result.items).toEqual([]);
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

describe('a service that cannot be reached', () => {
	it('a create to a closed port is retried (nothing was sent) and then reported as unreachable', async () => {
		const closed = new PlatformSimulator();
		const url = await closed.listen();
		await closed.close();
		const result = await runNode({ nodeType: 'scraperPlatform', parameters: create, credentials: { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: url } } });
		expect(result.error?.message).toBe('Could not reach Scraper Platform: connection refused (ECONNREFUSED) [item 0]');
		expect(result.error?.description).toContain('Check the base URL in the credential');
		expect(result.error?.description).toContain('the node already retried');
	}, 60_000);
});
