import fc from 'fast-check';

import type { TrackedRun } from '../../../nodes/ScraperMarketplace/runs/track';
import { isTerminalStatus } from '../../../nodes/ScraperMarketplace/transport/vocabulary';
import { DIRECT_READS_PER_POLL, MAX_UNFINISHED_AGE_MS } from '../../../nodes/ScraperMarketplace/trigger/advance';
import type { RunTriggerParameters } from '../../../nodes/ScraperMarketplace/trigger/properties';
import { EMITTED_KEPT, MAX_PENDING } from '../../../nodes/ScraperMarketplace/trigger/state';
import { HOUR, MINUTE, ModelTrigger, ResultsModel } from './resultsModel';
import type { ModelRun, PollStep, RunSpec } from './resultsModel';

/**
 * The exactly-once property of the Run Trigger, over generated scenarios of the in-memory results list
 * (`resultsModel.ts`): a history of results, runs going at activation, then polls with runs created and finishing
 * between them, runs created while a poll pages (the listing shifts under it), stuck runs and runs that outlive the
 * age limit, deleted runs, pages answered wrong (empty, or repeating the page before), direct reads and polls that
 * fail midway, n8n restarts (back to the last saved state, a JSON round-trip) and an upgrade from state version 1.
 * Whatever happens: no run emitted twice, none missed, each with exactly its results, bounded requests per poll,
 * bounded state. Played through the poll (`exactlyOnce.test.ts`) and through the pure step (`advance.test.ts`).
 */

/** How big a scenario gets: the poll's suite takes the service's pages of 100, the pure step's small pages. */
export interface Sizes {
	perPage: fc.Arbitrary<number>;
	history: fc.Arbitrary<number>;
	going: number;
	/** A run's results: mostly a few, sometimes more than a page holds. */
	runSize: fc.Arbitrary<number>;
	burst: number;
	/** The request of a poll before which runs may be created, and the page a poll may be answered wrong. */
	atRequest: number;
	liePage: number;
	failAt: number;
	steps: number;
	/** Also deletes any run between polls, and makes a remembered run's direct reads fail for a few polls running. */
	extras: boolean;
}

const duration = fc.oneof(
	{ weight: 6, arbitrary: fc.integer({ min: 0, max: 20 }).map((m) => m * MINUTE) },
	{ weight: 2, arbitrary: fc.integer({ min: 1, max: 20 }).map((h) => h * HOUR) },
	{ weight: 1, arbitrary: fc.integer({ min: 25, max: 40 }).map((h) => h * HOUR) },
	{ weight: 1, arbitrary: fc.constant(Infinity) },
);

const optional = <T>(on: boolean, arbitrary: fc.Arbitrary<T>, freq: number) => (on ? fc.option(arbitrary, { freq }) : fc.constant(null));

/** The scenarios of one suite. */
export function scenarios(sizes: Sizes) {
	const run: fc.Arbitrary<RunSpec> = fc.record({
		scraperId: fc.integer({ min: 1, max: 3 }),
		size: sizes.runSize,
		durationMs: duration,
		fails: fc.boolean(),
		lastFirst: fc.boolean(),
	});
	const step = fc.record({
		advanceMs: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 120 }).map((m) => m * MINUTE) }, { weight: 1, arbitrary: fc.integer({ min: 6, max: 30 }).map((h) => h * HOUR) }),
		burst: fc.array(run, { maxLength: sizes.burst }),
		/** Runs created just before the poll's n-th request: the listing shifts between its page reads. */
		inserts: fc.array(fc.record({ atRequest: fc.integer({ min: 1, max: sizes.atRequest }), run }), { maxLength: 4 }),
		/** Deletes a remembered run (the direct read then answers 404). */
		deletePending: fc.option(fc.nat(), { freq: 6 }),
		/** Deletes any run between polls (finished or not, emitted or not, remembered or not). */
		deleteAny: optional(sizes.extras, fc.nat(), 4),
		/** A remembered run whose direct reads fail from this poll on, for this many polls. */
		readsFail: optional(sizes.extras, fc.record({ run: fc.nat(), polls: fc.integer({ min: 1, max: 4 }) }), 5),
		/** A page of the poll after the first is answered wrong (empty, or the page before again); never two polls running. */
		lie: fc.option(fc.record({ atPage: fc.integer({ min: 2, max: sizes.liePage }), kind: fc.constantFrom<'empty' | 'repeat'>('empty', 'repeat') }), { freq: 5 }),
		/** The poll's n-th request fails: nothing is committed, the same poll runs again. */
		failAt: fc.option(fc.integer({ min: 1, max: sizes.failAt }), { freq: 4 }),
		restart: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
		upgradeFromVersion1: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
	});
	return fc.record({
		perPage: sizes.perPage,
		history: sizes.history,
		going: fc.array(run, { maxLength: sizes.going }),
		scrapers: fc.constantFrom<number[]>([], [1, 2]),
		activationFailsAt: fc.option(fc.integer({ min: 1, max: 3 }), { freq: 3 }),
		steps: fc.array(step, { minLength: 3, maxLength: sizes.steps }),
	});
}
export type Scenario = ReturnType<typeof scenarios> extends fc.Arbitrary<infer T> ? T : never;
type Step = Scenario['steps'][number];

