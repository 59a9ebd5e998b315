import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runNode } from '../harness';
import type { RunOptions, RunResult } from '../harness';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../simulator/platform';
import type { PlatformSimulatorOptions } from '../simulator/platform';

export interface PlatformContext {
	sim: PlatformSimulator;
	/** Runs the Scraper Platform node with the demo token (or `token`) against the simulator. */
	run: (
		parameters: IDataObject,
		options?: Partial<Omit<RunOptions, 'nodeType' | 'parameters' | 'credentials'>> & { token?: string },
	) => Promise<RunResult>;
	/** Requests the simulator received since the last `sim.server.log.clear()`. */
	requests: () => ReturnType<PlatformSimulator['server']['log']['for']>;
}

/** Starts one simulator for the test file and closes it afterwards. */
export function usePlatform(options: PlatformSimulatorOptions = {}): PlatformContext {
	const context = {} as PlatformContext;
	beforeAll(async () => {
		context.sim = new PlatformSimulator(options);
		await context.sim.listen();
	});
	afterAll(async () => {
		await context.sim.close();
	});
	beforeEach(() => {
		context.sim.server.log.clear();
		context.sim.server.faults.clear();
	});
	context.run = async (parameters, runOptions = {}) => {
		const { token, ...rest } = runOptions;
		return await runNode({
			nodeType: 'scraperPlatform',
			parameters: parameters as RunOptions['parameters'],
			credentials: { scraperPlatformApi: { apiToken: token ?? PLATFORM_DEMO_TOKEN, baseUrl: context.sim.url } },
			...rest,
		});
	};
	context.requests = () => context.sim.server.log.for();
	return context;
}

export function jsonOf(items: INodeExecutionData[]): IDataObject[] {
	return items.map((item) => item.json);
}

export const ROUTES = {
	account: 'GET /api/v1/subscription-accounts',
	createAndRun: 'POST /api/v1/scrapers-ai',
	rerun: 'POST /api/v1/scrapers-ai-rerun',
	manualRerun: 'POST /api/v1/scrapers-manual-rerun',
	bulk: 'POST /api/v1/scrapers-manual-rerun/bulk',
	aiBulk: 'POST /api/v1/scrapers-ai-rerun/bulk',
	cancelScraper: 'PATCH /api/v1/scrapers-bulks/:scraperId/cancel',
	cancelJob: 'PATCH /api/v1/scrapers-bulks/result/:resultId/cancel',
	statuses: 'GET /api/v1/analytic/statuses',
	results: 'GET /api/v1/results',
	result: 'GET /api/v1/results/:id',
	bandwidth: 'GET /api/v1/proxies/user/requests-bandwidth',
} as const;

/** Creates an AI scraper of `agent` on the shop's products page and returns the whole record the service answered. */
export async function createScraper(ctx: PlatformContext, agent = 'general'): Promise<IDataObject> {
	const result = await ctx.run({
		resource: 'aiScraper',
		operation: 'createAndRun',
		url: 'https://shop.example.com/products',
		prompt: 'Extract every product with name and price',
		agent,
		// The whole record: what the service answered.
		simplify: false,
	});
	expect(result.error).toBeUndefined();
	return result.items[0].json;
}

/** Three AI scrapers run on stats.example.com (paths a, b and c): the activity the Analytics operations report. */
export async function scrapeStatsDomain(ctx: PlatformContext): Promise<void> {
	for (const path of ['a', 'b', 'c']) {
		await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: `https://stats.example.com/${path}`, prompt: 'Title' });
	}
}
