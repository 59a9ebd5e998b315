import type { INodePropertyOptions } from 'n8n-workflow';

/** The two shapes of a bulk job's output: Bulk > Start and Get, and the Platform Trigger (with `recordsNote`), offer them. */
export function bulkOutputOptions(recordsNote = ''): INodePropertyOptions[] {
	return [
		{
			name: 'One Item per Job',
			value: 'job',
			description: 'Status, summary counts, per-URL details and all merged records in one item',
		},
		{
			name: 'One Item per Record',
			value: 'records',
			description: `Each merged record (what the job extracted from all its URLs) as its own item with the bulk job ID on it, ready for a spreadsheet${recordsNote}`,
		},
	];
}

export const BULK_OUTPUTS = ['job', 'records'] as const;
export type BulkOutput = (typeof BULK_OUTPUTS)[number];
