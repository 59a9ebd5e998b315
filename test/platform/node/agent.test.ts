import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runAgent } from '../../harness/agent';
import type { AgentTool } from '../../harness/agent';
import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { FETCH_ROUTES } from '../../simulator/platform/fetch';
import { SEARCH_ROUTES } from '../../simulator/platform/search';
import { ROUTES, usePlatform } from '../helpers';
import { useTokenHosts } from '../tokenHosts';

/** The Scraper Platform as an AI Agent's tools: an id the model read from one tool's answer reaches the next call. */
describe('Result and Bulk operations as tools', () => {
	const ctx = usePlatform();
	beforeAll(() => {
		ctx.sim.seedResults(PLATFORM_DEMO_TOKEN, 4);
	});

	const credentials = () => ({ scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: ctx.sim.url } });

	const listResults: AgentTool = {
		name: 'List Results',
		nodeType: 'scraperPlatform',
		parameters: { resource: 'result', operation: 'getMany', returnAll: false, limit: 3 },
	};

	const getResult: AgentTool = {
		name: 'Get Result',
		nodeType: 'scraperPlatform',
		parameters: {
			resource: 'result',
			operation: 'get',
			resultId: { __rl: true, mode: 'id', value: "={{ $fromAI('resultId', 'ID of the result to read', 'string') }}" },
		},
	};

	test('Result > Get by an id the model read from the previous tool output', async () => {
		const result = await runAgent({
			credentials: credentials(),
			tools: [listResults, getResult],
			turns: [
				[{ tool: 'List Results', input: {} }],
				(observations) => [{ tool: 'Get Result', input: { resultId: observations[0].output?.[1].id as string } }],
			],
		});
		expect(result.error).toBeUndefined();
		const listed = result.observations[0].output ?? [];
		expect(listed).toHaveLength(3);
		const chosen = listed[1].id as string;
		const read = result.observations[1];
		expect(read.input).toEqual({ resultId: chosen });
		expect(read.output).toHaveLength(1);
		expect(read.output?.[0]).toEqual(expect.objectContaining({ id: chosen, status: listed[1].status }));
		expect(ctx.sim.server.log.for(ROUTES.result).map((r) => r.path)).toEqual([`/api/v1/results/${chosen}`]);
		expect(result.toolDescriptions).toEqual({
			'List Results': 'Get many results in Scraper Platform',
			'Get Result': 'Get result with extracted data in Scraper Platform',
		});
	});

	test('an id that is not a UUID comes back to the model as a sentence naming the field and the rule; nothing is sent', async () => {
		const result = await runAgent({
			credentials: credentials(),
			tools: [getResult],
			turns: [[{ tool: 'Get Result', input: { resultId: 'the second one' } }]],
		});
		expect(result.error).toBeUndefined();
		const response = (result.observations[0].output?.[0] as IDataObject).response as string;
		expect(response).toMatch(/^Invalid 'Result ID': "the second one" is not a UUID/);
		expect(ctx.sim.server.log.for()).toHaveLength(0);
	});

	test('an id the service does not know still fails the execution (a 404 is not a refusal)', async () => {
		const result = await runAgent({
			credentials: credentials(),
			tools: [getResult],
			turns: [[{ tool: 'Get Result', input: { resultId: '00000000-0000-4000-8000-000000000000' } }]],
		});
		expect(result.error?.message).toBe('The result "00000000-0000-4000-8000-000000000000" was not found (404) [item 0]');
	});

	test('Bulk > Start (one request for all items) answers a refused URL list with a sentence too; nothing is sent', async () => {
		const result = await runAgent({
			credentials: credentials(),
			tools: [
				{
					name: 'Start Bulk Job',
					nodeType: 'scraperPlatform',
					parameters: {
						resource: 'bulk',
						operation: 'start',
						scraperId: { __rl: true, mode: 'id', value: DEMO_MANUAL_SCRAPER_IDS[0] },
						urls: "={{ $fromAI('urls', 'Page addresses, one per line', 'string') }}",
					},
				},
			],
			turns: [[{ tool: 'Start Bulk Job', input: { urls: 'https://shop.example.com/a\nnot a url' } }]],
		});
		expect(result.error).toBeUndefined();
		expect(result.observations[0].output).toEqual([{ response: 'Invalid \'URLs (entry 2)\': "not a url" is not a valid URL. Enter a full address starting with https:// or http://.' }]);
		expect(ctx.sim.server.log.for()).toHaveLength(0);
	});

	describe("the tool's Output option: what the model reads of each record", () => {
		const getResultWith = (output: INodeParameters): AgentTool => ({ ...getResult, parameters: { ...getResult.parameters, ...output } });
		const readWith = async (output: INodeParameters) => {
			const listed = await runAgent({ credentials: credentials(), tools: [listResults], turns: [[{ tool: 'List Results', input: {} }]] });
			const id = listed.observations[0].output?.[0].id as string;
			const result = await runAgent({
				credentials: credentials(),
				tools: [getResultWith(output)],
				turns: [[{ tool: 'Get Result', input: { resultId: id } }]],
			});
			expect(result.error).toBeUndefined();
			return { id, record: result.observations[0].output?.[0] as IDataObject };
		};

		test('Simplified (the default): at most ten fields, none of them empty', async () => {
			const { id, record } = await readWith({});
			expect(record.id).toBe(id);
			expect(Object.keys(record).length).toBeLessThanOrEqual(10);
			expect(record).not.toHaveProperty('htmlPath');
			for (const value of Object.values(record)) expect([null, '']).not.toContain(value);
		});

		test('Raw: every field the service returns', async () => {
			const { record } = await readWith({ toolOutput: 'raw' });
			expect(Object.keys(record).length).toBeGreaterThan(10);
			expect(record).toHaveProperty('htmlPath');
		});

		test('Selected Fields: the ID and only the fields chosen', async () => {
			const { id, record } = await readWith({ toolOutput: 'selected', toolFields: ['status', 'url'] });
			expect(record).toEqual({ id, status: expect.any(String), url: expect.any(String) });
		});

		test('Selected Fields with none chosen: the model is told which field to set, and nothing is sent', async () => {
			ctx.sim.server.log.clear();
			const result = await runAgent({
				credentials: credentials(),
				tools: [getResultWith({ toolOutput: 'selected', toolFields: [] })],
				turns: [[{ tool: 'Get Result', input: { resultId: DEMO_MANUAL_SCRAPER_IDS[0] } }]],
			});
			expect(result.observations[0].output).toEqual([{ response: expect.stringMatching(/^Invalid 'Fields': no field is selected/) }]);
			expect(ctx.sim.server.log.for(ROUTES.result)).toHaveLength(0);
		});
	});
});

