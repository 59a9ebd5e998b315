import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runNode } from '../harness';
import type { RunOptions, RunResult } from '../harness';
import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_ROUTES, MarketplaceSimulator } from '../simulator/marketplace';
import type { MarketplaceSimulatorOptions } from '../simulator/marketplace';

export const ROUTES = MARKETPLACE_ROUTES;

/** Short run timings: a run is queued 50 ms and running 150 ms, so one 1 s poll sees it finished. */
export const FAST_RUNS: MarketplaceSimulatorOptions = { queuedMs: 50, runMs: 150 };

/** Wait for Completion with the shortest poll interval the node accepts (version 3 keeps both under Options). */
export const WAIT = { waitForCompletion: true, options: { pollIntervalSeconds: 1, maxWaitSeconds: 30 } };

/** `WAIT` with other Options (a shorter Max Wait, Parallel Requests). */
export function waitWith(options: IDataObject): IDataObject {
	return { ...WAIT, options: { ...WAIT.options, ...options } };
}
export const NO_WAIT = { waitForCompletion: false };

export interface MarketplaceContext {
	sim: MarketplaceSimulator;
	/** Runs the Scraper Marketplace node with the demo token (or `token`) against the simulator. */
	run: (
		parameters: IDataObject,
		options?: Partial<Omit<RunOptions, 'nodeType' | 'parameters' | 'credentials'>> & { token?: string },
	) => Promise<RunResult>;
	/** Requests the simulator received since the test started. */
	requests: (route?: string) => ReturnType<MarketplaceSimulator['server']['log']['for']>;
}

/** Starts one simulator for the test file, resets its state before each test and closes it afterwards. */
export function useMarketplace(options: MarketplaceSimulatorOptions = FAST_RUNS): MarketplaceContext {
	const context = {} as MarketplaceContext;
	beforeAll(async () => {
		context.sim = new MarketplaceSimulator(options);
		await context.sim.listen();
	});
	afterAll(async () => {
		await context.sim.close();
	});
	beforeEach(() => {
		context.sim.reset();
	});
	context.run = async (parameters, runOptions = {}) => {
		const { token, ...rest } = runOptions;
		return await runNode({
			nodeType: 'scraperMarketplace',
			parameters: parameters as RunOptions['parameters'],
			credentials: { scraperMarketplaceApi: { apiToken: token ?? MARKETPLACE_DEMO_TOKEN, baseUrl: context.sim.url } },
			...rest,
		});
	};
	context.requests = (route) => context.sim.server.log.for(route);
	return context;
}

/** Runs and fails the test with the node's error when it did not succeed. */
export async function runOk(ctx: MarketplaceContext, parameters: IDataObject, options?: Parameters<MarketplaceContext['run']>[1]): Promise<IDataObject[]> {
	const result = await ctx.run(parameters, options);
	if (result.error) throw new Error(`Node failed: ${result.error.message} — ${result.error.description ?? ''}`);
	return jsonOf(result.items);
}

export function jsonOf(items: INodeExecutionData[]): IDataObject[] {
	return items.map((item) => item.json);
}

export const BEARER = `Bearer ${MARKETPLACE_DEMO_TOKEN}`;
