import type { INodePropertyOptions } from 'n8n-workflow';

/** The values of the output shapes below. */
export const RUN_OUTPUTS = ['run', 'records'] as const;
export type RunOutput = (typeof RUN_OUTPUTS)[number];

/** The two shapes of a run's output: the wait of the create operations and the Run Trigger offer the same. */
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
