import { isTerminalStatus, recordOrigin } from '../../../nodes/ScraperMarketplace/transport/vocabulary';
import { result } from '../runs/records';

/** The section C vocabulary, without the service. */

describe('Marketplace vocabulary', () => {
	it('terminal statuses, whatever their case; queued and running are not', () => {
		for (const status of ['succeeded', 'failed', 'error', 'canceled', 'cancelled', 'FAILED']) expect(isTerminalStatus(status)).toBe(true);
		for (const status of ['queued', 'running', '', undefined, null]) expect(isTerminalStatus(status)).toBe(false);
	});

	it('the ids of a record item, in this order', () => {
		expect(Object.keys(recordOrigin(7, 500, result(9, 'succeeded')))).toEqual(['scraper_id', 'scraping_run_id', 'result_id', 'scraped_url']);
	});
});
