import { deleteRecord } from '../../transport/api';
import { SUBJECT } from '../../transport/vocabulary';
import { SCRAPING_RUN_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';

const ID = SCRAPING_RUN_ID.describedAs(
	"The scraping run to remove with its results: pick it from the list, or enter its ID, e.g. the 'scraping_run_id' of a Result > Get Many output",
);

export const scrapingRunDelete: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete scraping run',
	description: 'Remove a scraping run and all its results from your account for good',
	properties: ID.properties,
	parallel: true,
	async execute(itemIndex, call) {
		const id = ID.read(this, itemIndex);
		await deleteRecord(call, SUBJECT.scrapingRun, id, itemIndex);
		return [{ json: { deleted: true, id } }];
	},
};
