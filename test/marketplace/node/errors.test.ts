import type { IDataObject } from 'n8n-workflow';

import { allText } from '../../harness';
import { runCredentialTest } from '../../harness/credentialTest';
import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { BEARER, NO_WAIT, ROUTES, WAIT, jsonOf, runOk, useMarketplace } from '../helpers';

const ctx = useMarketplace();
// Token-shaped, but no account has it.
const REJECTED_VALUE = 'mkt_unknown_account_0123456789';

const social = { resource: 'lead', operation: 'createAndRunSocial', name: 'CRM talk', keywords: 'crm', expectedData: 2 };
const operations: IDataObject[] = [
	{ resource: 'jobBoard', operation: 'scrape', urls: 'https://jobs.example.com/' },
	{ resource: 'realEstatePortal', operation: 'createAndRun', name: 'P', locations: 'Bondi', ...NO_WAIT },
	{ resource: 'pdf', operation: 'createAndRun', name: 'P', keywords: { keyword: [{ keyword: 'k', prompt: 'p?' }] }, ...NO_WAIT },
	{ resource: 'lead', operation: 'createAndRunSearch', name: 'S', keywords: 'k', ...NO_WAIT },
	{ ...social, ...NO_WAIT },
	{ resource: 'scraper', operation: 'run', scraperId: 101, ...NO_WAIT },
	{ resource: 'result', operation: 'getMany' },
	{ resource: 'scrapingRun', operation: 'getHtml', scrapingRunId: 5001 },
];

describe('401: a wrong token on every operation', () => {
	it.each(operations.map((op) => [`${op.resource as string} ${op.operation as string}`, op]))('%s', async (_name, parameters) => {
		const result = await ctx.run(parameters as IDataObject, { token: REJECTED_VALUE });
		expect(result.error?.message).toBe('Scraper Marketplace did not accept the API token (401 Unauthorized) [item 0]');
		expect(result.error?.description).toContain("Check the token in the 'Scraper Marketplace API' credential");
		expect(result.error?.httpCode).toBe('401');
		expect(allText(result.error)).not.toContain(REJECTED_VALUE);
		// Sent once, with the Bearer scheme, and not retried.
		const requests = ctx.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].headers.authorization).toBe(`Bearer ${REJECTED_VALUE}`);
	});
});

describe('429: the node waits as Retry-After says and carries on', () => {
	it('a results listing over the rate limit still returns every page', async () => {
		ctx.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 6);
		ctx.sim.setRateLimit(2, 1);
		try {
			const items = await runOk(ctx, { resource: 'result', operation: 'getMany', returnAll: true, options: { perPage: 2 } });
			expect(items).toHaveLength(6);
			const statuses = ctx.requests().map((r) => r.status);
			expect(statuses).toContain(429);
			// Pages 1..4 (the fourth is empty) each answered 200 once.
			expect(ctx.requests().filter((r) => r.status === 200).map((r) => r.query.page)).toEqual(['1', '2', '3', '4']);
		} finally {
			ctx.sim.setRateLimit(600, 60);
		}
	});

	it('a create and run answered 429 is sent again (the service did nothing with it)', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 1, routes: [ROUTES.socialLeadsCreateAndRun], times: 1 });
		const [out] = await runOk(ctx, { ...social, ...NO_WAIT });
		expect(out.message).toBe('Scraping queued successfully');
		expect(ctx.requests().map((r) => r.status)).toEqual([429, 200]);
	});
});

