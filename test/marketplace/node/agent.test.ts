import type { IDataObject } from 'n8n-workflow';

import { runAgent } from '../../harness/agent';
import type { AgentTool } from '../../harness/agent';
import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { FAST_RUNS, NO_WAIT, useMarketplace } from '../helpers';
import { portal } from '../parameters';

/** The Scraper Marketplace as an AI Agent's tool: what the Output option gives the model of a started run. */
// Nothing here waits, and a run stays queued for an hour: the started run is `queued` however long a busy machine
// takes between creating it and answering (FAST_RUNS' 50 ms could pass first when files run in parallel).
const ctx = useMarketplace({ ...FAST_RUNS, queuedMs: 3_600_000 });
const credentials = () => ({ scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: ctx.sim.url } });

function startTool(output: IDataObject): AgentTool {
	return {
		name: 'Start Rentals Scraper',
		nodeType: 'scraperMarketplace',
		parameters: { ...portal, ...NO_WAIT, locations: "={{ $fromAI('locations', 'Suburb and postcode', 'string') }}", ...output },
	};
}

async function startWith(output: IDataObject): Promise<IDataObject> {
	const result = await runAgent({
		credentials: credentials(),
		tools: [startTool(output)],
		turns: [[{ tool: 'Start Rentals Scraper', input: { locations: 'Bondi, NSW 2026' } }]],
	});
	expect(result.error).toBeUndefined();
	const [observation] = result.observations;
	expect(observation.output).toHaveLength(1);
	return observation.output?.[0] as IDataObject;
}

describe('Create and Run without waiting, as a tool: the Output option', () => {
	test('Simplified (the default): the started run in flat fields, no scraper configuration', async () => {
		const run = await startWith({});
		expect(run).toMatchObject({ scraping_run_id: expect.any(Number), scraper_id: expect.any(Number), status: 'queued' });
		expect(Object.keys(run).length).toBeLessThanOrEqual(10);
		for (const value of Object.values(run)) expect(typeof value === 'object' && value !== null).toBe(false);
	});

	test("Raw: the service's whole answer, the scraper it created included", async () => {
		const answer = await startWith({ toolOutput: 'raw' });
		expect(answer).toHaveProperty('scraper');
		expect(answer).not.toHaveProperty('scraping_run_id');
	});

	test('Selected Fields: the run ID and only the fields chosen', async () => {
		const run = await startWith({ toolOutput: 'selected', toolFields: ['status'] });
		expect(run).toEqual({ scraping_run_id: expect.any(Number), status: 'queued' });
	});

	test('Selected Fields with none chosen: the model is told which field to set, and no scraper is created', async () => {
		ctx.sim.server.log.clear();
		const result = await runAgent({
			credentials: credentials(),
			tools: [startTool({ toolOutput: 'selected', toolFields: [] })],
			turns: [[{ tool: 'Start Rentals Scraper', input: { locations: 'Bondi, NSW 2026' } }]],
		});
		expect(result.observations[0].output).toEqual([{ response: expect.stringMatching(/^Invalid 'Fields': no field is selected/) }]);
		expect(ctx.sim.server.log.entries.filter((entry) => entry.method === 'POST')).toHaveLength(0);
	});
});
