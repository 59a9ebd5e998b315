import type { IDataObject } from 'n8n-workflow';

import { runAgent } from '../../harness/agent';
import type { AgentTool } from '../../harness/agent';
import { DEMO_AI_SCRAPER_IDS } from '../../simulator/platform';
import { FETCH_ROUTES } from '../../simulator/platform/fetch';
import { renderMarkdown } from '../../simulator/platform/content';
import { ROUTES } from '../helpers';
import { useTokenHosts } from '../tokenHosts';

/**
 * The fields the vendor's node has and ours gained (Page > Fetch's content options, the rerun options, Create and
 * Run's Preset and Output Schema, Result > Get Latest, Get Many's Scraper ID) filled by an AI Agent's model through
 * `$fromAI`: sent as the model set them, and a value the rules refuse answered with a sentence, nothing sent.
 */

const ctx = useTokenHosts();
const credentials = () => ({ scraperPlatformApi: ctx.credential() });
const fromAI = (key: string, description: string, type = 'string') => `={{ $fromAI('${key}', '${description}', '${type}') }}`;
const responseOf = (result: Awaited<ReturnType<typeof runAgent>>) => (result.observations[0].output?.[0] as IDataObject).response;

const fetchTool: AgentTool = {
	name: 'Fetch Page',
	nodeType: 'scraperPlatform',
	parameters: {
		resource: 'page',
		operation: 'fetch',
		url: fromAI('url', 'Address of the page'),
		options: { markdown: fromAI('markdown', 'Whether to get Markdown', 'boolean'), screenshot: fromAI('screenshot', 'full or top') },
	},
};

const rerunTool: AgentTool = {
	name: 'Rerun Scraper',
	nodeType: 'scraperPlatform',
	parameters: {
		resource: 'aiScraper',
		operation: 'rerun',
		scraperId: { __rl: true, mode: 'id', value: DEMO_AI_SCRAPER_IDS.general },
		url: fromAI('url', 'Page to scrape'),
		options: { proxyCountry: fromAI('proxyCountry', 'Two-letter country of the proxy'), maxRetry: fromAI('maxRetry', 'Retries, 0 to 10', 'number') },
	},
};

describe('new fields as AI Agent tools, set by the model with $fromAI', () => {
	test('Page > Fetch: Markdown and a screenshot as the model asked; the model reads the Markdown', async () => {
		const url = 'https://shop.example.com/agent/markdown';
		const result = await runAgent({ credentials: credentials(), tools: [fetchTool], turns: [[{ tool: 'Fetch Page', input: { url, markdown: true, screenshot: 'top' } }]] });
		expect(result.error).toBeUndefined();
		expect(ctx.fetchHost.server.log.for(FETCH_ROUTES.fetch).map((r) => r.query)).toEqual([{ url, markdown: 'true', screenshot: 'top' }]);
		expect(result.observations[0].output?.[0]).toMatchObject({ url, statusCode: 200, markdown: renderMarkdown(url) });
	});

	test("Page > Fetch: a screenshot kind the node does not know comes back as a sentence naming 'Screenshot'; nothing is sent", async () => {
		const result = await runAgent({
			credentials: credentials(),
			tools: [fetchTool],
			turns: [[{ tool: 'Fetch Page', input: { url: 'https://shop.example.com/x', markdown: false, screenshot: 'everything' } }]],
		});
		expect(result.error).toBeUndefined();
		expect(responseOf(result)).toMatch(/^Invalid 'Screenshot': "everything" is not one of/);
		expect(ctx.requestCount()).toBe(0);
	});

	test('AI Scraper > Rerun: the options the model set are sent under their keys; a bad country is refused as a sentence', async () => {
		const url = 'https://shop.example.com/agent/rerun';
		const ok = await runAgent({ credentials: credentials(), tools: [rerunTool], turns: [[{ tool: 'Rerun Scraper', input: { url, proxyCountry: 'de', maxRetry: 2 } }]] });
		expect(ok.error).toBeUndefined();
		expect(ctx.platform.server.log.for(ROUTES.rerun).map((r) => r.body)).toEqual([{ scraperId: DEMO_AI_SCRAPER_IDS.general, url, maxRetry: 2, proxyCountry: 'de' }]);
		ctx.platform.server.log.clear();
		const refused = await runAgent({ credentials: credentials(), tools: [rerunTool], turns: [[{ tool: 'Rerun Scraper', input: { url, proxyCountry: 'Germany', maxRetry: 2 } }]] });
		expect(responseOf(refused)).toMatch(/^Invalid 'Proxy Country': "Germany" is not a two-letter country code/);
		expect(ctx.requestCount()).toBe(0);
	});

	test('Create and Run: an Output Schema the model wrote that is no JSON Schema is refused as a sentence; nothing is sent', async () => {
		const createTool: AgentTool = {
			name: 'Create Scraper',
			nodeType: 'scraperPlatform',
			parameters: {
				resource: 'aiScraper',
				operation: 'createAndRun',
				url: fromAI('url', 'Page to scrape'),
				agent: 'general',
				preset: 'product',
				additionalFields: { outputSchema: fromAI('schema', 'JSON Schema of one record') },
			},
		};
		const result = await runAgent({
			credentials: credentials(),
			tools: [createTool],
			turns: [[{ tool: 'Create Scraper', input: { url: 'https://shop.example.com/p/1', schema: '{"type": "object", "properties": {"price": {"type": "money"}}}' } }]],
		});
		expect(result.error).toBeUndefined();
		expect(responseOf(result)).toMatch(/^Invalid 'Output Schema'/);
		expect(ctx.requestCount()).toBe(0);
	});

	test('Result > Get Latest and Get Many filter by the scraper the model named; a made-up ID is refused as a sentence', async () => {
		const latestTool: AgentTool = {
			name: 'Latest Results',
			nodeType: 'scraperPlatform',
			parameters: { resource: 'result', operation: 'getLatest', scraperId: { __rl: true, mode: 'id', value: fromAI('scraperId', 'The scraper') }, count: 2 },
		};
		const manyTool: AgentTool = {
			name: 'Results of Scraper',
			nodeType: 'scraperPlatform',
			parameters: { resource: 'result', operation: 'getMany', limit: 5, filters: { scraperId: fromAI('scraperId', 'The scraper') } },
		};
		const scraperId = DEMO_AI_SCRAPER_IDS.general;
		const result = await runAgent({
			credentials: credentials(),
			tools: [latestTool, manyTool],
			turns: [[{ tool: 'Latest Results', input: { scraperId } }, { tool: 'Results of Scraper', input: { scraperId } }]],
		});
		expect(result.error).toBeUndefined();
		const queries = ctx.platform.server.log.for(ROUTES.results).map((r) => r.query['filters[scraperId]']);
		expect(queries).toEqual([scraperId, scraperId]);
		for (const observation of result.observations) {
			expect(observation.output?.length).toBeGreaterThan(0);
			for (const record of observation.output ?? []) expect(record.scraperId).toBe(scraperId);
		}
		ctx.platform.server.log.clear();
		const refused = await runAgent({ credentials: credentials(), tools: [manyTool], turns: [[{ tool: 'Results of Scraper', input: { scraperId: 'my best scraper' } }]] });
		expect(responseOf(refused)).toMatch(/^Invalid 'Scraper ID': "my best scraper" is not a UUID/);
		expect(ctx.requestCount()).toBe(0);
	});
});
