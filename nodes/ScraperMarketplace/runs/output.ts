import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { asRecords, findList, splitIntoItems } from '../../shared/output/records';
import { readRunsLater, RUN_WAIT } from './track';
import type { TrackedRun } from './track';
import { DEFAULT_SCRAPED_URL, isTerminalStatus, LIST_KEYS, recordOrigin, RUN_STATUS } from '../transport/vocabulary';
import type { RunListRecord } from '../transport/vocabulary';

/**
 * The two output shapes of finished (or waited-for) runs, shared by the create operations, Scraper > Run and the
 * Marketplace Trigger. `maxWaitMs` is the wait that ended before the run did: the items then say so and what to do.
 */

/** The extracted records of one result's `content`: a list as is, a list inside an object, else one record. */
export function contentRecords(content: unknown): IDataObject[] {
	// An empty text is no content yet, not a record.
	if (content === '') return [];
	return asRecords(findList(content, LIST_KEYS) ?? content);
}

/** A wait as the user set it, in seconds. */
const inSeconds = (ms: number) => ms / 1000;

function countDone(run: TrackedRun): number {
	return run.results.filter((r) => isTerminalStatus(r.status)).length;
}

/** A run as one item: status, counts and every result with its content. */
export function runItem(run: TrackedRun, completed: boolean, maxWaitMs?: number): IDataObject {
	const item: IDataObject = {
		scraper_id: run.scraper_id,
		scraper_name: run.scraper_name,
		scraping_run_id: run.id,
		status: run.status,
		completed,
		results_total: run.results.length,
		results_succeeded: run.results.filter((r) => r.status === RUN_STATUS.succeeded).length,
		results_failed: run.results.filter((r) => r.status === RUN_STATUS.failed).length,
		results: run.results,
	};
	if (run.created_at) item.created_at = run.created_at;
	if (!completed && maxWaitMs !== undefined) {
		item.waitTimedOut = true;
		item.waitMessage = `The run is still ${run.status} after ${inSeconds(maxWaitMs)} s: ${countDone(run)} of ${run.results.length} results done. ${readRunsLater([run.id])} Or raise '${RUN_WAIT.maxWait.field.label}'.`;
	}
	return item;
}

/** Why a result that has not succeeded has no records, and what to do. */
function notSucceededMessage(result: RunListRecord, maxWaitMs: number | undefined): string {
	if (isTerminalStatus(result.status)) {
		const what = result.scraped_url === DEFAULT_SCRAPED_URL ? 'query' : 'target';
		return `The service could not scrape this ${what} (status ${result.status}). Check the input (URL, location or keyword) and run the scraper again.`;
	}
	const waited = maxWaitMs === undefined ? '' : ` after ${inSeconds(maxWaitMs)} s`;
	return `Still ${result.status}${waited}. Read it later with Result > Get Many${maxWaitMs === undefined ? '' : `, or raise '${RUN_WAIT.maxWait.field.label}'`}.`;
}

/**
 * One item per extracted record, with the scraper, run and result ids first; a result without records gives its
 * status. Paired with input `itemIndex`.
 */
export function runRecordItems(run: TrackedRun, itemIndex: number, maxWaitMs?: number): INodeExecutionData[] {
	return run.results.flatMap((result) => {
		const records =
			result.status === RUN_STATUS.succeeded
				? contentRecords(result.content)
				: [{ status: result.status, message: notSucceededMessage(result, maxWaitMs) }];
		return splitIntoItems(records, itemIndex, recordOrigin(run.scraper_id, run.id, result));
	});
}
