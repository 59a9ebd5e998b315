import { getLatestScrapingRun } from '../../transport/api';
import type { Operation } from '../../../shared/execution/operation';
import { integerIdOf, marketplaceIdParameter } from '../common';

export const scrapingRunGetLatest: Operation = {
	value: 'getLatest',
	name: 'Get Latest',
	action: 'Get latest scraping run of scraper',
	description: "Read a scraper's newest scraping run, scheduled or started by hand, with its status and results",
	properties: [
		...marketplaceIdParameter(
			'scraperId',
			'Scraper ID',
			'searchScrapers',
			"The scraper whose newest run to read: pick it from the list, or enter its ID, e.g. the 'scraper_id' of a Create and Run output",
			'101',
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const scraperId = integerIdOf(this, 'scraperId', 'Scraper ID', itemIndex);
		return [{ json: await getLatestScrapingRun(call, scraperId, itemIndex) }];
	},
};
