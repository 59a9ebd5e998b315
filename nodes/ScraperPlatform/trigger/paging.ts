import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { walkPages } from '../../shared/paging/pages';
import type { PageReader } from '../../shared/paging/pages';
import { TRIGGER_RETRY_POLICY } from '../../shared/transport/retry';
import { completedBulkJob } from '../jobs/job';
import type { BulkJob } from '../jobs/job';
import { resultsPages } from '../transport/api';
import type { ResultsQuery } from '../transport/api';
import { RESULT_TYPES } from '../transport/vocabulary';
import type { SortOrder } from '../transport/vocabulary';
import { isUnhandled, latest, nextState, readFrom, toMs } from './state';
import type { TriggerState } from './state';
import type { NodeCall } from '../../shared/execution/call';

/** Records per list request: the interface's recommended maximum. */
export const LIST_PAGE_SIZE = 100;

/** A poll reads at most this many pages; the rest is read by the next poll (a large backfill). */
export const MAX_PAGES_PER_POLL = 50;

/** The bulk records of the results list by `updatedAt`: `search` narrows the list to their type. */
export function bulkJobsQuery(pageSize: number, sortOrder: SortOrder): ResultsQuery {
	return { pageSize, sortField: 'updatedAt', sortOrder, search: RESULT_TYPES.bulk };
}

/** A bulk record (the search matches any column, so other records can come too) of the chosen scraper, if any. */
export function isWantedRecord(record: IDataObject, scraperId: string | undefined): boolean {
	if (String(record.type ?? '').toLowerCase() !== RESULT_TYPES.bulk.toLowerCase()) return false;
	return scraperId === undefined || record.scraperId === scraperId;
}

/** The newest bulk record's `updatedAt` (one request), or undefined while the account has none. */
export async function newestUpdate(call: NodeCall<IPollFunctions>): Promise<number | undefined> {
	const { records } = await resultsPages(call, bulkJobsQuery(1, 'DESC'), 0, TRIGGER_RETRY_POLICY)(1);
	return records[0] ? toMs(records[0].updatedAt) : undefined;
}

/** A keyset position: the records updated at or after `startAt`, and the page of them (1 while the keyset moves). */
interface Keyset {
	startAt: number | undefined;
	page: number;
}

/**
 * Where the page after `records` starts: at the last `updatedAt` read, so records that change meanwhile move to the
 * end, never past the reader; by offset only while a whole page shares one instant.
 */
export function nextKeyset(at: Keyset, records: IDataObject[]): Keyset {
	const stamps = records.map((record) => toMs(record.updatedAt)).filter((stamp) => stamp !== undefined);
	const last = stamps[stamps.length - 1];
	if (last !== undefined && (at.startAt === undefined || last > at.startAt)) return { startAt: last, page: 1 };
	return { startAt: at.startAt, page: at.page + 1 };
}

/** The bulk records updated since a keyset, oldest first, read with the results list's one page reader. */
function keysetReader(call: NodeCall<IPollFunctions>): PageReader<IDataObject, Keyset> {
	return async (at) => {
		const query = bulkJobsQuery(LIST_PAGE_SIZE, 'ASC');
		if (at.startAt !== undefined) {
			query.dateRangeColumn = 'updatedAt';
			query.startAt = new Date(at.startAt).toISOString();
		}
		const { records, next } = await resultsPages(call, query, 0, TRIGGER_RETRY_POLICY)(at.page);
		return { records, next: next === undefined ? undefined : nextKeyset(at, records) };
	};
}

interface Candidate {
	record: IDataObject;
	stamp: number;
}

/** What a poll's pages showed: unhandled bulk records by id (last sighting last), and the newest `updatedAt`. */
interface Sightings {
	candidates: Map<string, Candidate>;
	/** `id@updatedAt` read already: ties at a page boundary are read twice. */
	read: Set<string>;
	newest: number | undefined;
}

function sight(sightings: Sightings, record: IDataObject, state: TriggerState, scraperId: string | undefined): void {
	const stamp = toMs(record.updatedAt);
	if (stamp === undefined) return;
	sightings.newest = latest(sightings.newest, stamp);
	const id = String(record.id ?? '');
	const key = `${id}@${stamp}`;
	if (id === '' || sightings.read.has(key)) return;
	sightings.read.add(key);
	if (!isWantedRecord(record, scraperId) || !isUnhandled(state, id, stamp)) return;
	// A job that completes while the poll pages through comes back later with a new updatedAt: that sighting counts.
	sightings.candidates.delete(id);
	sightings.candidates.set(id, { record, stamp });
}

interface Changes {
	candidates: Map<string, Candidate>;
	cursor: number | undefined;
	truncated: boolean;
}

/** Pages through every bulk record updated since the state's cursor, at most MAX_PAGES_PER_POLL pages. */
async function readChanges(call: NodeCall<IPollFunctions>, state: TriggerState, scraperId: string | undefined): Promise<Changes> {
	const sightings: Sightings = { candidates: new Map(), read: new Set(), newest: state.cursor };
	for await (const page of walkPages(keysetReader(call), { startAt: readFrom(state), page: 1 })) {
		for (const record of page.records) sight(sightings, record, state, scraperId);
		if (page.next !== undefined && page.count >= MAX_PAGES_PER_POLL) {
			// Everything before this page's start has been read; the rest (from it on) comes next time.
			return { candidates: sightings.candidates, cursor: latest(state.cursor, page.at.startAt), truncated: true };
		}
	}
	return { candidates: sightings.candidates, cursor: sightings.newest, truncated: false };
}

interface PollOutcome {
	/** Jobs that completed since the last poll, in completion order. */
	jobs: BulkJob[];
	/** The state to commit once the poll has fully succeeded. */
	state: TriggerState;
}

/**
 * Reads every bulk record whose `updatedAt` is past the cursor, oldest first, and returns the jobs that completed
 * since the last poll. A running job's `updatedAt` is its start and moves only when it completes, so once the
 * cursor is past it, it costs nothing until it completes. Pages are read by keyset (the next page starts at the
 * last `updatedAt` read), so a job that completes while the poll pages through moves to the end, never past it.
 */
export async function collectCompletedJobs(call: NodeCall<IPollFunctions>, state: TriggerState, scraperId?: string): Promise<PollOutcome> {
	const changes = await readChanges(call, state, scraperId);
	const seen = { ...state.seen };
	const jobs: BulkJob[] = [];
	for (const [id, { record, stamp }] of changes.candidates) {
		const job = await completedBulkJob(call, record, 0);
		if (!job) continue;
		seen[id] = stamp;
		jobs.push(job);
	}
	return { jobs, state: nextState(state, { cursor: changes.cursor, truncated: changes.truncated, seen }) };
}
