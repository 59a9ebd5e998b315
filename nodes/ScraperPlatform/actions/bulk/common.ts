import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { FROM_OPTIONS, optionsCollection, OPTIONS_VERSION } from '../../../shared/descriptions/collections';
import type { ErrorSubject } from '../../../shared/execution/errors';
import { readBudget, readWaitSettings, stoppableCall, waitForCompletion, waitParameters } from '../../../shared/execution/polling';
import type { WaitSettings } from '../../../shared/execution/polling';
import { readSimplify, simplifyProperties } from '../../../shared/descriptions/simplify';
import type { Shaping } from '../../../shared/descriptions/simplify';
import { unconfirmedWorkError } from '../../../shared/execution/unknownOutcome';
import { InputValidator } from '../../../shared/input/validation';
import { BULK_OUTPUTS, bulkOutputOptions } from '../../descriptions/bulkOutput';
import type { BulkOutput } from '../../descriptions/bulkOutput';
import { getResult, mergedRecordItems, platformRequest, toBulkJob, urlsDone } from '../../transport/api';
import type { BulkJob } from '../../transport/api';
import { BULK_JOB_FIELDS, ID_KINDS } from '../../transport/vocabulary';
import type { ExecutionCall } from '../../../shared/execution/call';

const wait = waitParameters('job', false, 'every URL of the job is finished, failed or canceled');

/** Wait for Completion; from version 3 its Max Wait and Poll Interval are in `bulkOptions`. */
export const waitProperties: INodeProperties[] = wait.main;

/** Max Wait and Poll Interval as Options entries, for an operation whose Options collection holds more. */
export const bulkWaitOptions: INodeProperties[] = wait.options;

/** The Options collection of Bulk > Start and Get from version 3, below everything else. */
export const bulkOptions: INodeProperties = optionsCollection(wait.options, { displayOptions: { show: FROM_OPTIONS } });

export const bulkOutputProperty: INodeProperties = {
	displayName: 'Output',
	name: 'bulkOutput',
	type: 'options',
	default: 'job',
	options: bulkOutputOptions(),
	description: 'How to shape the output',
};

/** Simplify of One Item per Job, from version 3 (an agent's Output option likewise). */
export const bulkJobSimplifyProperties: INodeProperties[] = simplifyProperties(BULK_JOB_FIELDS, { ...FROM_OPTIONS, bulkOutput: ['job'] });

/** What to do once the job is known: wait or not, and the output shape (`shape` undefined: the job whole). */
export interface BulkFinish {
	wait?: WaitSettings;
	output: BulkOutput;
	shape?: Shaping;
}

/** Reads and checks the wait and output settings: before the job is started, so a bad one starts nothing. */
export function readBulkFinish(ctx: IExecuteFunctions, itemIndex: number): BulkFinish {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const output = v.oneOf(ctx.getNodeParameter('bulkOutput', itemIndex, 'job'), 'Output', BULK_OUTPUTS);
	const simplifies = output === 'job' && ctx.getNode().typeVersion >= OPTIONS_VERSION;
	return {
		wait: readWaitSettings(ctx, itemIndex, false),
		output,
		shape: simplifies ? readSimplify(ctx, itemIndex, BULK_JOB_FIELDS) : undefined,
	};
}

/** The job with its summary's counts on top, as Simplify and an agent's Selected Fields pick from it. */
function flatJob(job: IDataObject): IDataObject {
	const summary = (job.summary ?? {}) as IDataObject;
	const counts = ['totalUrls', 'successfulUrls', 'failedUrls', 'scrapedCount', 'totalTokenUsage', 'estimatedFinishAt'];
	const flat: IDataObject = {};
	for (const key of counts) if (summary[key] !== undefined) flat[key] = summary[key];
	return { ...flat, ...job };
}

/** The simplified fields of a job the wait did not see end: its id, status, counts and the wait's note. */
function jobAtTimeOut(flat: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const field of BULK_JOB_FIELDS.simplified) if (flat[field] !== undefined) out[field] = flat[field];
	return out;
}

/** How to read a job later, for every message about a job the node started or waited for. */
export function readJobLater(id: string): string {
	return `Read it later with Bulk > Get ('Bulk Job ID' ${id}), or start a workflow when it finishes with the Scraper Bulk Trigger.`;
}

/**
 * Reads the job as `getResult` does, within the wait's budget and stopping when the wait gives up on it: a slow read
 * cannot hold the wait past Max Wait, nor send retries after the node returned.
 */
async function readJob(call: ExecutionCall, id: string, itemIndex: number, budgetMs: number, expired: AbortSignal): Promise<BulkJob> {
	return toBulkJob(await getResult(stoppableCall(call, expired), id, itemIndex, ID_KINDS.bulkJob, readBudget(budgetMs)));
}

/**
 * Polls the job until every URL has ended or the wait is over; the note says so when the wait ended first. Reads
 * that keep failing, or a stopped execution, end in an error naming the job, never in one that invites a restart.
 */
async function waitForJob(call: ExecutionCall, job: BulkJob, wait: WaitSettings, itemIndex: number): Promise<{ job: BulkJob; note: IDataObject }> {
	const outcome = await waitForCompletion<BulkJob>({
		read: async (budgetMs, expired) => await readJob(call, job.id, itemIndex, budgetMs, expired),
		isDone: (state) => state.completed,
		initial: job,
		maxWaitMs: wait.maxWaitMs,
		initialDelayMs: wait.pollIntervalMs,
		maxDelayMs: Math.max(wait.pollIntervalMs, 30_000),
		signal: call.cancelSignal,
	});
	if (outcome.unconfirmed) {
		const latest = outcome.state ?? job;
		throw unconfirmedWorkError(call.ctx.getNode(), {
			work: `Bulk job "${job.id}"`,
			unconfirmed: outcome.unconfirmed,
			readLater: readJobLater(job.id),
			carried: { bulkJobId: job.id, latestState: latest as unknown as IDataObject },
			itemIndex,
		});
	}
	if (outcome.done) return { job: outcome.state, note: {} };
	const last = outcome.state;
	return {
		job: last,
		note: {
			waitTimedOut: true,
			waitMessage: `The job is still running after ${wait.maxWaitMs / 1000} s: ${urlsDone(last)} of ${last.urlDetails.length} URLs done. ${readJobLater(last.id)} Or raise 'Max Wait (Seconds)'.`,
		},
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
	const { job, note } = finish.wait ? await waitForJob(call, started, finish.wait, itemIndex) : { job: started, note: {} };
	const whole = { ...job, ...note } as unknown as IDataObject;
	if (finish.output === 'records') {
		// A wait that ended first outputs the job as One Item per Job simplified would: records of a job still
		// running are partial, and without this item the job (and the id to read it later) would be lost.
		return note.waitTimedOut ? [{ json: jobAtTimeOut(flatJob(whole)) }] : mergedRecordItems(job, itemIndex);
	}
	return [{ json: finish.shape ? finish.shape(flatJob(whole)) : whole }];
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
