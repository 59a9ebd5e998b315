import type { IDataObject } from 'n8n-workflow';

import { useMarketplace } from '../helpers';
import { invalid, messageOf } from '../locators';

/** The resource locator IDs of the read and delete operations, checked before any request. */

const ctx = useMarketplace();

describe('ids are checked before any request, naming the field', () => {
	const operations: Array<[string, IDataObject, string, string]> = [
		['Scraper > Get', { resource: 'scraper', operation: 'get' }, 'scraperId', 'Scraper ID'],
		['Scraping Run > Get', { resource: 'scrapingRun', operation: 'get' }, 'scrapingRunId', 'Scraping Run ID'],
		['Scraping Run > Get Latest', { resource: 'scrapingRun', operation: 'getLatest' }, 'scraperId', 'Scraper ID'],
		['Scraping Run > Delete', { resource: 'scrapingRun', operation: 'delete' }, 'scrapingRunId', 'Scraping Run ID'],
		['Result > Get', { resource: 'result', operation: 'get' }, 'resultId', 'Result ID'],
		['Result > Get Latest', { resource: 'result', operation: 'getLatest' }, 'scraperId', 'Scraper ID'],
		['Result > Delete', { resource: 'result', operation: 'delete' }, 'resultId', 'Result ID'],
	];
	it.each(operations)('%s', async (_name, parameters, field, label) => {
		// As an expression gives them: n8n itself refuses an empty picker, and the By ID mode's pattern, in the editor.
		for (const bad of ['0', 'abc', '1.5', '-3']) {
			const result = await ctx.run({ ...parameters, [field]: { __rl: true, mode: 'id', value: `={{ ${JSON.stringify(bad)} }}` } });
			expect(messageOf(result.error)).toMatch(invalid(label));
		}
		expect(ctx.requests()).toHaveLength(0);
	});
});
