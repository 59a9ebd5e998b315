import type { IDataObject } from 'n8n-workflow';

import type { ExecutionCall } from '../../shared/execution/call';
import { readBudget, stoppableCall, waitForCompletion } from '../../shared/execution/polling';
import { unconfirmedWorkError } from '../../shared/execution/unknownOutcome';
import { WaitFields } from '../../shared/execution/waitFields';
import type { WaitSettings } from '../../shared/execution/waitFields';
import { PLATFORM_VERSIONS } from '../versions';
import { readBulkJob, readJobLater, urlsDone } from './job';
import type { BulkJob } from './job';

/**
 * The wait for a bulk job: its parameters (Wait for Completion; from version 3 its Max Wait and Poll Interval are
 * Options entries) and the wait itself, for Bulk > Start, Get and Retry Failed URLs.
 */
export const bulkWait = new WaitFields('job', false, 'every URL of the job is finished, failed or canceled', PLATFORM_VERSIONS.options);

/** A waited job, with the note that says the wait ended before the job did (empty when it did not). */
export interface WaitedJob {
	job: BulkJob;
	note: IDataObject;
}

/**
 * Reads the job within the wait's budget, stopping when the wait gives up on it: a slow read cannot hold the wait
 * past Max Wait, nor send retries after the node returned.
 */
async function readJob(call: ExecutionCall, id: string, itemIndex: number, budgetMs: number, expired: AbortSignal): Promise<BulkJob> {
	return await readBulkJob(stoppableCall(call, expired), id, itemIndex, readBudget(budgetMs));
}

/**
 * Polls the job until every URL has ended or the wait is over; the note says so when the wait ended first. Reads
 * that keep failing, or a stopped execution, end in an error naming the job, never in one that invites a restart.
 */
export async function waitForJob(call: ExecutionCall, job: BulkJob, wait: WaitSettings, itemIndex: number): Promise<WaitedJob> {
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
			waitMessage: `The job is still running after ${wait.maxWaitMs / 1000} s: ${urlsDone(last)} of ${last.urlDetails.length} URLs done. ${readJobLater(last.id)} Or raise '${bulkWait.maxWait.field.label}'.`,
		},
	};
}
