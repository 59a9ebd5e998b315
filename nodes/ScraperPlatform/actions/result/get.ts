import type { Operation } from '../../../shared/operation';
import { getResult } from '../../../shared/platform';
import { InputValidator } from '../../../shared/validation';
import { getOutputChoice, outputOptions, resultOutput } from '../common';

export const resultGet: Operation = {
	value: 'get',
	name: 'Get',
	action: 'Get a result',
	description: 'Get one result record by ID, with its extracted data',
	properties: [
		{
			displayName: 'Result ID',
			name: 'resultId',
			type: 'string',
			required: true,
			default: '',
			placeholder: '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b',
			description: 'The ID of the result record',
		},
		outputOptions('Whether to output one item per record of the result\'s data'),
	],
	async execute(itemIndex) {
		const id = new InputValidator(this.getNode(), itemIndex).uuid(this.getNodeParameter('resultId', itemIndex), 'Result ID');
		const output = getOutputChoice(this, itemIndex);
		return resultOutput(await getResult(this, id, itemIndex), output, itemIndex);
	},
};
