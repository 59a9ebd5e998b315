import fc from 'fast-check';

import { advance, needsMorePages, runsToRead } from '../../../nodes/ScraperMarketplace/trigger/advance';
import type { Observation, Step } from '../../../nodes/ScraperMarketplace/trigger/advance';
import { resultsOf } from '../../../nodes/ScraperMarketplace/trigger/io';
import type { RunListRecord } from '../../../nodes/ScraperMarketplace/transport/vocabulary';
import { stateOf } from '../../../nodes/ScraperMarketplace/trigger/state';
import { play, scenarios } from './exactlyOnceProperty';
import { page, params, pendingRun, record } from './pages';
import type { PollStep, ResultsModel } from './resultsModel';

/**
 * The Run Trigger's pure step (`advance.ts`) driven by generated listings alone, no I/O: the pages it asks for and
 * the runs it names are answered by the in-memory results list as the service would answer them, in pages of 2 to 5
 * results (runs straddle pages, an empty page after a full one is frequent), and the exactly-once property
 * (`exactlyOnceProperty.ts`) is checked over 1,500 scenarios (some 25,000 polls; the suite through the poll plays 100
 * at the service's size), with two more kinds of trouble: any run deleted between polls, and a remembered run whose
 * direct reads fail for a few polls running. Each step is also checked to be pure: the same again for the same state,
 * observation and time, and neither of them touched.
 */

/** A remembered run read directly: its results ([] once gone), or 'failed' when the read failed (as `collect.ts` does). */
function readRun(model: ResultsModel, id: number): RunListRecord[] | 'failed' {
	try {
		return resultsOf(model.answerRun(id));
	} catch {
		return 'failed';
	}
}

/** The state and the observation as JSON: what a step must leave untouched. */
const inputs = (state: unknown, seen: Observation) => JSON.stringify([state, seen.pages, [...seen.runs]]);

/**
 * A poll as `collect.ts` makes it, the model answering: pages while `needsMorePages`, the runs `runsToRead` names, the
 * step. One poll in eight also takes the step twice and compares (the check costs as much as the step).
 */
const pureStep = (model: ResultsModel): PollStep => {
	let polls = 0;
	return async (_io, state, { scrapers }) => {
		const now = model.now;
		const seen: Observation = { scrapers, pages: [], runs: new Map() };
		while (needsMorePages(state, seen, now)) seen.pages.push(model.answerPage(seen.pages[seen.pages.length - 1]?.next ?? 1));
		for (const id of runsToRead(state, seen)) seen.runs.set(id, readRun(model, id));
		const before = ++polls % 8 === 0 ? inputs(state, seen) : undefined;
		const step = advance(state, seen, now);
		if (before !== undefined) {
			expect(JSON.stringify(advance(state, seen, now))).toBe(JSON.stringify(step));
			expect(inputs(state, seen)).toBe(before);
		}
		if ('refused' in step) throw new Error(`The poll was refused (${step.refused})`);
		return step;
	};
};

const smallPages = scenarios({
	perPage: fc.integer({ min: 2, max: 5 }),
	history: fc.constantFrom(0, 10, 40, 120),
	going: 20,
	runSize: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 4 }) }, { weight: 1, arbitrary: fc.integer({ min: 5, max: 20 }) }),
	burst: 6,
	atRequest: 6,
	liePage: 5,
	failAt: 8,
	steps: 20,
	extras: true,
});

describe('Run Trigger, the pure step, generated: exactly once whatever the listing does', () => {
	it('no duplicates, no misses, exact results, bounded requests and state; each step pure', async () => {
		await fc.assert(
			fc.asyncProperty(smallPages, async (s) => await play(s, pureStep)),
			{ numRuns: 1_500 },
		);
	}, 120_000);
});

/** The step's state, or the refusal as an error. */
function stateAfter(step: Step) {
	if ('refused' in step) throw new Error(step.refused);
	return step;
}

describe('Run Trigger, the pure step', () => {
	it('a walk cut by a page that only repeats the one before takes no new run; the next observation takes them all, once', () => {
		const state = stateOf(10, []);
		const [a, b, c] = [record(13), record(12), record(11)];
		const seen = (pages: Observation['pages']): Observation => ({ ...params(), pages, runs: new Map() });
		const cut = stateAfter(advance(state, seen([page([a, b], 2), page([a, b], 3), page([c])]), 1_000));
		expect(cut).toEqual({ state: { ...state, emitted: [] }, emit: [] });
		const whole = stateAfter(advance(cut.state, seen([page([a, b], 2), page([c, record(10)])]), 2_000));
		expect(whole.emit.map((run) => run.id)).toEqual([11, 12, 13]);
		expect(whole.state).toMatchObject({ newestRunId: 13, pending: [], emitted: [11, 12, 13] });
		expect(stateAfter(advance(whole.state, seen([page([a, b], 2), page([c, record(10)])]), 3_000)).emit).toEqual([]);
	});
});

describe('Run Trigger, the pure step: an empty page after a full one', () => {
	const seen = (pages: Observation['pages'], runs: Observation['runs'] = new Map()): Observation => ({ ...params(), pages, runs });

	it('past the new runs it is never the end: they are taken, a remembered run across it is read directly, nothing is kept', () => {
		const [held, lostHalf] = [record(11), record(11)];
		const state = { ...stateOf(12, [pendingRun(11)]), endMet: { newest: 14, oldest: 11, results: 3 } };
		const walk = [page([record(14), record(13), held], 2), page([])];
		expect(runsToRead(state, seen(walk))).toEqual([11]);
		const step = stateAfter(advance(state, seen(walk, new Map([[11, [held, lostHalf]]])), 1_000));
		expect(step.emit.map((run) => [run.id, run.results.length])).toEqual([
			[11, 2],
			[13, 1],
			[14, 1],
		]);
		expect(step.state).toEqual({ version: 2, newestRunId: 14, pending: [], emitted: [11, 13, 14] });
	});

	it('met while every run read was new, only the next step that meets the same end takes it; one that emits keeps none', () => {
		const walk = [page([record(13), record(12)], 2), page([])];
		const first = stateAfter(advance(stateOf(10, []), seen(walk), 1_000));
		expect(first).toEqual({ state: { ...stateOf(10, []), endMet: { newest: 13, oldest: 12, results: 2 } }, emit: [] });
		// Another end (a result more was read: the listing shifted under the walk) is not the same: it starts over.
		const shifted = [page([record(13), record(12), record(12)], 2), page([])];
		expect(stateAfter(advance(first.state, seen(shifted), 2_000))).toMatchObject({ state: { newestRunId: 10, endMet: { results: 3 } }, emit: [] });
		const taken = stateAfter(advance(first.state, seen(walk), 2_000));
		expect(taken.emit.map((run) => run.id)).toEqual([12, 13]);
		expect(taken.state).toEqual({ version: 2, newestRunId: 13, pending: [], emitted: [12, 13] });
		// A remembered run emitted in the same step: that state is saved by n8n, so it keeps no end.
		const emitting = stateAfter(advance(stateOf(10, [pendingRun(9)]), seen(walk, new Map([[9, [record(9)]]])), 1_000));
		expect(emitting.emit.map((run) => run.id)).toEqual([9]);
		expect(emitting.state).toEqual({ version: 2, newestRunId: 10, pending: [], emitted: [9] });
	});
});
