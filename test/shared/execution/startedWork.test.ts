import type { IDataObject } from 'n8n-workflow';

import { DEMO_MANUAL_SCRAPER_IDS } from '../../simulator/platform';
import { ROUTES as MARKETPLACE_ROUTES, useMarketplace } from '../../marketplace/helpers';
import { MARKETPLACE_DEMO_TOKEN } from '../../simulator/marketplace';
import { ROUTES as PLATFORM_ROUTES, usePlatform } from '../../platform/helpers';
import { LAST_READ_MS } from '../../../nodes/shared/execution/polling';

/**
 * Work the node started is never lost: once a bulk job or a scraping run exists, status reads that fail are ridden
 * out with backoff up to Max Wait, and a wait that still cannot confirm the end names what was started, says not to
 * start it again, and (Continue On Fail) carries its ids and latest state. Nothing is ever started twice.
 */

const platform = usePlatform({ bulkUrlDurationMs: 1_500, bulkConcurrency: 2 });
const marketplace = useMarketplace({ queuedMs: 50, runMs: 1_500 });

const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];
const bulkStart = (options: IDataObject) => ({
	resource: 'bulk',
	operation: 'start',
	scraperId,
	urls: 'https://a.example.com/1\nhttps://a.example.com/2',
	waitForCompletion: true,
	options: { pollIntervalSeconds: 1, ...options },
});
const search = (options: IDataObject) => ({
	resource: 'lead',
	operation: 'createAndRunSearch',
	name: 'Roofers',
	searchType: 'keywords',
	keywords: 'roofers austin',
	limitPages: 1,
	waitForCompletion: true,
	options: { pollIntervalSeconds: 1, ...options },
});

