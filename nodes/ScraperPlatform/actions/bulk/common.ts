import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/collections';
import type { ErrorSubject } from '../../../shared/execution/errors';
import type { WaitSettings } from '../../../shared/execution/waitFields';
import { field, rules } from '../../../shared/input/fields';
import { collection, readFields } from '../../../shared/input/fieldSets';
import { readSimplify, simplifyProperties } from '../../../shared/descriptions/simplify';
import type { Shaping } from '../../../shared/descriptions/simplify';
import { BULK_OUTPUTS, bulkOutputOptions } from '../../descriptions/bulkOutput';
import type { BulkOutput } from '../../descriptions/bulkOutput';
import { toBulkJob } from '../../jobs/job';
import { waitedJobItems } from '../../jobs/output';
import { bulkWait, waitForJob } from '../../jobs/wait';
import { platformRequest } from '../../transport/api';
import { BULK_JOB_FIELDS } from '../../transport/vocabulary';
import type { ExecutionCall } from '../../../shared/execution/call';
import { FROM_OPTIONS, PLATFORM_VERSIONS } from '../../versions';

/** The Options collection of Bulk > Start and Get from version 3 (Max Wait, Poll Interval), below everything else. */
export const bulkOptions = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), bulkWait.options);

export const BULK_OUTPUT = field(
	{
		displayName: 'Output',
		name: 'bulkOutput',
		type: 'options',
		default: 'job',
		options: bulkOutputOptions(),
		description: 'How to shape the output',
	},
	rules.oneOf(BULK_OUTPUTS),
);

/** Simplify of One Item per Job, from version 3 (an agent's Output option likewise). */
export const bulkJobSimplifyProperties: INodeProperties[] = simplifyProperties(BULK_JOB_FIELDS, { ...FROM_OPTIONS, [BULK_OUTPUT.name]: ['job'] });

/** What every operation that ends with a job shows after its own parameters: the wait, then the output's shape. */
export const bulkFinishProperties: INodeProperties[] = [...bulkWait.main, BULK_OUTPUT.property, ...bulkJobSimplifyProperties];

/** What to do once the job is known: wait or not, and the output shape (`shape` undefined: the job whole). */
export interface BulkFinish {
	wait?: WaitSettings;
	output: BulkOutput;
	shape?: Shaping;
}

/** Reads and checks the wait and output settings: before the job is started, so a bad one starts nothing. */
export function readBulkFinish(ctx: IExecuteFunctions, itemIndex: number): BulkFinish {
	const output = readFields(ctx, itemIndex, [BULK_OUTPUT]).get(BULK_OUTPUT);
	const simplifies = output === 'job' && ctx.getNode().typeVersion >= PLATFORM_VERSIONS.options;
	return {
		wait: bulkWait.read(ctx, itemIndex),
		output,
		shape: simplifies ? readSimplify(ctx, itemIndex, BULK_JOB_FIELDS) : undefined,
	};
}

/** Waits for the job when asked, then shapes it as the user chose. */
export async function finishBulk(
	call: ExecutionCall,
	record: IDataObject,
	itemIndex: number,
	finish: BulkFinish,
): Promise<INodeExecutionData[]> {
	const started = toBulkJob(record);
	const waited = finish.wait ? await waitForJob(call, started, finish.wait, itemIndex) : { job: started, note: {} };
	return waitedJobItems(waited, finish.output, finish.shape, itemIndex);
}

/**
 * Sends one of the two cancel requests. Both answer `{id, bulkUrls, canceledUrls}`; the lists are always arrays in
 * the output, so a sheet or an IF node can count what was stopped.
 */
export async function cancelBulkWork(
	call: ExecutionCall,
	path: string,
	subject: ErrorSubject,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await platformRequest(
		call,
		// Cancelling twice changes nothing more, so a failed attempt may be repeated.
		{ method: 'PATCH', path, idempotent: true, subject },
		itemIndex,
	);
	const data = (response.data ?? {}) as IDataObject;
	const list = (value: unknown) => (Array.isArray(value) ? value : []);
	return [{ json: { ...data, bulkUrls: list(data.bulkUrls), canceledUrls: list(data.canceledUrls) } }];
}
