import { getScrapingRun } from '../../transport/api';
import type { Operation } from '../../../shared/execution/operation';
import { integerIdOf, marketplaceIdParameter } from '../common';

export const scrapingRunGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get scraping run',
	description: 'Read one scraping run: its status and every result with the extracted data, as one item',
	properties: [
		...marketplaceIdParameter(
			'scrapingRunId',
			'Scraping Run ID',
			'searchScrapingRuns',
			"The scraping run to read: pick it from the list, or enter its ID, e.g. the 'scraping_run_id' of a Create and Run or Result > Get Many output",
			'5001',
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const id = integerIdOf(this, 'scrapingRunId', 'Scraping Run ID', itemIndex);
		return [{ json: await getScrapingRun(call, id, itemIndex) }];
	},
};
