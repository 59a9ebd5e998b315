import { getResult } from '../../transport/api';
import { RESULT_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';

const ID = RESULT_ID.describedAs(
	"The result to read: pick it from the list, or enter its ID, e.g. the 'id' of a Result > Get Many output",
);

export const resultGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get result',
	description: 'Read one result (one URL, location query or keyword of a run) with its status and extracted data',
	properties: ID.properties,
	parallel: true,
	async execute(itemIndex, call) {
		const id = ID.read(this, itemIndex);
		return [{ json: await getResult(call, id, itemIndex) }];
	},
};
