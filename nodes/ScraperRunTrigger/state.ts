import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger remembers between polls, in the workflow's static data. Run ids grow with creation, so "new since
 * the last poll" is "run id above the newest one seen", and a run that has started but not finished is remembered
 * until it finishes.
 */
export interface RunTriggerState {
	version: 1;
	/** The newest run id seen: runs above it are new. */
	newestRunId: number;
	/** Runs seen unfinished (of the chosen scrapers), to emit once they finish. */
	pending: number[];
}

/** Unfinished runs remembered at most; a scraper that starts more runs than this at once is beyond the design. */
export const MAX_PENDING = 1_000;

/** The saved state, or undefined before the first poll (or after a change of shape). */
export function readState(staticData: IDataObject): RunTriggerState | undefined {
	if (staticData.version !== 1 || typeof staticData.newestRunId !== 'number') return undefined;
	const pending = Array.isArray(staticData.pending) ? staticData.pending.filter((id): id is number => typeof id === 'number') : [];
	return { version: 1, newestRunId: staticData.newestRunId, pending };
}

/** Written whole, and only after every request of the poll succeeded: a failed poll changes nothing. */
export function commitState(staticData: IDataObject, state: RunTriggerState): void {
	staticData.version = 1;
	staticData.newestRunId = state.newestRunId;
	staticData.pending = state.pending;
}

/** A state with its pending runs in order, as it is saved. */
export function stateOf(newestRunId: number, pending: number[]): RunTriggerState {
	return { version: 1, newestRunId, pending: pending.sort((a, b) => a - b) };
}
