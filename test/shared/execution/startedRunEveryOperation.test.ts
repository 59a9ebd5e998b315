import type { IDataObject } from 'n8n-workflow';

import { ROUTES as MARKETPLACE_ROUTES, useMarketplace } from '../../marketplace/helpers';
import { MARKETPLACE_TIMINGS } from './startedWork';

/**
 * Every operation that starts scraping runs and waits for them: when the reads fail, the runs are named whatever the
 * operation, and the create is sent once. Lead > Create and Run Search Engine Scraper and Scraper > Run:
 * startedRunFailingReads.test.ts. What the started-work tests share: startedWork.ts.
 */

const marketplace = useMarketplace(MARKETPLACE_TIMINGS);

describe('Create and Run with Wait for Completion', () => {
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
});
