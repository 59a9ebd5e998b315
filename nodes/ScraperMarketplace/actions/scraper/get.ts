import { getScraper } from '../../transport/api';
import type { Operation } from '../../../shared/execution/operation';
import { integerIdOf, marketplaceIdParameter } from '../common';

export const scraperGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get scraper',
	description: 'Read one scraper of your account: its name, default URLs, schedule and when it last changed',
	properties: [
		...marketplaceIdParameter(
			'scraperId',
			'Scraper ID',
			'searchScrapers',
			"The scraper to read: pick it from the list, or enter its ID, e.g. the 'scraper_id' of a Create and Run output",
			'101',
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const id = integerIdOf(this, 'scraperId', 'Scraper ID', itemIndex);
		return [{ json: await getScraper(call, id, itemIndex) }];
	},
};
