import { deleteRecord } from '../../transport/api';
import { SUBJECT } from '../../transport/vocabulary';
import { RESULT_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';

const ID = RESULT_ID.describedAs(
	"The result to remove: pick it from the list, or enter its ID, e.g. the 'id' of a Result > Get Many output",
);

export const resultDelete: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete result',
	description: 'Remove one result from its scraping run for good; a run left with no results goes too',
	properties: ID.properties,
	parallel: true,
	async execute(itemIndex, call) {
		const id = ID.read(this, itemIndex);
		await deleteRecord(call, SUBJECT.result, id, itemIndex);
		return [{ json: { deleted: true, id } }];
	},
};
