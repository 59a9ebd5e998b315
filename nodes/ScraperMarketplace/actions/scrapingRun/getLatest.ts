import { getLatestScrapingRun } from '../../transport/api';
import { SCRAPER_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';

const ID = SCRAPER_ID.describedAs(
	"The scraper whose newest run to read: pick it from the list, or enter its ID, e.g. the 'scraper_id' of a Create and Run output",
);

export const scrapingRunGetLatest: Operation = {
	value: 'getLatest',
	name: 'Get Latest',
	action: 'Get latest scraping run of scraper',
	description: "Read a scraper's newest scraping run, scheduled or started by hand, with its status and results",
	properties: ID.properties,
	parallel: true,
	async execute(itemIndex, call) {
		const scraperId = ID.read(this, itemIndex);
		return [{ json: await getLatestScrapingRun(call, scraperId, itemIndex) }];
	},
};
