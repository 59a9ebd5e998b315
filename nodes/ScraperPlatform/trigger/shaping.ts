import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { walkPages } from '../../shared/paging/pages';
import { TRIGGER_RETRY_POLICY } from '../../shared/transport/retry';
import { completedBulkJob } from '../jobs/job';
import type { BulkJob } from '../jobs/job';
import { mergedRecordItems } from '../jobs/output';
import { resultsPages } from '../transport/api';
import { isCanceledStatus, isFailedStatus } from '../transport/vocabulary';
import { bulkJobsQuery, isWantedRecord } from './paging';
import type { TriggerParameters } from './properties';
import type { NodeCall } from '../../shared/execution/call';

/** The editor's sample looks at this many of the most recent bulk jobs. */
export const SAMPLE_PAGE_SIZE = 50;
export const SAMPLE_MAX_PAGES = 4;

/** The job or any of its URLs was canceled. */
export function isCanceledJob(job: BulkJob): boolean {
	return isCanceledStatus(job.status) || job.urlDetails.some((u) => isCanceledStatus(u.status));
}

/** Every URL failed: the job has nothing to process. */
export function isFailedOnlyJob(job: BulkJob): boolean {
	return job.urlDetails.length > 0 && job.urlDetails.every((u) => isFailedStatus(u.status));
}

/** Include Canceled Jobs and Include Failed Jobs; a job with at least one finished URL always passes. */
export function passesStatusFilters(job: BulkJob, params: Pick<TriggerParameters, 'includeFailed' | 'includeCanceled'>): boolean {
	if (isCanceledJob(job)) return params.includeCanceled;
	if (isFailedOnlyJob(job)) return params.includeFailed;
	return true;
}

/** A completed job as the trigger emits it: one item, or one per merged record (none when it has none). */
export function jobItems(job: BulkJob, params: Pick<TriggerParameters, 'output'>): INodeExecutionData[] {
	if (params.output === 'records') return mergedRecordItems(job, undefined);
	return [{ json: job as unknown as IDataObject }];
}

/** The error of a sample that found nothing: what was looked for, and how to get a job that matches. */
export function noSampleError(node: INode, params: TriggerParameters): NodeOperationError {
	const filters: string[] = [];
	if (params.scraperId !== undefined) filters.push(`of scraper ${params.scraperId}`);
	if (params.output === 'records') filters.push('with merged records');
	const skipped: string[] = [];
	if (!params.includeFailed) skipped.push('jobs in which every URL failed');
	if (!params.includeCanceled) skipped.push('canceled jobs');
	return new NodeOperationError(node, `No completed bulk job${filters.length ? ` ${filters.join(' ')}` : ''} found yet`, {
		description:
			`Start a bulk job (Scraper Platform node > Bulk > Start) and fetch again once every URL in it has finished. ` +
			`The sample is the most recent completed job among the ${SAMPLE_PAGE_SIZE * SAMPLE_MAX_PAGES} newest bulk jobs` +
			(skipped.length ? `; ${skipped.join(' and ')} are skipped unless enabled in Options` : '') +
			'. Check that the credential belongs to the account that runs the jobs.',
	});
}

/** The editor's "Fetch Test Event": the most recent completed job that passes the filters, read-only. */
export async function sampleItems(call: NodeCall<IPollFunctions>, params: TriggerParameters): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	const read = resultsPages(call, bulkJobsQuery(SAMPLE_PAGE_SIZE, 'DESC'), 0, TRIGGER_RETRY_POLICY);
	for await (const page of walkPages(read, 1)) {
		for (const record of page.records) {
			if (!isWantedRecord(record, params.scraperId)) continue;
			const job = await completedBulkJob(call, record, 0);
			if (!job || !passesStatusFilters(job, params)) continue;
			const items = jobItems(job, params);
			if (items.length > 0) return items;
		}
		if (page.count >= SAMPLE_MAX_PAGES) break;
	}
	throw noSampleError(ctx.getNode(), params);
}
