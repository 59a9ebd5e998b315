import type { INodeExecutionData } from 'n8n-workflow';

import { getLatestResults } from '../../transport/api';
import type { Operation } from '../../../shared/execution/operation';
import { integerIdOf, marketplaceIdParameter } from '../common';

export const resultGetLatest: Operation = {
	value: 'getLatest',
	name: 'Get Latest',
	action: 'Get latest result of scraper',
	description: "Read the results of a scraper's newest scraping run, one item per URL, location query or keyword",
	properties: [
		...marketplaceIdParameter(
			'scraperId',
			'Scraper ID',
			'searchScrapers',
			"The scraper whose newest results to read: pick it from the list, or enter its ID, e.g. the 'scraper_id' of a Create and Run output",
			'101',
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const scraperId = integerIdOf(this, 'scraperId', 'Scraper ID', itemIndex);
		const results = await getLatestResults(call, scraperId, itemIndex);
		return results.map((json): INodeExecutionData => ({ json }));
	},
};
