import { getScraper } from '../../transport/api';
import { SCRAPER_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';

const ID = SCRAPER_ID.describedAs(
	"The scraper to read: pick it from the list, or enter its ID, e.g. the 'scraper_id' of a Create and Run output",
);

export const scraperGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get scraper',
	description: 'Read one scraper of your account: its name, default URLs, schedule and when it last changed',
	properties: ID.properties,
	parallel: true,
	async execute(itemIndex, call) {
		const id = ID.read(this, itemIndex);
		return [{ json: await getScraper(call, id, itemIndex) }];
	},
};
