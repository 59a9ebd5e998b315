import type { IDataObject, INodeExecutionData, INodeListSearchResult, INodeParameters } from 'n8n-workflow';

import { runListSearch, runNode } from '../harness';
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

/** A Real Estate Portal create and run by listing links (to give a scraper, or a run, known URLs). */
export const portalLinks = (urls: string[]) => ({
	resource: 'realEstatePortal',
	operation: 'createAndRun',
	name: 'Listings',
	searchBy: 'links',
	urls: urls.join('\n'),
});

/** Creates a scraper with `parameters` and waits for its first run; returns the run item. The request log is cleared. */
export async function createFinished(ctx: MarketplaceContext, parameters: IDataObject): Promise<IDataObject> {
	const [run] = await runOk(ctx, { ...parameters, ...WAIT });
	expect(run.status).toBe('succeeded');
	ctx.sim.server.log.clear();
	return run;
}

/** `count` scrapers of the demo account, each with one finished run; ids from 101, listed newest (highest) first. */
export function seedScrapers(ctx: MarketplaceContext, count: number, token = MARKETPLACE_DEMO_TOKEN): void {
	for (let i = 0; i < count; i++) ctx.sim.seedRuns(token, 1);
}

/** A `From list` search of the node, as n8n's server calls it, with the node's `parameters` as they are set. */
export async function listSearch(
	ctx: MarketplaceContext,
	parameters: INodeParameters,
	method: string,
	options: { filter?: string; paginationToken?: string } = {},
): Promise<INodeListSearchResult> {
	return await runListSearch({
		nodeType: 'scraperMarketplace',
		method,
		parameters,
		credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: ctx.sim.url } },
		...options,
	});
}

export const values = (result: INodeListSearchResult) => result.results.map((r) => r.value);
