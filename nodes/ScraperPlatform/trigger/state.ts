import type { IDataObject } from 'n8n-workflow';

/**
 * After the cursor moves, the next poll re-reads this much time before it once, for records whose `updatedAt`
 * was stamped before the previous read but became visible after it (late commits, clocks of several servers).
 */
export const OVERLAP_MS = 60_000;

/** Handled job ids kept at most (they are also dropped once older than the overlap window). */
export const MAX_SEEN_IDS = 5_000;

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

/** A timestamp (ISO text or ms) in ms; undefined when it is neither. */
export function toMs(value: unknown): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const ms = typeof value === 'number' ? value : Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

/** The later of two moments, either of which may be unknown. */
export function latest(a: number | undefined, b: number | undefined): number | undefined {
	if (a === undefined) return b;
	return b === undefined ? a : Math.max(a, b);
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
export function commitState(staticData: IDataObject, state: TriggerState): void {
	staticData.version = 1;
	for (const key of ['cursor', 'floor'] as const) {
		if (state[key] === undefined) delete staticData[key];
		else staticData[key] = state[key];
	}
	staticData.overlapPending = state.overlapPending === true;
	staticData.seen = state.seen;
}

/**
 * The state of a first activation: nothing updated at or before `floor` triggers. The floor is the newest bulk
 * record's `updatedAt` (the service's clock), or the start of a backfill; undefined while there is no job at all.
 */
export function startState(floor: number | undefined): TriggerState {
	return { version: 1, cursor: floor, floor, overlapPending: false, seen: {} };
}

/** Where a poll starts reading: past the cursor, or the overlap before it once it moved; always past the floor. */
export function readFrom(state: TriggerState): number | undefined {
	let startAt: number | undefined;
	if (state.cursor !== undefined) startAt = state.overlapPending ? state.cursor - OVERLAP_MS : state.cursor + 1;
	if (state.floor !== undefined) startAt = Math.max(startAt ?? -Infinity, state.floor + 1);
	return startAt;
}

/** Whether a job updated at `stamp` may still trigger: after the floor, and not handled by an earlier poll. */
export function isUnhandled(state: TriggerState, id: string, stamp: number): boolean {
	return !(state.floor !== undefined && stamp <= state.floor) && state.seen[id] === undefined;
}

/** What a poll read: how far (its new cursor), whether it stopped before the end, and every job handled so far. */
interface PollRead {
	cursor: number | undefined;
	truncated: boolean;
	seen: Record<string, number>;
}

/** The state after a poll: a moved or truncated cursor makes the next poll re-read the overlap. */
export function nextState(state: TriggerState, read: PollRead): TriggerState {
	const moved = read.cursor !== undefined && read.cursor !== state.cursor;
	const next: TriggerState = {
		version: 1,
		cursor: read.cursor,
		floor: state.floor,
		overlapPending: read.truncated || moved,
		seen: pruneSeen(read.seen, read.cursor),
	};
	// Once the window has passed the floor, the floor says nothing the cursor does not.
	if (next.floor !== undefined && next.cursor !== undefined && next.cursor - OVERLAP_MS > next.floor) delete next.floor;
	return next;
}

/** Keeps only ids a later poll can still read again (inside the overlap window), newest first, capped. */
export function pruneSeen(seen: Record<string, number>, cursor: number | undefined): Record<string, number> {
	const keepFrom = cursor === undefined ? -Infinity : cursor - OVERLAP_MS;
	const kept = Object.entries(seen)
		.filter(([, at]) => at >= keepFrom)
		.sort((a, b) => b[1] - a[1])
		.slice(0, MAX_SEEN_IDS);
	return Object.fromEntries(kept);
}
