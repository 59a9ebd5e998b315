import type { IDataObject } from 'n8n-workflow';

import { runAgent } from '../harness/agent';
import type { AgentTool } from '../harness/agent';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../simulator/platform';
import { FETCH_ROUTES, FetchSimulator } from '../simulator/platform/fetch';
import { SEARCH_ROUTES, SearchSimulator } from '../simulator/platform/search';

/** Search > Google and Page > Fetch as an AI Agent's tools, with the API token: what the model reads, and refusals. */

let platform: PlatformSimulator;
let fetchHost: FetchSimulator;
let searchHost: SearchSimulator;

beforeAll(async () => {
	platform = new PlatformSimulator();
	fetchHost = new FetchSimulator(platform);
	searchHost = new SearchSimulator(platform);
	await Promise.all([platform.listen(), fetchHost.listen(), searchHost.listen()]);
});

afterAll(async () => {
	await Promise.all([fetchHost?.close(), searchHost?.close(), platform?.close()]);
});

beforeEach(() => {
	fetchHost.reset();
	searchHost.reset();
});

const credentials = () => ({
	scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url, fetchBaseUrl: fetchHost.url, searchBaseUrl: searchHost.url },
});

const searchTool: AgentTool = {
	name: 'Search Google',
	nodeType: 'scraperPlatform',
	parameters: { resource: 'search', operation: 'google', query: "={{ $fromAI('query', 'Search terms, or a Google search URL', 'string') }}", limit: 5 },
};

const fetchTool: AgentTool = {
	name: 'Fetch Page',
	nodeType: 'scraperPlatform',
	parameters: { resource: 'page', operation: 'fetch', url: "={{ $fromAI('url', 'Address of the page to read', 'string') }}" },
};

test('the model searches, then fetches the first result it read', async () => {
	const result = await runAgent({
		credentials: credentials(),
		tools: [searchTool, fetchTool],
		turns: [
			[{ tool: 'Search Google', input: { query: 'hiking boots' } }],
			(observations) => [{ tool: 'Fetch Page', input: { url: observations[0].output?.[0].url as string } }],
		],
	});
	expect(result.error).toBeUndefined();
	expect(result.toolDescriptions).toEqual({
		'Search Google': 'Search Google for titles, links and snippets (uses plan tokens) in Scraper Platform',
		'Fetch Page': 'Fetch page as HTML (uses plan tokens) in Scraper Platform',
	});
	const found = result.observations[0].output ?? [];
	expect(found).toHaveLength(5);
	// Simplified for a model: rank, title, link and snippet.
	expect(Object.keys(found[0])).toEqual(['rank', 'title', 'url', 'snippet']);
	const read = result.observations[1];
	expect(read.output).toHaveLength(1);
	expect(Object.keys(read.output?.[0] ?? {})).toEqual(['url', 'statusCode', 'html']);
	expect(read.output?.[0]).toMatchObject({ url: found[0].url, statusCode: 200 });
	expect(fetchHost.server.log.for(FETCH_ROUTES.fetch).map((r) => r.query.url)).toEqual([found[0].url]);
	expect(searchHost.server.log.for(SEARCH_ROUTES.google).map((r) => r.body)).toEqual([{ query: 'hiking boots', format: 'json' }]);
});

test('three pages fetched at once in one turn: each call answered with its own page', async () => {
	const urls = ['https://shop.example.com/a', 'https://shop.example.com/b', 'https://shop.example.com/c'];
	const result = await runAgent({ credentials: credentials(), tools: [fetchTool], turns: [urls.map((url) => ({ tool: 'Fetch Page', input: { url } }))] });
	expect(result.error).toBeUndefined();
	expect(result.observations.map((o) => o.output?.[0].url)).toEqual(urls);
});

test('a Google search URL from the model is read as one', async () => {
	const result = await runAgent({
		credentials: credentials(),
		tools: [searchTool],
		turns: [[{ tool: 'Search Google', input: { query: 'https://www.google.com/search?q=tents&gl=de&hl=de&start=10' } }]],
	});
	expect(result.error).toBeUndefined();
	expect(searchHost.server.log.for(SEARCH_ROUTES.google).map((r) => r.body)).toEqual([{ query: 'tents', region: 'de', language: 'de', page: 2, format: 'json' }]);
	expect(result.observations[0].output?.[0].rank).toBe(11);
});

test.each([
	['a local address to fetch', fetchTool, { url: 'http://localhost:5678/rest/login' }, /^Invalid 'URL': "http:\/\/localhost:5678\/rest\/login": it must point to a public host, but localhost is localhost\./],
	['a search URL of another engine', searchTool, { query: 'https://www.bing.com/search?q=tents' }, /^Invalid 'Query': "https:\/\/www\.bing\.com\/search\?q=tents" is not a Google search URL/],
])('%s comes back to the model as a sentence naming the field; nothing is sent', async (_name, tool, input, sentence) => {
	const result = await runAgent({ credentials: credentials(), tools: [tool], turns: [[{ tool: tool.name, input }]] });
	expect(result.error).toBeUndefined();
	expect((result.observations[0].output?.[0] as IDataObject).response).toMatch(sentence);
	expect(fetchHost.server.log.count() + searchHost.server.log.count()).toBe(0);
});
