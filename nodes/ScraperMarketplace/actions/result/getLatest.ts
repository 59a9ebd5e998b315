import type { INodeExecutionData } from 'n8n-workflow';

import { getLatestResults } from '../../transport/api';
import { SCRAPER_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';

const ID = SCRAPER_ID.describedAs(
	"The scraper whose newest results to read: pick it from the list, or enter its ID, e.g. the 'scraper_id' of a Create and Run output",
);

export const resultGetLatest: Operation = {
	value: 'getLatest',
	name: 'Get Latest',
	action: 'Get latest result of scraper',
	description: "Read the results of a scraper's newest scraping run, one item per URL, location query or keyword",
	properties: ID.properties,
	parallel: true,
	async execute(itemIndex, call) {
		const scraperId = ID.read(this, itemIndex);
		const results = await getLatestResults(call, scraperId, itemIndex);
		return results.map((json): INodeExecutionData => ({ json }));
	},
};
