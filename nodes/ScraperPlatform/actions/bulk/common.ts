import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { splitIntoItems } from '../../../shared/output';
import type { ErrorSubject } from '../../../shared/errors';
import { getResult, platformRequest, toBulkJob } from '../../../shared/platform';
import type { BulkJob } from '../../../shared/platform';
import { readWaitSettings, waitForCompletion, waitParameters } from '../../../shared/polling';
import type { WaitSettings } from '../../../shared/polling';
import { InputValidator } from '../../../shared/validation';
import { uuidOf } from '../common';

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
	return uuidOf(ctx, 'bulkId', 'Bulk Job ID', itemIndex);
}

/**
 * Sends one of the two cancel requests. Both answer `{id, bulkUrls, canceledUrls}`; the lists are always arrays in
 * the output, so a sheet or an IF node can count what was stopped.
 */
export async function cancelBulkWork(
	ctx: IExecuteFunctions,
	path: string,
	subject: ErrorSubject,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await platformRequest(
		ctx,
		// Cancelling twice changes nothing more, so a failed attempt may be repeated.
		{ method: 'PATCH', path, idempotent: true, subject },
		itemIndex,
	);
	const data = (response.data ?? {}) as IDataObject;
	const list = (value: unknown) => (Array.isArray(value) ? value : []);
	return [{ json: { ...data, bulkUrls: list(data.bulkUrls), canceledUrls: list(data.canceledUrls) } }];
}
