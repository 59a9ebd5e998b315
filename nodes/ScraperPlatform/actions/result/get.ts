import type { Operation } from '../../../shared/execution/operation';
import { getResult } from '../../transport/api';
import { RecordOutput, resultOutput } from '../common';
import { RESULT_ID } from '../../descriptions/ids';

const OUTPUT = new RecordOutput("Whether to output one item per record of the result's data");

export const resultGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get result with extracted data',
	description: 'Get one result record by ID, with its extracted data',
	properties: [...RESULT_ID.properties, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		const id = RESULT_ID.read(this, itemIndex);
		const output = OUTPUT.read(this, itemIndex);
		return resultOutput(await getResult(call, id, itemIndex), output, itemIndex);
	},
};
