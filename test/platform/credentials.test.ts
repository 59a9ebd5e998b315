import { allText } from '../harness';
import { runCredentialTest } from '../harness/credentialTest';
import { PLATFORM_DEMO_TOKEN } from '../simulator/platform';
import { ROUTES, usePlatform } from './helpers';

const ctx = usePlatform();

describe('Scraper Platform API credential test', () => {
	it('verifies the token with the subscription-accounts endpoint', async () => {
		const outcome = await runCredentialTest('scraperPlatformApi', { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: `${ctx.sim.url}/` });
		expect(outcome.ok).toBe(true);
		expect(outcome.url).toBe(`${ctx.sim.url}/api/v1/subscription-accounts`);
		const [request] = ctx.sim.server.log.for(ROUTES.account);
		expect(request.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
	});

	it('fails with 401 for an invalid token, which n8n shows as a credential error', async () => {
		const outcome = await runCredentialTest('scraperPlatformApi', { apiToken: 'not-a-token', baseUrl: ctx.sim.url });
		expect(outcome.ok).toBe(false);
		expect(outcome.status).toBe(401);
	});
});

describe('the credential Test button checks the fields first, in the words of a node run', () => {
	it.each([
		['an empty Base URL', { baseUrl: '' }, "Invalid 'Base URL' in the 'Scraper Platform API' credential: it is empty"],
		['a Base URL that is not http(s)', { baseUrl: 'ftp://api.example.com' }, 'Invalid \'Base URL\' in the \'Scraper Platform API\' credential: only http and https are allowed, got "ftp:"'],
		['a token with a line break', { apiToken: `${PLATFORM_DEMO_TOKEN}\nx` }, "Invalid 'API Token' in the 'Scraper Platform API' credential: it contains a line break"],
		['a token with spaces around it', { apiToken: ` ${PLATFORM_DEMO_TOKEN} ` }, "Invalid 'API Token' in the 'Scraper Platform API' credential: it starts or ends with a space"],
	])('%s: nothing is sent, and the message names the field and the fix', async (_name, fields, message) => {
		ctx.sim.server.log.clear();
		const data = { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: ctx.sim.url, ...fields };
		const failure = await runCredentialTest('scraperPlatformApi', data).then(
			() => undefined,
			(error: Error) => error,
		);
		expect(failure?.message.startsWith(message)).toBe(true);
		expect(failure?.message).not.toContain(PLATFORM_DEMO_TOKEN);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});

describe('the token never leaks', () => {
	it('not in outputs of every operation, nor in any error', async () => {
		const token = PLATFORM_DEMO_TOKEN;
		const created = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://leak.example.com/', prompt: 'T' });
		const rerun = await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId: created.items[0].json.scraperId, url: 'https://leak.example.com/2' });
		const account = await ctx.run({ resource: 'account', operation: 'get' });
		const list = await ctx.run({ resource: 'result', operation: 'getMany', limit: 5 });
		ctx.sim.server.faults.add({ kind: 'reset', routes: [ROUTES.createAndRun] });
		const failed = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://leak.example.com/', prompt: 'T' });
		expect(failed.error).toBeDefined();
		for (const outcome of [created, rerun, account, list, failed]) {
			expect(allText(outcome.items)).not.toContain(token);
			expect(allText(outcome.error)).not.toContain(token);
			expect(allText(outcome.run.data.resultData)).not.toContain(token);
		}
	});
});
