import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runAgent } from '../harness/agent';
import type { AgentTool } from '../harness/agent';
import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../simulator/platform';
import { ROUTES } from '../platform/helpers';

/** The Scraper Platform as an AI Agent's tools: an id the model read from one tool's answer reaches the next call. */

let sim: PlatformSimulator;

beforeAll(async () => {
	sim = new PlatformSimulator();
	await sim.listen();
	sim.seedResults(PLATFORM_DEMO_TOKEN, 4);
});

afterAll(async () => {
	await sim?.close();
});

beforeEach(() => sim.server.log.clear());

const credentials = () => ({ scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: sim.url } });

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
	expect(sim.server.log.for(ROUTES.result).map((r) => r.path)).toEqual([`/api/v1/results/${chosen}`]);
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
	expect(sim.server.log.for()).toHaveLength(0);
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
	expect(sim.server.log.for()).toHaveLength(0);
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
		sim.server.log.clear();
		const result = await runAgent({
			credentials: credentials(),
			tools: [getResultWith({ toolOutput: 'selected', toolFields: [] })],
			turns: [[{ tool: 'Get Result', input: { resultId: DEMO_MANUAL_SCRAPER_IDS[0] } }]],
		});
		expect(result.observations[0].output).toEqual([{ response: expect.stringMatching(/^Invalid 'Fields': no field is selected/) }]);
		expect(sim.server.log.for(ROUTES.result)).toHaveLength(0);
	});
});
