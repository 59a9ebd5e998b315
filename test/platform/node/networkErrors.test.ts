import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { sleep } from 'n8n-workflow';
import { runNode } from '../../harness';
import { ROUTES, usePlatform } from '../helpers';

// When the service fails or cannot be reached: 5xx answers, answers that are not JSON, lost connections and slow
// answers, a stopped execution, a closed port. Reads are retried, creates never; what the service answered (401,
// 403, 404, 422, 429) is in errors.test.ts.

const ctx = usePlatform();

const create = { resource: 'aiScraper', operation: 'createAndRun', url: 'https://e.example.com/', prompt: 'T' };
const bulk = { resource: 'bulk', operation: 'start', scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: 'https://e.example.com/1' };

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
		expect(second.error?.message).toMatch(/^The connection to Scraper Platform ended before its answer \(connection reset by the server \(ECONNRESET\)\): the bulk job on scraper "[0-9a-f-]{36}" for \d+ URLs? \(https:\/\/.*\) may have been created \[item 0\]$/);
		expect(second.error?.message).not.toMatch(/retry the request immediately/);
		expect(second.error?.description).toMatch(/nothing runs twice\. Look for a new bulk job of scraper "[0-9a-f-]{36}" with Result > Get Many \(newest first, Filters > 'Scraper ID' [0-9a-f-]{36} and 'Search' Bulk-AI\)/);
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