describe('Continue On Fail', () => {
	it('5 items, 2 invalid: 3 runs, 2 error items, each paired with its input', async () => {
		const input = [{ n: 2 }, { n: 0 }, { n: 3 }, { n: 'many' }, { n: 1 }];
		const result = await ctx.run({ ...social, expectedData: '={{ $json.n }}', ...NO_WAIT }, { input, continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(5);
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3, 4]);
		const json = jsonOf(result.items);
		expect(json[1].error).toBe("Invalid 'Expected Leads': 0 is out of range of at least 1 [item 1]");
		expect(json[3].error).toBe('Invalid \'Expected Leads\': it must be a whole number, got "many" [item 3]');
		expect(json[1].description).toBeTruthy();
		for (const i of [0, 2, 4]) expect(json[i].message).toBe('Scraping queued successfully');
		expect(ctx.requests().map((r) => (r.body as IDataObject).expected_data)).toEqual([2, 3, 1]);
	});

	it('with Wait for Completion, the failing items do not stop the others', async () => {
		const input = [{ n: 2 }, { n: -1 }, { n: 1 }];
		const result = await ctx.run({ ...social, expectedData: '={{ $json.n }}', ...WAIT }, { input, continueOnFail: true });
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		const json = jsonOf(result.items);
		expect(json[0]).toMatchObject({ status: 'succeeded', completed: true });
		expect(json[1].error).toContain("'Expected Leads'");
		expect(json[2]).toMatchObject({ status: 'succeeded', completed: true });
	});

	it('without it, the first invalid item stops the node and is named', async () => {
		const input = [{ n: 2 }, { n: 0 }, { n: 3 }];
		const result = await ctx.run({ ...social, expectedData: '={{ $json.n }}', ...NO_WAIT }, { input });
		expect(result.error?.message).toBe("Invalid 'Expected Leads': 0 is out of range of at least 1 [item 1]");
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(ctx.requests()).toHaveLength(1);
	});
});

describe('the token never leaks', () => {
	it('not in any output or error of any operation', async () => {
		const outcomes = [];
		const created = await ctx.run({ ...social, ...WAIT });
		outcomes.push(created);
		const runId = created.items[0].json.scraping_run_id;
		const scraperId = created.items[0].json.scraper_id;
		for (const parameters of [
			{ resource: 'jobBoard', operation: 'scrape', urls: 'https://jobs.example.com/', min: 1, max: 2 },
			{ resource: 'scraper', operation: 'run', scraperId, ...WAIT, runOutput: 'records' },
			{ resource: 'result', operation: 'getMany', returnAll: true },
			{ resource: 'scrapingRun', operation: 'getHtml', scrapingRunId: runId, htmlOutput: 'binary' },
			{ resource: 'scrapingRun', operation: 'getHtml', scrapingRunId: 999_999 },
			{ resource: 'jobBoard', operation: 'scrape', urls: 'https://jobs.example.com/', schema: '{"type": "string"}' },
		] as IDataObject[]) {
			outcomes.push(await ctx.run(parameters));
		}
		ctx.sim.server.faults.add({ kind: 'reset', routes: [ROUTES.socialLeadsCreateAndRun] });
		outcomes.push(await ctx.run({ ...social, ...NO_WAIT }));
		expect(outcomes.filter((o) => o.error)).toHaveLength(3);
		for (const outcome of outcomes) {
			expect(allText(outcome.items)).not.toContain(MARKETPLACE_DEMO_TOKEN);
			expect(allText(outcome.error)).not.toContain(MARKETPLACE_DEMO_TOKEN);
			expect(allText(outcome.run.data.resultData)).not.toContain(MARKETPLACE_DEMO_TOKEN);
		}
	});
});

describe('Scraper Marketplace API credential test', () => {
	it('reads the account with the demo token, as n8n does: the cheapest read, one request', async () => {
		const outcome = await runCredentialTest('scraperMarketplaceApi', { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: `${ctx.sim.url}/` });
		expect(outcome.ok).toBe(true);
		expect(outcome.status).toBe(200);
		expect(outcome.url).toBe(`${ctx.sim.url}/api/account`);
		expect(ctx.requests()).toHaveLength(1);
		const [request] = ctx.requests(ROUTES.account);
		expect(request.headers.authorization).toBe(BEARER);
	});

	it('fails with 401 for a wrong token', async () => {
		const outcome = await runCredentialTest('scraperMarketplaceApi', { apiToken: REJECTED_VALUE, baseUrl: ctx.sim.url });
		expect(outcome.ok).toBe(false);
		expect(outcome.status).toBe(401);
	});
});