/** `count` results of history over the 72 hours before now: mostly finished, some stuck or still long-running. */
function seedHistory(model: ResultsModel, count: number): void {
	const start = model.now - 72 * HOUR;
	let created = 0;
	for (let i = 0; created < count; i++) {
		const size = Math.min(1 + (i % 5), count - created);
		const at = start + Math.floor((created / count) * 71 * HOUR);
		const durationMs = i % 997 === 5 ? Infinity : i % 1301 === 7 ? 30 * HOUR : 5 * MINUTE;
		model.create({ scraperId: 1 + (i % 3), size, durationMs, fails: i % 13 === 0 }, at);
		created += size;
	}
}

const wantedBy = (params: RunTriggerParameters) => (run: ModelRun) => params.scrapers.size === 0 || params.scrapers.has(run.scraperId);

/**
 * What activation must remember: every run of the chosen scrapers unfinished and younger than the age limit. And
 * what it may read: the pages up to the first one holding no run started within the age limit.
 */
function goingAtActivation(model: ResultsModel, params: RunTriggerParameters): { runs: Set<number>; pages: number } {
	const wanted = wantedBy(params);
	const young = (run: ModelRun) => model.now - run.createdAt <= MAX_UNFINISHED_AGE_MS;
	const runs = new Set([...model.runs.values()].filter((run) => wanted(run) && young(run) && !model.isFinished(run)).map((run) => run.id));
	for (let page = 1; ; page++) {
		const onPage = model.page(page).map((record) => model.runs.get(record.scraping_run_id)!);
		if (onPage.length < model.perPage || !onPage.some(young)) return { runs, pages: page };
	}
}

class Ledger {
	readonly emitted = new Map<number, number>();

	constructor(
		private readonly model: ResultsModel,
		private readonly eligible: (run: ModelRun) => boolean,
	) {}

	/**
	 * Each emitted run: once, of an eligible run, finished, with exactly the run's results. Checked plainly first:
	 * `expect` is slow (each call builds an error), and the pure step's suite records millions of runs.
	 */
	record(runs: TrackedRun[]): void {
		for (const emitted of runs) {
			const run = this.model.runs.get(emitted.id)!;
			const exact = emitted.results.length === run.resultIds.length && emitted.results.every((result, i) => result.id === run.resultIds[i]);
			const finished = emitted.results.every((result) => isTerminalStatus(result.status));
			if (this.emitted.has(emitted.id) || run.deleted || !this.eligible(run) || !exact || !finished) {
				expect(this.emitted.has(emitted.id)).toBe(false);
				expect(run.deleted).toBe(false);
				expect(this.eligible(run)).toBe(true);
				expect(emitted.results.map((result) => result.id)).toEqual(run.resultIds);
				expect(emitted.results.every((result) => isTerminalStatus(result.status))).toBe(true);
			}
			this.emitted.set(emitted.id, this.model.now);
		}
	}
}

async function pollOnce(trigger: ModelTrigger, failAt: number | null): Promise<TrackedRun[]> {
	const { model } = trigger;
	const before = JSON.stringify(trigger.state());
	model.failAt = failAt ?? undefined;
	try {
		return (await trigger.poll()).runs;
	} catch (error) {
		expect((error as Error).message).toMatch(/simulated outage/);
		expect(JSON.stringify(trigger.state())).toBe(before); // nothing committed
		model.failAt = undefined;
		return (await trigger.poll()).runs;
	} finally {
		model.failAt = undefined;
	}
}

/** Bounded state (checked plainly first, as in `Ledger.record`). */
function checkBounds(trigger: ModelTrigger): void {
	const state = trigger.state()!;
	const bytes = trigger.stateBytes();
	if (state.pending.length > MAX_PENDING || state.emitted.length > EMITTED_KEPT || bytes >= MAX_PENDING * 60 + EMITTED_KEPT * 8 + 200) {
		expect(state.pending.length).toBeLessThanOrEqual(MAX_PENDING);
		expect(state.emitted.length).toBeLessThanOrEqual(EMITTED_KEPT);
		expect(bytes).toBeLessThan(MAX_PENDING * 60 + EMITTED_KEPT * 8 + 200);
	}
}

