import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Shaping } from '../../shared/descriptions/simplify';
import { splitIntoItems } from '../../shared/output/records';
import type { BulkOutput } from '../descriptions/bulkOutput';
import { BULK_JOB_FIELDS } from '../transport/vocabulary';
import type { BulkJob } from './job';
import type { WaitedJob } from './wait';

/**
 * A bulk job as output items, in the two shapes Bulk > Start and Get and the Platform Trigger offer: one item per job, or
 * one per merged record (what the job extracted from all its URLs).
 */

/**
 * One item per merged record of a bulk job, the job id first (Bulk > Start and Get, and the Platform Trigger). The job id
 * wins over a record field of the same name: it is how a row finds its job again. Paired with input item `itemIndex`;
 * a trigger's items come from no input item and pass undefined.
 */
export function mergedRecordItems(job: BulkJob, itemIndex: number | undefined): INodeExecutionData[] {
	const items = splitIntoItems(job.mergedData, itemIndex ?? 0, { bulkId: job.id });
	for (const item of items) item.json.bulkId = job.id;
	return itemIndex === undefined ? items.map(({ json }) => ({ json })) : items;
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

/**
 * A job the node started or read (and perhaps waited for) as the user chose: the job whole with the wait's note, or
 * shaped (`shape`), or one item per merged record, paired with input item `itemIndex`.
 */
export function waitedJobItems({ job, note }: WaitedJob, output: BulkOutput, shape: Shaping | undefined, itemIndex: number): INodeExecutionData[] {
	const whole = { ...job, ...note } as unknown as IDataObject;
	if (output === 'records') {
		// A wait that ended first outputs the job as One Item per Job simplified would: records of a job still
		// running are partial, and without this item the job (and the id to read it later) would be lost.
		return note.waitTimedOut ? [{ json: jobAtTimeOut(flatJob(whole)) }] : mergedRecordItems(job, itemIndex);
	}
	return [{ json: shape ? shape(flatJob(whole)) : whole }];
}
