import type { IDisplayOptions, INodePropertyOptions } from 'n8n-workflow';

import { field, rules } from '../../shared/input/fields';
import type { Field } from '../../shared/input/fields';

/** The values of the output shapes below. */
export const RUN_OUTPUTS = ['run', 'records'] as const;
export type RunOutput = (typeof RUN_OUTPUTS)[number];

/** The two shapes of a run's output: the wait of the create operations and the Marketplace Trigger offer the same. */
export function runOutputOptions(recordWord: string): INodePropertyOptions[] {
	return [
		{
			name: 'One Item per Run',
			value: 'run',
			description: 'Status, counts and every result with its extracted content in one item',
		},
		{
			name: 'One Item per Record',
			value: 'records',
			description: `Each extracted record (${recordWord}) as its own item, with the scraper, run and result IDs, ready for a spreadsheet or CRM. A result that failed or is not done gives one item with its status.`,
		},
	];
}

interface RunOutputSpec {
	/** The parameter's name as the node stores it: `runOutput` in the node, `output` in the Marketplace Trigger. */
	name: string;
	/** One record of the output, as the One Item per Record choice names it. */
	recordWord: string;
	description: string;
	displayOptions?: IDisplayOptions;
}

/** The Output choice between the two shapes, declared once for the node's wait and the Marketplace Trigger. */
export function runOutputField(spec: RunOutputSpec): Field<RunOutput, RunOutput> {
	return field(
		{
			displayName: 'Output',
			name: spec.name,
			type: 'options',
			default: 'run',
			options: runOutputOptions(spec.recordWord),
			description: spec.description,
			...(spec.displayOptions ? { displayOptions: spec.displayOptions } : {}),
		},
		rules.oneOf(RUN_OUTPUTS),
	);
}
