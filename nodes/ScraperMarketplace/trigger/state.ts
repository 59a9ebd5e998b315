import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers between polls, in the workflow's static data (n8n keeps it as JSON). Run ids grow with
 * creation, so "new since the last poll" is "run id above the newest one seen"; a run seen unfinished is remembered
 * until it finishes, is deleted, or is seen still unfinished past the age limit (`advance.ts`).
 */
export interface RunTriggerState {
	version: 2;
	/** The newest run id seen: runs above it are new. */
	newestRunId: number;
	/** Runs seen unfinished (of the chosen scrapers), to emit once they finish; in run id order. */
	pending: PendingRun[];
	/** The runs emitted last, oldest first (at most `EMITTED_KEPT`): a run among them never triggers again. */
	emitted: number[];
	/**
	 * The end the poll before met among new runs only (`advance.ts`). Kept only by a poll that emits nothing, which n8n
	 * does not save: it lives in memory until the next poll, and a restart forgets it.
	 */
	endMet?: EndMet;
}

/**
 * An empty page after a full one met by a walk that had read only new runs: the listing's end, or its last page lost.
 * Told apart from another walk's end by the newest run (runs created since change it), the oldest run read before the
 * empty page and the results read (the listing shifted during the walk: some were read twice).
 */
export interface EndMet {
	newest: number;
	oldest: number;
	results: number;
}

/** A remembered unfinished run. */
export interface PendingRun {
	id: number;
	/**
	 * When it started (ms): its `created_at` once read, else when the trigger first saw it. Undefined only for a run
	 * carried over from version 1 of the state, which kept no time: the next poll counts from then.
	 */
	since?: number;
	/** When a poll last saw all of it (ms); 0 never: runs checked longest ago are read directly first. */
	checked: number;
}

/** Unfinished runs remembered at most; a scraper that starts more runs than this at once is beyond the design. */
export const MAX_PENDING = 1_000;

/**
 * Emitted run ids kept. A run is emitted at most once by construction (new runs are above `newestRunId` once,
 * a pending run leaves `pending` when emitted); this ring is the second lock, e.g. against a run the service lists
 * unfinished again after it was emitted.
 */
export const EMITTED_KEPT = 1_000;

const isRunId = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A saved pending entry: version 2's object, or version 1's bare run id (no time kept then). */
function pendingOf(saved: unknown): PendingRun | undefined {
	if (isRunId(saved)) return { id: saved, checked: 0 };
	if (typeof saved !== 'object' || saved === null) return undefined;
	const { id, since, checked } = saved as IDataObject;
	if (!isRunId(id)) return undefined;
	return { id, since: isTime(since) ? since : undefined, checked: isTime(checked) ? checked : 0 };
}

/** The end met, when the static data holds one whole. */
function endMetOf(saved: unknown): EndMet | undefined {
	if (typeof saved !== 'object' || saved === null) return undefined;
	const { newest, oldest, results } = saved as IDataObject;
	return isRunId(newest) && isRunId(oldest) && isRunId(results) ? { newest, oldest, results } : undefined;
}

/**
 * The saved state, or undefined before the first poll. Version 1 (`{newestRunId, pending: number[]}`) is read as
 * version 2, keeping its pending runs; the next successful poll saves it as version 2. A `doubtfulEnd` kept by an
 * earlier release of version 2 (where a poll met an empty page after a full one, also one n8n saved) is ignored, and
 * the next commit drops it: a restart could bring it back from an older poll than the one before (`advance.ts`).
 */
export function readState(staticData: IDataObject): RunTriggerState | undefined {
	if ((staticData.version !== 1 && staticData.version !== 2) || typeof staticData.newestRunId !== 'number') return undefined;
	const byId = new Map<number, PendingRun>();
	for (const saved of Array.isArray(staticData.pending) ? staticData.pending : []) {
		const run = pendingOf(saved);
		if (run && !byId.has(run.id)) byId.set(run.id, run);
	}
	const emitted = Array.isArray(staticData.emitted) ? staticData.emitted.filter(isRunId) : [];
	return stateOf(staticData.newestRunId, [...byId.values()], emitted, endMetOf(staticData.endMet));
}

/** Written whole, and only after every request of the poll succeeded: a failed poll changes nothing. */
export function commitState(staticData: IDataObject, state: RunTriggerState): void {
	staticData.version = 2;
	staticData.newestRunId = state.newestRunId;
	// Without undefined fields: n8n stores the static data as JSON.
	staticData.pending = state.pending.map(({ id, since, checked }) => (since === undefined ? { id, checked } : { id, since, checked }));
	staticData.emitted = state.emitted;
	if (state.endMet === undefined) delete staticData.endMet;
	else staticData.endMet = { ...state.endMet };
	// Kept by an earlier release, and no longer read.
	delete staticData.doubtfulEnd;
}

/** A state as it is saved: pending runs in id order, the newest `EMITTED_KEPT` emitted ids, the end met if any. */
export function stateOf(newestRunId: number, pending: PendingRun[], emitted: number[] = [], endMet?: EndMet): RunTriggerState {
	const state: RunTriggerState = { version: 2, newestRunId, pending: [...pending].sort((a, b) => a.id - b.id), emitted: emitted.slice(-EMITTED_KEPT) };
	return endMet === undefined ? state : { ...state, endMet };
}

/** Whether two walks met the same end (see `EndMet`). */
export function sameEnd(a: EndMet | undefined, b: EndMet | undefined): boolean {
	return a !== undefined && b !== undefined && a.newest === b.newest && a.oldest === b.oldest && a.results === b.results;
}
