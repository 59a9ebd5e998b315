import type { IDataObject } from 'n8n-workflow';

import {
	MAX_SEEN_IDS,
	OVERLAP_MS,
	commitState,
	isUnhandled,
	latest,
	nextState,
	pruneSeen,
	readFrom,
	readState,
	startState,
	toMs,
} from '../../../nodes/ScraperPlatform/trigger/state';
import type { TriggerState } from '../../../nodes/ScraperPlatform/trigger/state';

const T = Date.parse('2026-03-01T12:00:00.000Z');

function state(overrides: Partial<TriggerState> = {}): TriggerState {
	return { version: 1, cursor: T, overlapPending: false, seen: {}, ...overrides };
}

describe('Bulk Trigger state: static data', () => {
	it('reads nothing before the first activation or from another version', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ version: 2, cursor: T })).toBeUndefined();
	});

	it('commits and reads back the same state, through JSON as n8n saves it', () => {
		const original = state({ floor: T - 5_000, overlapPending: true, seen: { a: T - 1, b: T } });
		const staticData: IDataObject = {};
		commitState(staticData, original);
		expect(readState(JSON.parse(JSON.stringify(staticData)) as IDataObject)).toEqual(original);
	});

	it('drops what it cannot read: a bad cursor, non-numeric seen entries', () => {
		const read = readState({ version: 1, cursor: 'not a date', floor: '2026-03-01T12:00:00.000Z', seen: { a: 5, b: 'x', c: null } });
		expect(read).toEqual({ version: 1, cursor: undefined, floor: T, overlapPending: false, seen: { a: 5 } });
	});

	it('an absent cursor or floor is removed from static data, not stored as undefined', () => {
		const staticData: IDataObject = { version: 1, cursor: T, floor: T };
		commitState(staticData, { version: 1, seen: {} });
		expect(staticData).toEqual({ version: 1, overlapPending: false, seen: {} });
	});
});

describe('Bulk Trigger state: where a poll reads from', () => {
	it('a first activation starts at the floor, with nothing handled', () => {
		expect(startState(T)).toEqual({ version: 1, cursor: T, floor: T, overlapPending: false, seen: {} });
		expect(startState(undefined)).toEqual({ version: 1, cursor: undefined, floor: undefined, overlapPending: false, seen: {} });
	});

	it('reads past the cursor, or the overlap before it once after it moved, never at or before the floor', () => {
		expect(readFrom(state())).toBe(T + 1);
		expect(readFrom(state({ overlapPending: true }))).toBe(T - OVERLAP_MS);
		expect(readFrom(state({ overlapPending: true, floor: T - 1_000 }))).toBe(T - 999);
		expect(readFrom(state({ cursor: undefined }))).toBeUndefined();
		expect(readFrom(state({ cursor: undefined, floor: T }))).toBe(T + 1);
	});

	it('a job triggers once: after the floor and not yet handled', () => {
		const s = state({ floor: T, seen: { done: T + 10 } });
		expect(isUnhandled(s, 'new', T + 1)).toBe(true);
		expect(isUnhandled(s, 'new', T)).toBe(false);
		expect(isUnhandled(s, 'done', T + 20)).toBe(false);
	});
});

describe('Bulk Trigger state: after a poll', () => {
	it('a cursor that moved asks for the overlap once; one that stayed does not', () => {
		const moved = nextState(state(), { cursor: T + 5_000, truncated: false, seen: {} });
		expect(moved).toMatchObject({ cursor: T + 5_000, overlapPending: true });
		expect(nextState(moved, { cursor: T + 5_000, truncated: false, seen: {} }).overlapPending).toBe(false);
	});

	it('a truncated poll always re-reads the overlap', () => {
		expect(nextState(state(), { cursor: T, truncated: true, seen: {} }).overlapPending).toBe(true);
	});

	it('keeps the floor until the overlap window has passed it', () => {
		const s = state({ floor: T });
		expect(nextState(s, { cursor: T + OVERLAP_MS, truncated: false, seen: {} }).floor).toBe(T);
		expect(nextState(s, { cursor: T + OVERLAP_MS + 1, truncated: false, seen: {} }).floor).toBeUndefined();
	});

	it('keeps only handled ids inside the overlap window, newest first, at most MAX_SEEN_IDS', () => {
		expect(pruneSeen({ old: T - OVERLAP_MS - 1, edge: T - OVERLAP_MS, recent: T }, T)).toEqual({ recent: T, edge: T - OVERLAP_MS });
		expect(Object.keys(pruneSeen({ a: 1, b: 2 }, undefined))).toEqual(['b', 'a']);
		const many = Object.fromEntries(Array.from({ length: MAX_SEEN_IDS + 10 }, (_, i) => [`job-${i}`, T - i]));
		const kept = pruneSeen(many, T);
		expect(Object.keys(kept)).toHaveLength(MAX_SEEN_IDS);
		expect(kept['job-0']).toBe(T);
		expect(kept[`job-${MAX_SEEN_IDS}`]).toBeUndefined();
	});
});

describe('Bulk Trigger state: moments', () => {
	it('reads ISO text and ms, and nothing else', () => {
		expect(toMs('2026-03-01T12:00:00.000Z')).toBe(T);
		expect(toMs(T)).toBe(T);
		expect(toMs('soon')).toBeUndefined();
		expect(toMs(null)).toBeUndefined();
		expect(toMs(Number.NaN)).toBeUndefined();
	});

	it('the later of two moments, either of which may be unknown', () => {
		expect(latest(1, 2)).toBe(2);
		expect(latest(undefined, 2)).toBe(2);
		expect(latest(1, undefined)).toBe(1);
		expect(latest(undefined, undefined)).toBeUndefined();
	});
});
