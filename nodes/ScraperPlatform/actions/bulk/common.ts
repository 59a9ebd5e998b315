import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { splitIntoItems } from '../../../shared/output';
import { getResult, toBulkJob } from '../../../shared/platform';
import type { BulkJob } from '../../../shared/platform';
import { readWaitSettings, waitForCompletion, waitParameters } from '../../../shared/polling';
import type { WaitSettings } from '../../../shared/polling';
import { InputValidator } from '../../../shared/validation';

export const bulkIdProperty: INodeProperties = {
	displayName: 'Bulk Job ID',
	name: 'bulkId',
	type: 'string',
	required: true,
	default: '',
	placeholder: '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b',
	description: 'The ID of the bulk job: the ID field in the output of Bulk > Start',
};

export const waitProperties: INodeProperties[] = waitParameters(
	'job',
	false,
	'every URL of the job is finished, failed or canceled',
);

export const bulkOutputProperty: INodeProperties = {
	displayName: 'Output',
	name: 'bulkOutput',
	type: 'options',
	default: 'job',
	options: [
		{
			name: 'One Item per Job',
			value: 'job',
			description: 'Status, summary counts, per-URL details and all merged records in one item',
		},
		{
			name: 'One Item per Merged Record',
			value: 'records',
			description: 'Each merged record as its own item with the job ID on it, ready for a spreadsheet',
		},
	],
	description: 'How to shape the output',
};

/** What to do once the job is known: wait or not, and the output shape. */
export interface BulkFinish {
	wait?: WaitSettings;
	output: 'job' | 'records';
}

/** Reads and checks the wait and output settings: before the job is started, so a bad one starts nothing. */
export function readBulkFinish(ctx: IExecuteFunctions, itemIndex: number): BulkFinish {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	return {
		wait: readWaitSettings(ctx, itemIndex, false),
		output: v.oneOf(ctx.getNodeParameter('bulkOutput', itemIndex, 'job'), 'Output', ['job', 'records'] as const),
	};
}

/** Waits for the job when asked, then shapes it as the user chose. */
export async function finishBulk(
	ctx: IExecuteFunctions,
	record: IDataObject,
	itemIndex: number,
	finish: BulkFinish,
): Promise<INodeExecutionData[]> {
	let job = toBulkJob(record);
	let waitNote: IDataObject = {};
	const { wait } = finish;
	if (wait) {
		const outcome = await waitForCompletion<BulkJob>({
			read: async () => (job.completed ? job : toBulkJob(await getResult(ctx, job.id, itemIndex, 'bulk job'))),
			isDone: (state) => state.completed,
			maxWaitMs: wait.maxWaitMs,
			initialDelayMs: wait.pollIntervalMs,
			maxDelayMs: Math.max(wait.pollIntervalMs, 30_000),
			signal: ctx.getExecutionCancelSignal(),
		});
		job = outcome.state;
		if (!outcome.done) {
			const done = job.urlDetails.filter((u) => ['finished', 'failed', 'canceled', 'cancelled'].includes(u.status.toLowerCase())).length;
			waitNote = {
				waitTimedOut: true,
				waitMessage: `The job is still running after ${wait.maxWaitMs / 1000} s: ${done} of ${job.urlDetails.length} URLs done. Use Bulk > Get with this Bulk Job ID to check it later, or raise Max Wait.`,
			};
		}
	}
	if (finish.output === 'records') {
		return splitIntoItems(job.mergedData, itemIndex, { bulkId: job.id });
	}
	return [{ json: { ...job, ...waitNote } as unknown as IDataObject }];
}

export function bulkIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return new InputValidator(ctx.getNode(), itemIndex).uuid(ctx.getNodeParameter('bulkId', itemIndex), 'Bulk Job ID');
}
