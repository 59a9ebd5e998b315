import { ROUTES as MARKETPLACE_ROUTES, useMarketplace } from '../../marketplace/helpers';
import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { MARKETPLACE_TIMINGS, search } from './startedWork';

/**
 * Scraping runs the node started (Lead > Create and Run Search Engine Scraper, Scraper > Run) whose reads fail:
 * ridden out up to Max Wait, then the runs and their scraper are named; created or run once. Every other operation that
 * starts runs: startedRunEveryOperation.test.ts. What the started-work tests share: startedWork.ts.
 */

const marketplace = useMarketplace(MARKETPLACE_TIMINGS);

describe('Create and Run with Wait for Completion', () => {
	it('rides out failing run reads and outputs the finished run, created once', async () => {
		marketplace.sim.server.faults.add({ kind: 'status', status: 503, routes: [MARKETPLACE_ROUTES.scrapingRun], times: 5 });
		const result = await marketplace.run(search({ maxWaitSeconds: 120 }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'succeeded', completed: true });
		expect(marketplace.requests(MARKETPLACE_ROUTES.searchLeadsCreateAndRun)).toHaveLength(1);
	}, 120_000);

	it('reads failing until Max Wait: the message names the run and its scraper; Continue On Fail carries them', async () => {
		marketplace.sim.server.faults.add({ kind: 'status', status: 503, routes: [MARKETPLACE_ROUTES.scrapingRun] });
		const result = await marketplace.run(search({ maxWaitSeconds: 2 }), { continueOnFail: true });
		const item = result.items[0].json;
		const [runId] = item.scrapingRunIds as number[];
		const [scraper] = item.scraperIds as number[];
		expect(item.error).toBe(
			`Scraping run ${runId} of scraper ${scraper} was started, but its status could not be read: Scraper Marketplace could not complete the request (503): Service Unavailable [item 0]`,
		);
		expect(item.description).toBe(
			`Do not start it again: it goes on in the service. Read it later with Scraping Run > Get ('Scraping Run ID' ${runId}), or start a workflow when it finishes with the Scraper Marketplace Trigger (Scraping Run Finished).`,
		);
		expect(item.latestState).toEqual([expect.objectContaining({ scraping_run_id: runId, status: expect.any(String) })]);
		expect(marketplace.requests(MARKETPLACE_ROUTES.searchLeadsCreateAndRun)).toHaveLength(1);
	}, 60_000);

	it('an answer that names no scraper: the run is named alone, never "of scraper NaN"', async () => {
		marketplace.sim.server.afterHandle = (request, reply) => {
			const body = reply.json as { results?: Array<Record<string, unknown>> } | undefined;
			if (request.route !== MARKETPLACE_ROUTES.searchLeadsCreateAndRun || !body?.results) return reply;
			return { ...reply, json: { ...body, results: body.results.map((result) => Object.fromEntries(Object.entries(result).filter(([key]) => key !== 'scraper_id'))) } };
		};
		try {
			marketplace.sim.server.faults.add({ kind: 'status', status: 503, routes: [MARKETPLACE_ROUTES.scrapingRun] });
			const result = await marketplace.run(search({ maxWaitSeconds: 2 }), { continueOnFail: true });
			const item = result.items[0].json;
			const [runId] = item.scrapingRunIds as number[];
			expect(item.error).toMatch(new RegExp(`^Scraping run ${runId} was started, but its status could not be read: `));
			expect(item.error).not.toMatch(/NaN/);
		} finally {
			marketplace.sim.server.afterHandle = undefined;
		}
	}, 60_000);

	it('a run found by the wait and then gone (404): called deleted, never "it goes on in the service"', async () => {
		marketplace.sim.server.faults.add({ kind: 'status', status: 404, routes: [MARKETPLACE_ROUTES.scrapingRun], afterRequests: 1 });
		const result = await marketplace.run(search({ maxWaitSeconds: 60 }), { continueOnFail: true });
		const item = result.items[0].json;
		const [runId] = item.scrapingRunIds as number[];
		expect(item.error).toMatch(new RegExp(`^Scraping run ${runId} of scraper \\d+ was started and then deleted while the node waited for it: .*\\(404\\)`));
		expect(item.description).toMatch(/^It was found while the node waited, then no longer: it no longer exists in the service/);
		expect(item.description).not.toMatch(/goes on in the service/);
		expect(marketplace.requests(MARKETPLACE_ROUTES.searchLeadsCreateAndRun)).toHaveLength(1);
	}, 60_000);

	it('a run the service does not list yet (404 to every read) is read until Max Wait, then named', async () => {
		marketplace.sim.server.faults.add({ kind: 'status', status: 404, routes: [MARKETPLACE_ROUTES.scrapingRun] });
		const began = Date.now();
		const result = await marketplace.run(search({ maxWaitSeconds: 4 }));
		expect(result.error?.message).toMatch(/^Scraping run \d+ of scraper \d+ was started, but its status could not be read/);
		expect(Date.now() - began).toBeGreaterThanOrEqual(4_000);
		expect(marketplace.requests(MARKETPLACE_ROUTES.scrapingRun).length).toBeGreaterThan(1);
		expect(marketplace.requests(MARKETPLACE_ROUTES.searchLeadsCreateAndRun)).toHaveLength(1);
	}, 60_000);

	it('Scraper > Run: failing reads name the new run of that scraper, run once', async () => {
		marketplace.sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		const listed = await marketplace.run({ resource: 'scraper', operation: 'getMany', returnAll: true });
		const scraper = listed.items[0].json.id as number;
		marketplace.sim.server.log.clear();
		marketplace.sim.server.faults.add({ kind: 'status', status: 503, routes: [MARKETPLACE_ROUTES.scrapingRun] });
		const began = Date.now();
		const result = await marketplace.run({ resource: 'scraper', operation: 'run', scraperId: scraper, waitForCompletion: true, options: { pollIntervalSeconds: 1, maxWaitSeconds: 6 } });
		expect(result.error?.message).toMatch(new RegExp(`^Scraping runs? [\\d, ]+ of scraper ${scraper} was started, but its status could not be read`));
		expect(marketplace.requests(MARKETPLACE_ROUTES.runScraper)).toHaveLength(1);
		// Reads went on until Max Wait, however many attempts fitted in it under load.
		expect(Date.now() - began).toBeGreaterThanOrEqual(6_000);
		expect(marketplace.requests(MARKETPLACE_ROUTES.scrapingRun).length).toBeGreaterThanOrEqual(4);
	}, 60_000);
});