/** What happens between two polls: runs created and finishing, deleted, reads that start failing, a restart. */
function between(trigger: ModelTrigger, st: Step, failing: Map<number, number>): void {
	const { model } = trigger;
	// The burst is spread over the time since the last poll (after a long pause, some runs are a day old at once).
	st.burst.forEach((spec, i) => model.create(spec, model.now + Math.floor(((i + 1) * st.advanceMs) / (st.burst.length + 1))));
	model.now += st.advanceMs;
	const pending = trigger.state()!.pending;
	if (st.deletePending !== null && pending.length > 0) model.delete(pending[st.deletePending % pending.length].id);
	const alive = st.deleteAny === null ? [] : [...model.runs.values()].filter((run) => !run.deleted);
	if (st.deleteAny !== null && alive.length > 0) model.delete(alive[st.deleteAny % alive.length].id);
	if (st.readsFail !== null && pending.length > 0) failing.set(pending[st.readsFail.run % pending.length].id, st.readsFail.polls);
	model.readsFail = new Set(failing.keys());
	for (const [id, polls] of failing) if (polls <= 1) failing.delete(id); else failing.set(id, polls - 1);
	if (st.restart) trigger.restart();
	if (st.upgradeFromVersion1) trigger.downgradeToVersion1();
}

/** Plays one scenario; `stepOf` gives the poll under test (by default `pollRuns`, its reads and step, on the model's I/O). */
export async function play(s: Scenario, stepOf?: (model: ResultsModel) => PollStep): Promise<void> {
	const model = new ResultsModel(s.perPage);
	const params: RunTriggerParameters = { scrapers: new Set(s.scrapers), output: 'run', includeFailed: true };
	seedHistory(model, s.history);
	s.going.forEach((spec, i) => model.create(spec, model.now - HOUR + Math.floor((i * HOUR) / (s.going.length + 1))));
	const trigger = new ModelTrigger(model, params, stepOf?.(model));

	// Activation remembers every run going then, reading back through the last 24 hours only.
	const expected = goingAtActivation(model, params);
	expect((await pollOnce(trigger, s.activationFailsAt)).length).toBe(0);
	expect(model.pollRequests).toBeLessThanOrEqual(expected.pages);
	const top = trigger.state()!.newestRunId;
	expect(new Set(trigger.state()!.pending.map((p) => p.id))).toEqual(expected.runs);
	const eligible = (run: ModelRun) => wantedBy(params)(run) && (run.id > top || expected.runs.has(run.id));
	const ledger = new Ledger(model, eligible);

	let lied = false;
	const failing = new Map<number, number>();
	for (const st of s.steps) {
		between(trigger, st, failing);
		const newest = trigger.state()!.newestRunId;
		model.beforeRequest = (n) => st.inserts.filter((insert) => insert.atRequest === n).forEach((insert) => model.create(insert.run));
		// A service that misbehaves for a while: a page answered wrong two polls running would be the listing's word.
		model.lie = lied ? undefined : (st.lie ?? undefined);
		lied = model.lie !== undefined;
		ledger.record(await pollOnce(trigger, st.failAt));
		model.beforeRequest = undefined;
		// What is new costs a page per `perPage` results (plus the page that passes them, and one a repeated page pushes
		// down); remembered runs a constant.
		const repeated = model.lie?.kind === 'repeat' ? 1 : 0;
		model.lie = undefined;
		const bound = Math.floor(model.countAbove(newest) / model.perPage) + 1 + repeated + DIRECT_READS_PER_POLL;
		if (model.pollRequests > bound) expect(model.pollRequests).toBeLessThanOrEqual(bound);
		checkBounds(trigger);
	}
	model.readsFail.clear();

	// Every run finishes or is stuck for good; polls with nothing new read the remembered runs until none is left, and
	// there are always two: a run created while the last step's poll paged is seen only by the next poll, and an
	// empty page after a full one met among new runs only is taken as the listing's end only by the next poll that
	// meets it (never by one in a walk past the new runs: remembered runs across it are read directly).
	model.now += 50 * HOUR;
	for (let i = 0; i < 2 || (i < MAX_PENDING / DIRECT_READS_PER_POLL + 2 && trigger.state()!.pending.length > 0); i++) ledger.record((await trigger.poll()).runs);
	expect(trigger.state()!.pending).toEqual([]);

	// A remembered run whose direct read failed past the age limit is given up: the trigger cannot know it finished.
	const givenUp = (run: ModelRun) => (model.readFailedAt.get(run.id) ?? []).some((at) => at - run.createdAt > MAX_UNFINISHED_AGE_MS);
	const missed = [...model.runs.values()].filter(
		(run) => eligible(run) && !run.deleted && ResultsModel.finishedAt(run) - run.createdAt <= MAX_UNFINISHED_AGE_MS && !givenUp(run) && !ledger.emitted.has(run.id),
	);
	expect(missed.map((run) => run.id)).toEqual([]);
}
