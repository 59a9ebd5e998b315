import { NodeHelpers } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import { FETCH_HOST, SEARCH_HOST } from '../../../nodes/ScraperPlatform/transport/hosts';
import { hostOf } from '../../../nodes/shared/transport/credentials';
import { allText, loadPackage } from '../../harness';
import { runCredentialTest } from '../../harness/credentialTest';
import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { FETCH_ROUTES } from '../../simulator/platform/fetch';
import { SEARCH_ROUTES } from '../../simulator/platform/search';
import { useTokenHosts } from '../tokenHosts';

/** The Scraper Platform API credential's Fetch Base URL and Search Base URL. */

const ctx = useTokenHosts();
const credentialType = loadPackage().credentials.get('scraperPlatformApi');

describe('the two host fields', () => {
	it('carry the real addresses as defaults', () => {
		const fields = credentialType?.properties.filter((p) => p.name === 'fetchBaseUrl' || p.name === 'searchBaseUrl');
		expect(fields?.map((p) => [p.displayName, p.default])).toEqual([
			['Fetch Base URL', 'https://api.mrscraper.com'],
			['Search Base URL', 'https://sync.scraper.mrscraper.com'],
		]);
	});

	it('a credential saved before they existed gets the defaults, as n8n fills a decrypted credential', () => {
		const saved = { apiToken: 'atk_saved_before', baseUrl: 'https://api.app.mrscraper.com' };
		// What n8n's CredentialsHelper does to every decrypted credential (applyDefaultsAndOverwrites).
		const filled = NodeHelpers.getNodeParameters(credentialType?.properties ?? [], saved as INodeParameters, true, false, null, null);
		expect(filled).toMatchObject({ ...saved, fetchBaseUrl: 'https://api.mrscraper.com', searchBaseUrl: 'https://sync.scraper.mrscraper.com' });
		// And where n8n did not fill them, the node's requests go to the same defaults.
		expect(hostOf(saved, FETCH_HOST)).toBe('https://api.mrscraper.com');
		expect(hostOf(saved, SEARCH_HOST)).toBe('https://sync.scraper.mrscraper.com');
		expect(hostOf({ ...saved, fetchBaseUrl: 'http://127.0.0.1:4050//' }, FETCH_HOST)).toBe('http://127.0.0.1:4050');
	});

	it('a credential saved without them keeps working for the platform operations', async () => {
		const result = await ctx.run({ resource: 'account', operation: 'get' }, { credential: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: ctx.platform.url } });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ tokenLimit: expect.any(Number) });
	});

	it('a trailing slash is fine: the fetch still goes to /', async () => {
		const result = await ctx.run(
			{ resource: 'page', operation: 'fetch', url: 'https://shop.example.com/' },
			{ credential: ctx.credential({ fetchBaseUrl: `${ctx.fetchHost.url}/` }) },
		);
		expect(result.error).toBeUndefined();
		expect(ctx.fetchHost.server.log.for(FETCH_ROUTES.fetch).map((r) => r.path)).toEqual(['/']);
	});
});

describe('a host that does not answer', () => {
	it('names the field to check: Fetch Base URL, not Base URL', async () => {
		// A port nothing listens on: the connection is refused, so nothing can have reached the service.
		const result = await ctx.run(
			{ resource: 'page', operation: 'fetch', url: 'https://shop.example.com/' },
			{ credential: ctx.credential({ fetchBaseUrl: 'http://127.0.0.1:9' }) },
		);
		expect(result.error?.message).toMatch(/^Could not reach Scraper Platform: /);
		expect(result.error?.description).toBe('Check the Fetch Base URL in the credential and your network; the node already retried. Try again in a moment.');
	}, 30_000);

	it('an answer that is not JSON (a web page at that address) names the Search Base URL', async () => {
		ctx.searchHost.server.afterHandle = () => ({ status: 200, text: '<html><body>Welcome</body></html>', headers: { 'content-type': 'text/html' } });
		try {
			const result = await ctx.run({ resource: 'search', operation: 'google', query: 'tea' });
			expect(result.error?.message).toMatch(/^Scraper Platform answered POST \/api\/google\/serp\/v2\/sync with something that is not JSON \(declared as text\/html\)/);
			expect(result.error?.description).toMatch(/Check that the Search Base URL in the 'Scraper Platform API' credential is the API's address, not a web page\.$/);
			expect(ctx.searchHost.server.log.count()).toBe(1);
		} finally {
			ctx.searchHost.server.afterHandle = undefined;
		}
	});
});

describe('checked like Base URL, before anything is sent, by a run and by the Test button', () => {
	it.each([
		['an empty Fetch Base URL', { fetchBaseUrl: '' }, "Invalid 'Fetch Base URL' in the 'Scraper Platform API' credential: it is empty"],
		['a Fetch Base URL that is not http(s)', { fetchBaseUrl: 'ftp://fetch.example.com' }, 'Invalid \'Fetch Base URL\' in the \'Scraper Platform API\' credential: only http and https are allowed, got "ftp:"'],
		['a Search Base URL with a query', { searchBaseUrl: 'https://search.example.com/?x=1' }, "Invalid 'Search Base URL' in the 'Scraper Platform API' credential: it must not carry a query, a fragment or a user name"],
		['a Search Base URL with a backslash', { searchBaseUrl: 'https://search.example.com\\x' }, "Invalid 'Search Base URL' in the 'Scraper Platform API' credential: \"https://search.example.com\\x\" contains a backslash (\\) at character 27"],
	])('%s', async (_name, fields, message) => {
		const search = await ctx.run({ resource: 'search', operation: 'google', query: 'tea' }, { credential: ctx.credential(fields) });
		expect(search.error?.message).toBe(`${message} [item 0]`);
		expect(search.error?.description).toMatch(/Open the credential \(Scraper Platform API\) to fix it; nothing was sent\.$/);
		const tested = await runCredentialTest('scraperPlatformApi', ctx.credential(fields)).then(
			() => undefined,
			(error: Error) => error,
		);
		expect(tested?.message.startsWith(message)).toBe(true);
		expect(ctx.requestCount()).toBe(0);
	});
});

describe('the token never leaks', () => {
	it('not in the output or the errors of a fetch or a search', async () => {
		const outcomes = [
			await ctx.run({ resource: 'page', operation: 'fetch', url: 'https://leak.example.com/', simplify: false }),
			await ctx.run({ resource: 'search', operation: 'google', query: 'leak', options: { outputAs: 'answer' } }),
		];
		ctx.fetchHost.server.faults.add({ kind: 'reset', routes: [FETCH_ROUTES.fetch] });
		ctx.searchHost.server.faults.add({ kind: 'status', status: 500, routes: [SEARCH_ROUTES.google] });
		outcomes.push(await ctx.run({ resource: 'page', operation: 'fetch', url: 'https://leak.example.com/' }));
		outcomes.push(await ctx.run({ resource: 'search', operation: 'google', query: 'leak' }));
		expect(outcomes.map((o) => o.error === undefined)).toEqual([true, true, false, false]);
		for (const outcome of outcomes) {
			expect(allText(outcome.items)).not.toContain(PLATFORM_DEMO_TOKEN);
			expect(allText(outcome.error)).not.toContain(PLATFORM_DEMO_TOKEN);
			expect(allText(outcome.run.data.resultData)).not.toContain(PLATFORM_DEMO_TOKEN);
		}
	});
});
