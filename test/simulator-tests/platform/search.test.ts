import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { callPlatform } from '../../simulator/platform/client';
import { TIMEOUT_MARKER } from '../../simulator/platform/fetch';
import { SEARCH_PAGE_TOKENS, SEARCH_ROUTES, SearchSimulator } from '../../simulator/platform/search';
import { EMPTY_MARKER, totalResults } from '../../simulator/platform/serp';

/** The Google search with the API token, on a host of its own next to the platform (public facts, "Google search"). */

const platform = new PlatformSimulator();
const host = new SearchSimulator(platform);
const PATH = '/api/google/serp/v2/sync';

beforeAll(async () => {
	await platform.listen();
	await host.listen();
});
afterAll(async () => {
	await host.close();
	await platform.close();
});
beforeEach(() => host.reset());

interface SerpData {
	query: string;
	region: string | null;
	language: string | null;
	page: number;
	aiOverview?: string;
	results: Array<{ rank: number; title: string; url: string; siteName: string; displayUrl: string; snippet: string }>;
}

const search = async (body: unknown, token: string | null = PLATFORM_DEMO_TOKEN) =>
	await callPlatform<SerpData>(host.url, 'POST', PATH, { body, token });

describe('POST /api/google/serp/v2/sync, JSON', () => {
	it('lists ten results a page with the fields the public facts show, ranked across pages', async () => {
		const query = 'best hiking boots';
		const total = totalResults(query);
		const first = await search({ query });
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ success: true, message: 'Search completed', tokenUsage: SEARCH_PAGE_TOKENS });
		expect(first.body.data).toMatchObject({ query, region: null, language: null, page: 1 });
		expect(first.body.data.results).toHaveLength(10);
		expect(Object.keys(first.body.data.results[0])).toEqual(['rank', 'title', 'url', 'siteName', 'displayUrl', 'snippet']);
		expect(first.body.data.results.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		const lastPage = Math.ceil(total / 10);
		const last = await search({ query, page: lastPage });
		expect(last.body.data.results.map((r) => r.rank)).toEqual(Array.from({ length: total - (lastPage - 1) * 10 }, (_, i) => (lastPage - 1) * 10 + i + 1));
		expect((await search({ query, page: lastPage + 1 })).body.data.results).toEqual([]);
	});

	it('region and language reach the results; renderJs adds what scripts build and costs three times as much', async () => {
		const answer = await search({ query: 'trail shoes', region: 'de', language: 'pt-BR', renderJs: true });
		expect(answer.body.data).toMatchObject({ region: 'de', language: 'pt-BR', aiOverview: expect.stringContaining('trail shoes') });
		expect(answer.body.data.results[0].snippet).toContain('(de, pt-BR)');
		expect(answer.body).toMatchObject({ tokenUsage: 3 * SEARCH_PAGE_TOKENS });
	});

	it('an empty result: a first page without results', async () => {
		const answer = await search({ query: `nothing ${EMPTY_MARKER}` });
		expect(answer.status).toBe(200);
		expect(answer.body.data.results).toEqual([]);
	});

	it("spends the account's tokens: the subscription account counts them", async () => {
		const before = await callPlatform<{ tokenUsage: number }>(platform.url, 'GET', '/api/v1/subscription-accounts');
		await search({ query: 'tokens' });
		const after = await callPlatform<{ tokenUsage: number }>(platform.url, 'GET', '/api/v1/subscription-accounts');
		expect(after.body.data.tokenUsage - before.body.data.tokenUsage).toBe(SEARCH_PAGE_TOKENS);
	});
});

describe('POST /api/google/serp/v2/sync, HTML', () => {
	it("answers Google's result page as text/html", async () => {
		const response = await fetch(new URL(PATH, host.url), {
			method: 'POST',
			headers: { 'x-api-token': PLATFORM_DEMO_TOKEN, 'content-type': 'application/json' },
			body: JSON.stringify({ query: 'hiking', format: 'html', page: 2 }),
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^text\/html/);
		expect(response.headers.get('token_usage')).toBe(String(SEARCH_PAGE_TOKENS));
		const html = await response.text();
		expect(html).toContain('<title>hiking - Google Search</title>');
		expect(html).toContain('data-page="2"');
		expect(html).toContain('data-rank="11"');
	});
});

describe('documented failures', () => {
	it('401 without a valid token', async () => {
		expect((await search({ query: 'x' }, null)).status).toBe(401);
		expect((await search({ query: 'x' }, 'not-a-token')).body.message).toBe('Invalid or missing API token');
	});

	it('takes the token as Authorization: Bearer too, as the vendor\'s clients send it to this host', async () => {
		const post = async (authorization: string) =>
			await fetch(new URL(PATH, host.url), { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'x' }) });
		expect((await post(`Bearer ${PLATFORM_DEMO_TOKEN}`)).status).toBe(200);
		expect((await post('Bearer not-a-token')).status).toBe(401);
	});

	it.each([
		['no query', {}, 'query is required'],
		['an empty query', { query: ' ' }, 'query is required'],
		['region usa', { query: 'x', region: 'usa' }, 'region must be a two-letter country code'],
		['language english', { query: 'x', language: 'english' }, 'language must be a language code such as en or pt-BR'],
		['page 0', { query: 'x', page: 0 }, 'page must be an integer of at least 1'],
		['page "2"', { query: 'x', page: '2' }, 'page must be an integer of at least 1'],
		['format xml', { query: 'x', format: 'xml' }, 'format must be json or html'],
		['renderJs "yes"', { query: 'x', renderJs: 'yes' }, 'renderJs must be true or false'],
		['a list', [{ query: 'x' }], 'body must be a JSON object'],
	])('400 naming the field: %s', async (_name, body, message) => {
		const answer = await search(body);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ message, error: 'Bad Request', statusCode: 400 });
	});

	it('400 for a body that is not JSON', async () => {
		const answer = await callPlatform(host.url, 'POST', PATH, { rawBody: '{"query":' });
		expect(answer.body.message).toBe('body must be valid JSON');
	});

	it('a search Google does not answer in time: 504', async () => {
		const answer = await search({ query: `slow ${TIMEOUT_MARKER}` });
		expect(answer.status).toBe(504);
		expect(answer.body).toEqual({ message: 'Google did not answer within 60 s', error: 'Gateway Timeout', statusCode: 504 });
	});

	it("429 with Retry-After past the account's rate window; injected 429s are the search host's own", async () => {
		const token = platform.addApiToken(PLATFORM_DEMO_TOKEN, 'search-rate');
		platform.setAccountLimits(token, { rateLimit: 1, rateTtl: 30 });
		try {
			expect((await search({ query: 'a' }, token)).status).toBe(200);
			const limited = await search({ query: 'b' }, token);
			expect(limited.status).toBe(429);
			expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
		} finally {
			platform.setAccountLimits(token, { rateLimit: 600, rateTtl: 60 });
		}
		host.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 2, times: 1, routes: [SEARCH_ROUTES.google] });
		const injected = await search({ query: 'c' });
		expect(injected.status).toBe(429);
		expect(injected.headers.get('retry-after')).toBe('2');
		expect((await search({ query: 'c' })).status).toBe(200);
	});
});