/** Search > Google and Page > Fetch as an AI Agent's tools, with the API token: what the model reads, and refusals. */
describe('Search > Google and Page > Fetch as tools', () => {
	const ctx = useTokenHosts();
	const credentials = () => ({ scraperPlatformApi: ctx.credential() });

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
			'Fetch Page': 'Fetch page as HTML, Markdown or screenshot (uses plan tokens) in Scraper Platform',
		});
		const found = result.observations[0].output ?? [];
		expect(found).toHaveLength(5);
		// Simplified for a model: rank, title, link and snippet.
		expect(Object.keys(found[0])).toEqual(['rank', 'title', 'url', 'snippet']);
		const read = result.observations[1];
		expect(read.output).toHaveLength(1);
		expect(Object.keys(read.output?.[0] ?? {})).toEqual(['url', 'statusCode', 'html']);
		expect(read.output?.[0]).toMatchObject({ url: found[0].url, statusCode: 200 });
		expect(ctx.fetchHost.server.log.for(FETCH_ROUTES.fetch).map((r) => r.query.url)).toEqual([found[0].url]);
		expect(ctx.searchHost.server.log.for(SEARCH_ROUTES.google).map((r) => r.body)).toEqual([{ query: 'hiking boots', format: 'json' }]);
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
		expect(ctx.searchHost.server.log.for(SEARCH_ROUTES.google).map((r) => r.body)).toEqual([{ query: 'tents', region: 'de', language: 'de', page: 2, format: 'json' }]);
		expect(result.observations[0].output?.[0].rank).toBe(11);
	});

	test.each([
		['a local address to fetch', fetchTool, { url: 'http://localhost:5678/rest/login' }, /^Invalid 'URL': "http:\/\/localhost:5678\/rest\/login": it must point to a public host, but localhost is localhost\./],
		['a search URL of another engine', searchTool, { query: 'https://www.bing.com/search?q=tents' }, /^Invalid 'Query': "https:\/\/www\.bing\.com\/search\?q=tents" is not a Google search URL/],
	])('%s comes back to the model as a sentence naming the field; nothing is sent', async (_name, tool, input, sentence) => {
		const result = await runAgent({ credentials: credentials(), tools: [tool], turns: [[{ tool: tool.name, input }]] });
		expect(result.error).toBeUndefined();
		expect((result.observations[0].output?.[0] as IDataObject).response).toMatch(sentence);
		expect(ctx.fetchHost.server.log.count() + ctx.searchHost.server.log.count()).toBe(0);
	});
});
