import { getResult } from '../../transport/api';
import type { Operation } from '../../../shared/execution/operation';
import { integerIdOf, marketplaceIdParameter } from '../common';

export const resultGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get result',
	description: 'Read one result (one URL, location query or keyword of a run) with its status and extracted data',
	properties: [
		...marketplaceIdParameter(
			'resultId',
			'Result ID',
			'searchResults',
			"The result to read: pick it from the list, or enter its ID, e.g. the 'id' of a Result > Get Many output",
			'90001',
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const id = integerIdOf(this, 'resultId', 'Result ID', itemIndex);
		return [{ json: await getResult(call, id, itemIndex) }];
	},
};
