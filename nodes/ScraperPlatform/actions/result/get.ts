import type { Operation } from '../../../shared/execution/operation';
import { getResult } from '../../transport/api';
import { getOutputChoice, outputOptions, resultOutput } from '../common';
import { resultIdOf, resultIdParameter } from '../../descriptions/ids';

export const resultGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get result with extracted data',
	description: 'Get one result record by ID, with its extracted data',
	properties: [
		...resultIdParameter,
		...outputOptions('Whether to output one item per record of the result\'s data'),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const id = resultIdOf(this, itemIndex);
		const output = getOutputChoice(this, itemIndex);
		return resultOutput(await getResult(call, id, itemIndex), output, itemIndex);
	},
};
