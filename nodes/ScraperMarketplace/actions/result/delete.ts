import { deleteRecord } from '../../transport/api';
import { SUBJECT } from '../../transport/vocabulary';
import type { Operation } from '../../../shared/execution/operation';
import { integerIdOf, marketplaceIdParameter } from '../common';

export const resultDelete: Operation = {
	value: 'delete',
	name: 'Delete',
	action: 'Delete result',
	description: 'Remove one result from its scraping run for good; a run left with no results goes too',
	properties: [
		...marketplaceIdParameter(
			'resultId',
			'Result ID',
			'searchResults',
			"The result to remove: pick it from the list, or enter its ID, e.g. the 'id' of a Result > Get Many output",
			'90001',
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const id = integerIdOf(this, 'resultId', 'Result ID', itemIndex);
		await deleteRecord(call, SUBJECT.result, id, itemIndex);
		return [{ json: { deleted: true, id } }];
	},
};
