import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readId } from '../shared/locator';
import { decodeJsonFields } from '../shared/output';
import { getResult, isTerminalUrlStatus, platformRequest, toBulkJob } from '../shared/platform';
import type { BulkJob, PlatformEnvelope } from '../shared/platform';
import { TRIGGER_RETRY_POLICY } from '../shared/retry';
import { InputValidator } from '../shared/validation';
import { MAX_LOOKBACK_HOURS } from './properties';

/** Records per list request: the interface's recommended maximum. */
export const LIST_PAGE_SIZE = 100;

/**
 * After the cursor moves, the next poll re-reads this much time before it once, for records whose `updatedAt`
 * was stamped before the previous read but became visible after it (late commits, clocks of several servers).
 */
export const OVERLAP_MS = 60_000;

/** A poll reads at most this many pages; the rest is read by the next poll (a large backfill). */
export const MAX_PAGES_PER_POLL = 50;

/** Handled job ids kept at most (they are also dropped once older than the overlap window). */
export const MAX_SEEN_IDS = 5_000;

/** The editor's sample looks at this many of the most recent bulk jobs. */
const SAMPLE_PAGE_SIZE = 50;
const SAMPLE_MAX_PAGES = 4;

/** The type of a bulk result record, also the text the list query searches for. */
const BULK_TYPE = 'Bulk-AI';

/** What the trigger keeps in the workflow's static data (persisted by n8n as JSON). */
export interface TriggerState {
	version: 1;
	/** Newest `updatedAt` read (ms, the service's clock); absent while the account has no bulk job. */
	cursor?: number;
	/** Jobs with `updatedAt` at or before this never trigger: the first activation, or the backfill start. */
	floor?: number;
	/** The cursor moved in the last poll: the next one re-reads OVERLAP_MS before it. */
	overlapPending?: boolean;
	/** Completed jobs already handled (emitted or filtered out): id -> updatedAt (ms). */
	seen: Record<string, number>;
}

export interface TriggerParameters {
	scraperId?: string;
	output: 'job' | 'records';
	includeFailed: boolean;
	includeCanceled: boolean;
	lookbackHours?: number;
}

/** Reads and checks every parameter before any request. */
export function readParameters(ctx: IPollFunctions): TriggerParameters {
	const v = new InputValidator(ctx.getNode(), 0);
	const scraperIdText = v.optionalString(readId(ctx, 'scraperId', 0, ''), 'Scraper ID');
	const scraperId = scraperIdText === undefined ? undefined : v.uuid(scraperIdText, 'Scraper ID');
	const output = v.oneOf(ctx.getNodeParameter('output', 'job'), 'Output', ['job', 'records'] as const);
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const includeFailed = options.includeFailed === undefined ? false : v.boolean(options.includeFailed, 'Include Failed Jobs');
	const includeCanceled =
		options.includeCanceled === undefined ? false : v.boolean(options.includeCanceled, 'Include Canceled Jobs');
	const lookbackHours = v.optionalInteger(options.lookbackHours, 'Include Jobs Completed in the Last (Hours)', {
		min: 1,
		max: MAX_LOOKBACK_HOURS,
	});
	return { scraperId, output, includeFailed, includeCanceled, lookbackHours };
}

