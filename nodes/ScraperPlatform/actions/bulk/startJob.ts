import type { IDataObject, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { nodeApiError } from '../../../shared/execution/errors';
import { unconfirmedWorkError } from '../../../shared/execution/unknownOutcome';
import { getResult, platformRequest } from '../../transport/api';
import { ID_KINDS, RESULT_TYPES } from '../../transport/vocabulary';
import { readJobLater } from '../../jobs/job';
import { lookForResults } from '../result/getMany';
import { finishBulk } from './common';
import type { BulkFinish } from './common';
import type { ExecutionCall } from '../../../shared/execution/call';

/**
 * The one bulk start, shared by Bulk > Start and Bulk > Retry Failed URLs: the request (never repeated), the new
 * job's id read the way the vendor's clients read it, then the wait and the output the user chose.
 */

/** The two bulk reruns: same body and answer, one endpoint per scraper kind. */
const BULK_PATHS = {
	manual: '/api/v1/scrapers-manual-rerun/bulk',
	ai: '/api/v1/scrapers-ai-rerun/bulk',
} as const;

export type ScraperKind = keyof typeof BULK_PATHS;
export const SCRAPER_KINDS: readonly ScraperKind[] = ['manual', 'ai'];

/** A job to start, read and checked whole before anything is sent. */
export interface BulkStart {
	kind: ScraperKind;
	scraperId: string;
	urls: string[];
	finish: BulkFinish;
	/** The ended job whose failed URLs this one retries (Bulk > Retry Failed URLs). */
	retryOf?: string;
}

/** The URLs a message names: the first three, and how many more. */
function someUrls(urls: string[]): string {
	const shown = urls.slice(0, 3).join(', ');
	return urls.length > 3 ? `${shown} and ${urls.length - 3} more` : shown;
}

/** What a start of unknown outcome may have started, and where to look for it: the job, its scraper, its URLs. */
function startedWork(start: BulkStart): { what: string; check: string } {
	const urls = `${start.urls.length} URL${start.urls.length === 1 ? '' : 's'} (${someUrls(start.urls)})`;
	const what = start.retryOf ? `the retry of bulk job "${start.retryOf}" (a new job on scraper "${start.scraperId}" for its ${urls})` : `the bulk job on scraper "${start.scraperId}" for ${urls}`;
	return { what, check: `Look for a new bulk job of scraper "${start.scraperId}" with ${lookForResults({ scraperId: start.scraperId, search: RESULT_TYPES.bulk })}` };
}

/** Sends the start once (a 5xx or a reset is never repeated: it may have started the job), then finishes it. */
export async function startBulkJob(call: ExecutionCall, start: BulkStart, itemIndex: number): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	const path = BULK_PATHS[start.kind];
	const response = await platformRequest(
		call,
		{
			method: 'POST',
			path,
			body: { scraperId: start.scraperId, urls: start.urls },
			idempotent: false,
			subject: { kind: ID_KINDS.scraper, id: start.scraperId },
			started: startedWork(start),
		},
		itemIndex,
	);
	const data = (response.data ?? {}) as IDataObject;
	// The vendor's own clients read the new job's id from `bulkResultId`; the record's `id` is the fallback.
	const id = [data.bulkResultId, data.id].find((value) => typeof value === 'string' && value !== '');
	if (id === undefined) {
		throw nodeApiError(ctx.getNode(), response as unknown as JsonObject, {
			message: `Scraper Platform started the bulk job but its answer to POST ${path} carries no job ID`,
			description: `Look for the new job with Result > Get Many (type ${RESULT_TYPES.bulk}) before starting it again, so it does not run twice.`,
			itemIndex,
		});
	}
	// An answer that is only the id: read the job once so the output has its status and URLs like any other.
	const record = data.data === undefined && !start.finish.wait ? await readStartedJob(call, id as string, itemIndex) : data;
	return await finishBulk(call, { ...record, id }, itemIndex, start.finish);
}

/** The job just started, read once: if the read fails, the message names the job, which runs anyway. */
async function readStartedJob(call: ExecutionCall, id: string, itemIndex: number): Promise<IDataObject> {
	const { ctx } = call;
	try {
		return await getResult(call, id, itemIndex, ID_KINDS.bulkJob);
	} catch (error) {
		throw unconfirmedWorkError(ctx.getNode(), {
			work: `Bulk job "${id}"`,
			unconfirmed: { why: 'unreadable', cause: error as Error },
			readLater: readJobLater(id),
			carried: { bulkJobId: id },
			itemIndex,
		});
	}
}
