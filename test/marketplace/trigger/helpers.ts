import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MARKETPLACE_DEMO_TOKEN, MARKETPLACE_ROUTES, MarketplaceSimulator } from '../../simulator/marketplace';
import type { TriggerDatabase } from '../../harness/trigger';
import { RUN_TRIGGER_TYPE, TriggerInstance } from '../../harness/trigger';

/**
 * The Marketplace Trigger's engine tests: runs started over HTTP as the service's users (or its schedule) start them, the
 * trigger polled through n8n-core's real PollContext (`test/harness/trigger.ts`).
 */

export async function api<T>(sim: MarketplaceSimulator, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${sim.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
	return (await response.json()) as T;
}

/** A search-lead scraper (its creation starts its first run); returns its id and that run's id. */
export async function createScraper(sim: MarketplaceSimulator, name: string): Promise<{ scraperId: number; runId: number }> {
	const created = await api<{ scraper: { id: number }; results: Array<{ scraping_run_id: number }> }>(
		sim,
		'POST',
		'/api/scrapers/leads-generator/search/create-and-run',
		{ name, search_type: 'keywords', keywords: `${name} leads`, limit_pages: 1 },
	);
	return { scraperId: created.scraper.id, runId: created.results[0].scraping_run_id };
}

/** Starts a run of the scraper with `urls` results; `fail` makes every result of it fail (the simulator's marker). */
export async function startRun(sim: MarketplaceSimulator, scraperId: number, options: { urls?: number; fail?: boolean } = {}): Promise<number> {
	const urls = Array.from({ length: options.urls ?? 1 }, (_, i) => `https://search.example.com/q-${scraperId}-${i}${options.fail ? '/sim-fail' : ''}`);
	const answer = await api<{ data: Array<{ scraping_run_id: number }> }>(sim, 'POST', `/api/scrapers/${scraperId}/run`, { urls });
	return answer.data[0].scraping_run_id;
}

/** A Scraper Marketplace Trigger (Scraping Run Finished), or the type `nodeType`. */
export function newRunTrigger(sim: MarketplaceSimulator, parameters: IDataObject = {}, database?: TriggerDatabase, nodeType = RUN_TRIGGER_TYPE, name?: string): TriggerInstance {
	return new TriggerInstance({
		nodeType,
		name,
		credentialType: 'scraperMarketplaceApi',
		baseUrl: sim.url,
		apiToken: MARKETPLACE_DEMO_TOKEN,
		parameters: parameters as TriggerInstance['node']['parameters'],
		database,
	});
}

export const runIds = (items: INodeExecutionData[]) => items.map((item) => item.json.scraping_run_id as number);

export const scrapersFilter = (...ids: number[]) => ({ scraper: ids.map((id) => ({ scraperId: { __rl: true, mode: 'list', value: String(id) } })) });

/** Requests `action` sent to the results list and to single scraping runs. */
export async function countRequests<T>(sim: MarketplaceSimulator, action: () => Promise<T>): Promise<{ value: T; list: number; runs: number }> {
	const before = (route: string) => sim.server.log.count(route);
	const [list, runs] = [before(MARKETPLACE_ROUTES.listResults), before(MARKETPLACE_ROUTES.scrapingRun)];
	const value = await action();
	return { value, list: before(MARKETPLACE_ROUTES.listResults) - list, runs: before(MARKETPLACE_ROUTES.scrapingRun) - runs };
}

/** One marketplace simulator for a test file (`ctx.sim`), its state fresh before each test, faults and hooks cleared. */
export function useRunSimulator(options: { queuedMs: number; runMs: number }): { sim: MarketplaceSimulator } {
	const ctx = {} as { sim: MarketplaceSimulator };
	beforeAll(async () => {
		ctx.sim = new MarketplaceSimulator(options);
		await ctx.sim.listen();
	});
	afterAll(async () => {
		await ctx.sim.close();
	});
	beforeEach(() => {
		ctx.sim.reset();
		ctx.sim.server.faults.clear();
		ctx.sim.server.beforeHandle = undefined;
	});
	return ctx;
}