function toMs(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const ms = typeof value === 'number' ? value : Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

function isBulkRecord(record: IDataObject): boolean {
	return String(record.type ?? '').toLowerCase() === BULK_TYPE.toLowerCase();
}

/** The listing sends `data` JSON-encoded; when it (or its `urlDetails`) is missing, the job must be read by id. */
function hasUrlDetails(record: IDataObject): boolean {
	const data = decodeJsonFields(record).data;
	return data !== null && typeof data === 'object' && Array.isArray((data as IDataObject).urlDetails);
}

function isCanceledJob(job: BulkJob): boolean {
	const canceled = (status: unknown) => ['canceled', 'cancelled'].includes(String(status ?? '').toLowerCase());
	return canceled(job.status) || job.urlDetails.some((u) => canceled(u.status));
}

/** Every URL failed: the job has nothing to process. */
function isFailedOnlyJob(job: BulkJob): boolean {
	return job.urlDetails.length > 0 && job.urlDetails.every((u) => ['failed', 'error'].includes(String(u.status ?? '').toLowerCase()));
}

function passesStatusFilters(job: BulkJob, params: TriggerParameters): boolean {
	if (isCanceledJob(job)) return params.includeCanceled;
	if (isFailedOnlyJob(job)) return params.includeFailed;
	return true;
}

function jobItems(job: BulkJob, params: TriggerParameters): INodeExecutionData[] {
	if (params.output === 'records') {
		return job.mergedData.map((record) => {
			const json: IDataObject = { bulkId: job.id, ...record };
			// The job id must be right even if a record carries a field of the same name.
			json.bulkId = job.id;
			return { json };
		});
	}
	return [{ json: job as unknown as IDataObject }];
}

/** The state in static data, or undefined before the first activation (or after an incompatible change). */
export function readState(staticData: IDataObject): TriggerState | undefined {
	if (staticData.version !== 1) return undefined;
	const seen: Record<string, number> = {};
	const stored = staticData.seen;
	if (stored && typeof stored === 'object') {
		for (const [id, at] of Object.entries(stored as IDataObject)) if (typeof at === 'number') seen[id] = at;
	}
	return {
		version: 1,
		cursor: toMs(staticData.cursor),
		floor: toMs(staticData.floor),
		overlapPending: staticData.overlapPending === true,
		seen,
	};
}

/** Writes the whole state at once, only after a fully successful poll. */
function commitState(staticData: IDataObject, state: TriggerState): void {
	staticData.version = 1;
	for (const key of ['cursor', 'floor'] as const) {
		if (state[key] === undefined) delete staticData[key];
		else staticData[key] = state[key];
	}
	staticData.overlapPending = state.overlapPending === true;
	staticData.seen = state.seen;
}

async function listBulkRecords(ctx: IPollFunctions, qs: IDataObject): Promise<PlatformEnvelope<IDataObject[]>> {
	return await platformRequest<IDataObject[]>(
		ctx,
		{ method: 'GET', path: '/api/v1/results', qs: { ...qs, search: BULK_TYPE }, idempotent: true },
		0,
		TRIGGER_RETRY_POLICY,
	);
}

/** The job as a BulkJob, read by id only when the listing lacks its URL details. */
async function completedJob(ctx: IPollFunctions, record: IDataObject): Promise<BulkJob | undefined> {
	if (hasUrlDetails(record)) {
		const job = toBulkJob(record);
		return job.completed ? job : undefined;
	}
	// Without details, only a record whose status says it ended is worth a request.
	if (!isTerminalUrlStatus(record.status)) return undefined;
	const job = toBulkJob(await getResult(ctx, String(record.id), 0, 'bulk job'));
	return job.completed ? job : undefined;
}

/**
 * First activation: the cursor is the newest bulk record's `updatedAt` (the service's clock, one request), so
 * nothing completed before it triggers. With a backfill, the floor is that many hours ago on this clock instead.
 */
async function initialState(ctx: IPollFunctions, params: TriggerParameters): Promise<TriggerState> {
	if (params.lookbackHours !== undefined) {
		const floor = Date.now() - params.lookbackHours * 3_600_000;
		return { version: 1, cursor: floor, floor, overlapPending: false, seen: {} };
	}
	const response = await listBulkRecords(ctx, { page: 1, pageSize: 1, sortField: 'updatedAt', sortOrder: 'DESC' });
	const newest = Array.isArray(response.data) ? response.data[0] : undefined;
	const cursor = newest ? toMs(newest.updatedAt) : undefined;
	return { version: 1, cursor, floor: cursor, overlapPending: false, seen: {} };
}

interface PollOutcome {
	/** Completed jobs that pass the filters, in completion order. */
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
export async function collectCompletedJobs(
	ctx: IPollFunctions,
	state: TriggerState,
	params: TriggerParameters,
): Promise<PollOutcome> {
	let startAt: number | undefined;
	if (state.cursor !== undefined) startAt = state.overlapPending ? state.cursor - OVERLAP_MS : state.cursor + 1;
	if (state.floor !== undefined) startAt = Math.max(startAt ?? -Infinity, state.floor + 1);

	// Each (id, updatedAt) once: ties at a page boundary are read twice. A job that completes while the poll pages
	// through comes back later with a new updatedAt, and that later sighting is the one that counts.
	const processed = new Set<string>();
	const candidates = new Map<string, { record: IDataObject; stamp: number }>();
	let newest = state.cursor;
	let pageStart = startAt;
	let page = 1;
	let requests = 0;
	let truncated = false;

	for (;;) {
		const qs: IDataObject = { page, pageSize: LIST_PAGE_SIZE, sortField: 'updatedAt', sortOrder: 'ASC' };
		if (pageStart !== undefined) {
			qs.dateRangeColumn = 'updatedAt';
			qs.startAt = new Date(pageStart).toISOString();
		}
		const response = await listBulkRecords(ctx, qs);
		requests++;
		const records = Array.isArray(response.data) ? response.data : [];
		let lastStamp: number | undefined;
		for (const record of records) {
			const stamp = toMs(record.updatedAt);
			if (stamp === undefined) continue;
			lastStamp = stamp;
			newest = Math.max(newest ?? stamp, stamp);
			const id = String(record.id ?? '');
			if (id === '' || processed.has(`${id}@${stamp}`)) continue;
			processed.add(`${id}@${stamp}`);
			if (!isBulkRecord(record)) continue;
			if (state.floor !== undefined && stamp <= state.floor) continue;
			if (state.seen[id] !== undefined) continue;
			if (params.scraperId !== undefined && record.scraperId !== params.scraperId) continue;
			candidates.delete(id);
			candidates.set(id, { record, stamp });
		}

		const total = response.meta?.total;
		const more = records.length >= LIST_PAGE_SIZE && (typeof total !== 'number' || total > (page - 1) * LIST_PAGE_SIZE + records.length);
		if (!more) break;
		if (requests >= MAX_PAGES_PER_POLL) {
			truncated = true;
			break;
		}
		if (lastStamp !== undefined && (pageStart === undefined || lastStamp > pageStart)) {
			pageStart = lastStamp;
			page = 1;
		} else {
			// A whole page shares one updatedAt: the keyset cannot move, so step through that instant by offset.
			page++;
		}
	}

	const seen = { ...state.seen };
	const jobs: BulkJob[] = [];
	for (const { record, stamp } of candidates.values()) {
		const job = await completedJob(ctx, record);
		if (!job) continue;
		seen[String(record.id)] = stamp;
		if (passesStatusFilters(job, params)) jobs.push(job);
	}

	// A truncated poll has read everything before pageStart; the rest (from pageStart on) comes next time.
	const cursor = truncated ? Math.max(state.cursor ?? -Infinity, pageStart ?? -Infinity) : newest;
	const moved = cursor !== undefined && cursor !== state.cursor;
	const next: TriggerState = {
		version: 1,
		cursor: cursor === -Infinity ? undefined : cursor,
		floor: state.floor,
		overlapPending: truncated || moved,
		seen: pruneSeen(seen, cursor),
	};
	// Once the window has passed the floor, the floor says nothing the cursor does not.
	if (next.floor !== undefined && next.cursor !== undefined && next.cursor - OVERLAP_MS > next.floor) delete next.floor;
	return { jobs, state: next };
}

/** Keeps only ids a later poll can still read again (inside the overlap window), newest first, capped. */
function pruneSeen(seen: Record<string, number>, cursor: number | undefined): Record<string, number> {
	const keepFrom = cursor === undefined ? -Infinity : cursor - OVERLAP_MS;
	const kept = Object.entries(seen)
		.filter(([, at]) => at >= keepFrom)
		.sort((a, b) => b[1] - a[1])
		.slice(0, MAX_SEEN_IDS);
	return Object.fromEntries(kept);
}

/** The editor's "Fetch Test Event": the most recent completed job that passes the filters, read-only. */
async function sampleItems(ctx: IPollFunctions, params: TriggerParameters): Promise<INodeExecutionData[]> {
	for (let page = 1; page <= SAMPLE_MAX_PAGES; page++) {
		const response = await listBulkRecords(ctx, {
			page,
			pageSize: SAMPLE_PAGE_SIZE,
			sortField: 'updatedAt',
			sortOrder: 'DESC',
		});
		const records = Array.isArray(response.data) ? response.data : [];
		for (const record of records) {
			if (!isBulkRecord(record)) continue;
			if (params.scraperId !== undefined && record.scraperId !== params.scraperId) continue;
			const job = await completedJob(ctx, record);
			if (!job || !passesStatusFilters(job, params)) continue;
			const items = jobItems(job, params);
			if (items.length > 0) return items;
		}
		const totalPage = response.meta?.totalPage;
		if (records.length < SAMPLE_PAGE_SIZE || (typeof totalPage === 'number' && page >= totalPage)) break;
	}
	const filters: string[] = [];
	if (params.scraperId !== undefined) filters.push(`of scraper ${params.scraperId}`);
	if (params.output === 'records') filters.push('with merged records');
	const skipped: string[] = [];
	if (!params.includeFailed) skipped.push('jobs in which every URL failed');
	if (!params.includeCanceled) skipped.push('canceled jobs');
	throw new NodeOperationError(
		ctx.getNode(),
		`No completed bulk job${filters.length ? ` ${filters.join(' ')}` : ''} found yet`,
		{
			description:
				`Start a bulk job (Scraper Platform node > Bulk > Start) and fetch again once every URL in it has finished. ` +
				`The sample is the most recent completed job among the ${SAMPLE_PAGE_SIZE * SAMPLE_MAX_PAGES} newest bulk jobs` +
				(skipped.length ? `; ${skipped.join(' and ')} are skipped unless enabled in Options` : '') +
				'. Check that the credential belongs to the account that runs the jobs.',
		},
	);
}

/** One poll: in the editor a sample, when active the jobs completed since the last successful poll. */
export async function pollBulkTrigger(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const params = readParameters(ctx);
	if (ctx.getMode() === 'manual') return [await sampleItems(ctx, params)];

	const staticData = ctx.getWorkflowStaticData('node');
	let state = readState(staticData);
	if (state === undefined) {
		state = await initialState(ctx, params);
		if (params.lookbackHours === undefined) {
			commitState(staticData, state);
			return null;
		}
	}
	// Nothing is written before every request of this poll has succeeded: a failed poll keeps the old cursor.
	const outcome = await collectCompletedJobs(ctx, state, params);
	commitState(staticData, outcome.state);
	const items = outcome.jobs.flatMap((job) => jobItems(job, params));
	return items.length > 0 ? [items] : null;
}
