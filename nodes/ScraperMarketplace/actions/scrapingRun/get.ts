import { getScrapingRun } from '../../transport/api';
import { SCRAPING_RUN_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';

const ID = SCRAPING_RUN_ID.describedAs(
	"The scraping run to read: pick it from the list, or enter its ID, e.g. the 'scraping_run_id' of a Create and Run or Result > Get Many output",
);

export const scrapingRunGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get scraping run',
	description: 'Read one scraping run: its status and every result with the extracted data, as one item',
	properties: ID.properties,
	parallel: true,
	async execute(itemIndex, call) {
		const id = ID.read(this, itemIndex);
		return [{ json: await getScrapingRun(call, id, itemIndex) }];
	},
};