describe('Bulk > Start with Wait for Completion', () => {
	it('rides out status reads that fail beyond the transport retries, and completes with one job', async () => {
		// Five failed reads: one whole read of four attempts and more, where the wait used to give up after four.
		platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result], times: 5 });
		const result = await platform.run(bulkStart({ maxWaitSeconds: 120 }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ completed: true });
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBeGreaterThan(5);
	}, 120_000);

	it('reads failing until Max Wait: the message names the job, says not to start it again, and reads went on until Max Wait', async () => {
		platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result] });
		const started = Date.now();
		// A read of four attempts ends within 1 + 7 s (backoff with jitter), so 12 s leaves room for a second read.
		const result = await platform.run(bulkStart({ maxWaitSeconds: 12 }));
		const id = platform.sim.server.log.for(PLATFORM_ROUTES.result)[0].path.split('/').pop() as string;
		expect(result.error?.message).toBe(
			`Bulk job "${id}" was started, but its status could not be read: Scraper Platform could not complete the request (503): Service Unavailable [item 0]`,
		);
		expect(result.error?.description).toMatch(/^Do not start it again: it goes on in the service\. Read it later with Bulk > Get \('Bulk Job ID' /);
		expect(Date.now() - started).toBeGreaterThanOrEqual(12_000);
		// More than one read's four attempts: the wait read again after the first read gave up.
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBeGreaterThan(4);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
	}, 60_000);

	it('with Continue On Fail the item carries the job id and its latest known state', async () => {
		platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result] });
		const result = await platform.run(bulkStart({ maxWaitSeconds: 2 }), { continueOnFail: true });
		expect(result.error).toBeUndefined();
		const item = result.items[0].json;
		expect(item.error).toMatch(/^Bulk job "[^"]+" was started, but its status could not be read/);
		expect(item.bulkJobId).toEqual(expect.any(String));
		expect(item.error).toContain(item.bulkJobId as string);
		expect(item.latestState).toMatchObject({ id: item.bulkJobId, scraperId, completed: false });
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	}, 60_000);

	it('a status read that hangs does not hold the wait past Max Wait: the job is output with its latest known state', async () => {
		// Within the transport's 120 s timeout: a read that waited on it would answer after 90 s.
		platform.sim.server.faults.add({ kind: 'slow', delayMs: 90_000, routes: [PLATFORM_ROUTES.result], times: 1 });
		const started = Date.now();
		const result = await platform.run(bulkStart({ maxWaitSeconds: 3 }));
		// The last read gets LAST_READ_MS past Max Wait, then the wait ends with what it knows.
		expect(Date.now() - started).toBeLessThan(3_000 + LAST_READ_MS + 3_000);
		expect(result.error).toBeUndefined();
		const job = result.items[0].json;
		expect(job).toMatchObject({ id: expect.any(String), scraperId, completed: false, waitTimedOut: true });
		expect(job.waitMessage).toContain(String(job.id));
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
	}, 120_000);

	it('a job the service does not know yet (404 to every status read) is read until Max Wait, then named', async () => {
		platform.sim.server.faults.add({ kind: 'status', status: 404, routes: [PLATFORM_ROUTES.result] });
		const started = Date.now();
		const result = await platform.run(bulkStart({ maxWaitSeconds: 5 }));
		expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started, but its status could not be read: The bulk job "[^"]+" was not found \(404\)/);
		expect(result.error?.description).toMatch(/^Do not start it again/);
		// A service may not list at once what it has just created: the wait reads on instead of giving up at once.
		expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBeGreaterThan(1);
		expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
	}, 60_000);

	it('a job read once, then gone (404): the wait ends at once, naming the job', async () => {
		platform.sim.options.bulkUrlDurationMs = 600_000;
		try {
			platform.sim.server.faults.add({ kind: 'status', status: 404, routes: [PLATFORM_ROUTES.result], afterRequests: 1 });
			const started = Date.now();
			const result = await platform.run(bulkStart({ maxWaitSeconds: 600 }));
			expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started, but its status could not be read: The bulk job "[^"]+" was not found \(404\)/);
			expect(Date.now() - started).toBeLessThan(15_000);
			expect(platform.sim.server.log.count(PLATFORM_ROUTES.result)).toBe(2);
		} finally {
			platform.sim.options.bulkUrlDurationMs = 1_500;
		}
	}, 30_000);

	it('stopped while waiting: the message names the job that goes on', async () => {
		platform.sim.options.bulkUrlDurationMs = 600_000;
		try {
			const result = await platform.run(bulkStart({ maxWaitSeconds: 600 }), { cancelAfterMs: 1_500 });
			expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started; the execution was stopped before it finished/);
			expect(result.error?.description).toMatch(/^Do not start it again/);
		} finally {
			platform.sim.options.bulkUrlDurationMs = 1_500;
		}
	}, 30_000);

	it('without waiting, a start answered with the id only whose read fails names the job', async () => {
		platform.sim.options.bulkStartAnswer = 'bulkResultIdOnly';
		try {
			platform.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.result] });
			const result = await platform.run({ resource: 'bulk', operation: 'start', scraperId, urls: 'https://a.example.com/1' });
			expect(result.error?.message).toMatch(/^Bulk job "[^"]+" was started, but its status could not be read/);
			expect(result.error?.description).toMatch(/Do not start it again/);
			expect(platform.sim.server.log.count(PLATFORM_ROUTES.bulk)).toBe(1);
		} finally {
			platform.sim.options.bulkStartAnswer = 'both';
		}
	}, 30_000);
});

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
			`Do not start it again: it goes on in the service. Read it later with Scraping Run > Get ('Scraping Run ID' ${runId}), or start a workflow when it finishes with the Scraper Run Trigger.`,
		);
		expect(item.latestState).toEqual([expect.objectContaining({ scraping_run_id: runId, status: expect.any(String) })]);
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

	// Every operation that starts runs and waits for them: the runs are named whatever the operation.
	const creates: Array<[string, IDataObject, string]> = [
		['Real Estate Portal > Create and Run', { resource: 'realEstatePortal', operation: 'createAndRun', name: 'Homes', locations: 'Bondi' }, MARKETPLACE_ROUTES.portalCreateAndRun],
		['PDF > Create and Run', { resource: 'pdf', operation: 'createAndRun', name: 'Reports', keywords: { keyword: [{ keyword: 'annual report', prompt: 'Is it one?' }] } }, MARKETPLACE_ROUTES.pdfCreateAndRun],
		['Lead > Create and Run Social Scraper', { resource: 'lead', operation: 'createAndRunSocial', name: 'Talk', keywords: 'crm', expectedData: 2 }, MARKETPLACE_ROUTES.socialLeadsCreateAndRun],
	];
	it.each(creates)('%s: failing reads end in an item naming the started run, created once', async (_name, parameters, route) => {
		marketplace.sim.server.faults.add({ kind: 'status', status: 503, routes: [MARKETPLACE_ROUTES.scrapingRun] });
		const began = Date.now();
		const result = await marketplace.run({ ...parameters, waitForCompletion: true, options: { pollIntervalSeconds: 1, maxWaitSeconds: 6 } }, { continueOnFail: true });
		// Reads went on until Max Wait, not only through the first read's attempts.
		expect(Date.now() - began).toBeGreaterThanOrEqual(6_000);
		const item = result.items[0].json;
		const runIds = item.scrapingRunIds as number[];
		expect(runIds.length).toBeGreaterThan(0);
		expect(item.error).toMatch(new RegExp(`^Scraping runs? ${runIds.join(', ')} of scraper \\d+ was started, but its status could not be read`));
		expect(item.description).toMatch(/^Do not start it again/);
		expect(marketplace.requests(route)).toHaveLength(1);
		// Every attempt of the reads failed, yet the wait held until Max Wait (above) instead of ending at the first read.
		expect(marketplace.requests(MARKETPLACE_ROUTES.scrapingRun).length).toBeGreaterThanOrEqual(4);
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
