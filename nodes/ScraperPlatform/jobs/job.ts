import type { IDataObject } from 'n8n-workflow';

import type { RetryPolicy } from '../../shared/transport/retry';
import type { NodeCall } from '../../shared/execution/call';
import { BULK_ID } from '../descriptions/ids';
import { decodeResult, getResult } from '../transport/api';
import { ID_KINDS, isTerminalStatus } from '../transport/vocabulary';

/**
 * A bulk job as the node knows it: a result record of type `Bulk-AI` read into the shape users work with, how far it
 * is, and how to read it (now, or later by its id). Bulk > Start, Get and Retry Failed URLs and the Platform Trigger read
 * jobs through here; `wait.ts` waits for one, `records.ts` shapes one as output items.
 */

export interface BulkUrlDetail {
	url: string;
	status: string;
	error?: string | null;
}

export interface BulkJob {
	id: string;
	scraperId: string;
	status: string;
	/** True when every URL is finished, failed or canceled. */
	completed: boolean;
	summary: IDataObject;
	urlDetails: BulkUrlDetail[];
	mergedData: IDataObject[];
	createdAt?: string;
	updatedAt?: string;
}

/** A bulk result record (type `Bulk-AI`) in the shape users work with: status, counts, URLs, merged records. */
export function toBulkJob(record: IDataObject): BulkJob {
	const decoded = decodeResult(record);
	const data = (decoded.data ?? {}) as IDataObject;
	const urlDetails = (Array.isArray(data.urlDetails) ? data.urlDetails : []) as unknown as BulkUrlDetail[];
	return {
		id: String(decoded.id ?? ''),
		scraperId: String(decoded.scraperId ?? ''),
		status: String(decoded.status ?? ''),
		completed: urlDetails.length > 0 && urlDetails.every((u) => isTerminalStatus(u.status)),
		summary: (data.summary ?? {}) as IDataObject,
		urlDetails,
		mergedData: (Array.isArray(data.mergedData) ? data.mergedData : []) as IDataObject[],
		createdAt: decoded.createdAt as string | undefined,
		updatedAt: decoded.updatedAt as string | undefined,
	};
}

/** How many of the job's URLs have ended (finished, failed or canceled). */
export function urlsDone(job: BulkJob): number {
	return job.urlDetails.filter((u) => isTerminalStatus(u.status)).length;
}

/** Reads one job by its id (GET /api/v1/results/{id}); `budget` bounds the read within a wait. */
export async function readBulkJob(
	call: NodeCall,
	id: string,
	itemIndex: number,
	budget: { timeoutMs?: number; policy?: RetryPolicy } = {},
): Promise<BulkJob> {
	return toBulkJob(await getResult(call, id, itemIndex, ID_KINDS.bulkJob, budget));
}

/** The listing sends `data` JSON-encoded; when it (or its `urlDetails`) is missing, the job must be read by id. */
function hasUrlDetails(record: IDataObject): boolean {
	const data = decodeResult(record).data;
	return data !== null && typeof data === 'object' && Array.isArray((data as IDataObject).urlDetails);
}

/** The listed bulk record as a completed job, or undefined while it runs; read by id only when the list lacks its details. */
export async function completedBulkJob(call: NodeCall, record: IDataObject, itemIndex: number): Promise<BulkJob | undefined> {
	if (hasUrlDetails(record)) {
		const job = toBulkJob(record);
		return job.completed ? job : undefined;
	}
	// Without details, only a record whose status says it ended is worth a request.
	if (!isTerminalStatus(record.status)) return undefined;
	const job = await readBulkJob(call, String(record.id), itemIndex);
	return job.completed ? job : undefined;
}

/** How to read a job later, for every message about a job the node started or waited for. */
export function readJobLater(id: string): string {
	return `Read it later with Bulk > Get ('${BULK_ID.label}' ${id}), or start a workflow when it finishes with the Scraper Platform Trigger (Bulk Job Completed).`;
}
