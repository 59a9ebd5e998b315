import type { IDataObject, INode } from 'n8n-workflow';

import type { TrackedRun } from '../../../nodes/ScraperMarketplace/runs/track';
import type { RunListRecord, ScrapingRun } from '../../../nodes/ScraperMarketplace/transport/vocabulary';
import { pollRuns } from '../../../nodes/ScraperMarketplace/trigger/collect';
import type { RunTriggerIO } from '../../../nodes/ScraperMarketplace/trigger/io';
import { PAGE_SIZE } from '../../../nodes/ScraperMarketplace/trigger/io';
import type { RunTriggerParameters } from '../../../nodes/ScraperMarketplace/trigger/properties';
import { commitState, readState } from '../../../nodes/ScraperMarketplace/trigger/state';
import type { RunTriggerState } from '../../../nodes/ScraperMarketplace/trigger/state';
import type { Page } from '../../../nodes/shared/paging/pages';

/**
 * An in-memory section C results list for the Run Trigger's poll, without HTTP: runs of a few scrapers whose
 * results finish at given instants, listed newest first as the service lists them (created_at descending, then
 * run id, then result id), served in pages of 100 (or as many as given: the pure step's tests take small pages, so
 * runs straddle pages often). Hooks act between two requests of a poll (runs created while the poll pages, so the
 * listing shifts under it) or make one request fail.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface RunSpec {
	scraperId: number;
	/** Results of the run. */
	size: number;
	/** From creation to the first result's end; Infinity: a stuck run. Each further result ends a minute later. */
	durationMs: number;
	/** Every result ends `failed`. */
	fails?: boolean;
	/** The results end from the last one back (as a service working on them in parallel may): else from the first. */
	lastFirst?: boolean;
}

export interface ModelRun {
	id: number;
	scraperId: number;
	createdAt: number;
	firstEnd: number;
	fails: boolean;
	lastFirst: boolean;
	resultIds: number[];
	deleted: boolean;
}

interface ModelResult {
	id: number;
	index: number;
	run: ModelRun;
}

export const NODE: INode = { id: 'trigger', name: 'Scraper Run Trigger', type: 'scraperRunTrigger', typeVersion: 1, position: [0, 0], parameters: {} };

export class ResultsModel {
	now = Date.parse('2026-03-01T00:00:00.000Z');
	readonly runs = new Map<number, ModelRun>();
	/** Every result, oldest first: listing position i is `flat[flat.length - 1 - i]`. */
	private flat: ModelResult[] = [];
	private nextRunId = 5001;
	private nextResultId = 90001;
	/** Requests of the current poll (`startPoll`), and how many of them were direct run reads. */
	pollRequests = 0;
	pollRunReads = 0;
	/** Called before each request of a poll is answered, with its number in the poll (from 1). */
	beforeRequest?: (requestNumber: number) => void;
	/** This request of the poll (from 1) fails, as an outage would. */
	failAt?: number;
	/** This page is answered wrong: empty and the last, or the page before it again (a page hidden). */
	lie?: { atPage: number; kind: 'empty' | 'repeat' };
	/** Runs whose direct reads fail (a 5xx) until taken out, besides `failAt`. */
	readsFail = new Set<number>();
	/** When a direct read of each run failed (`failAt`, `readsFail`): a run past the age limit then is given up unread. */
	readFailedAt = new Map<number, number[]>();

	private readonly written = new Map<number, string>();

	constructor(readonly perPage = PAGE_SIZE) {}

	startPoll(): void {
		this.pollRequests = 0;
		this.pollRunReads = 0;
	}

	/** A run created at `at` (now by default; never before the newest run: the service's ids grow with time). */
	create(spec: RunSpec, at = this.now): ModelRun {
		const run: ModelRun = {
			id: this.nextRunId++,
			scraperId: spec.scraperId,
			createdAt: at,
			firstEnd: at + spec.durationMs,
			fails: spec.fails === true,
			lastFirst: spec.lastFirst === true,
			resultIds: [],
			deleted: false,
		};
		for (let index = 0; index < spec.size; index++) {
			const id = this.nextResultId++;
			run.resultIds.push(id);
			this.flat.push({ id, index, run });
		}
		this.runs.set(run.id, run);
		return run;
	}

	delete(id: number): void {
		const run = this.runs.get(id);
		if (!run || run.deleted) return;
		run.deleted = true;
		this.flat = this.flat.filter((result) => result.run !== run);
	}

	/** When the run's last result ends. */
	static finishedAt(run: ModelRun): number {
		return run.firstEnd + (run.resultIds.length - 1) * MINUTE;
	}

	isFinished(run: ModelRun, at = this.now): boolean {
		return at >= ResultsModel.finishedAt(run);
	}

	/** Results in the listing (what `/api/results` holds now). */
	get size(): number {
		return this.flat.length;
	}

	/** Results now listed whose run id is above `runId`. */
	countAbove(runId: number): number {
		let count = 0;
		for (let i = this.flat.length - 1; i >= 0 && this.flat[i].run.id > runId; i--) count++;
		return count;
	}

	private record(result: ModelResult): RunListRecord {
		const { run } = result;
		const end = run.firstEnd + (run.lastFirst ? run.resultIds.length - 1 - result.index : result.index) * MINUTE;
		const done = this.now >= end;
		const status = done ? (run.fails ? 'failed' : 'succeeded') : 'running';
		return {
			id: result.id,
			scraper_id: run.scraperId,
			scraping_run_id: run.id,
			scraper_name: `Scraper ${run.scraperId}`,
			scraped_url: `https://example.com/${result.index}`,
			status,
			content: status === 'succeeded' ? [{ result: result.id }] : null,
			created_at: this.iso(run.createdAt),
			updated_at: this.iso(done ? end : run.createdAt),
		};
	}

	/** An instant as the service writes it; kept, as the generated suites read hundreds of thousands of records. */
	private iso(ms: number): string {
		const written = this.written.get(ms) ?? new Date(ms).toISOString();
		this.written.set(ms, written);
		return written;
	}

	/** The listing as it is now, pages of `perPage` (newest first). */
	page(page: number, perPage = this.perPage): RunListRecord[] {
		const out: RunListRecord[] = [];
		const from = this.flat.length - 1 - (page - 1) * perPage;
		for (let i = from; i > from - perPage && i >= 0; i--) out.push(this.record(this.flat[i]));
		return out;
	}

	private request(): void {
		this.pollRequests++;
		this.beforeRequest?.(this.pollRequests);
		if (this.failAt === this.pollRequests) throw new Error('The service did not answer (simulated outage)');
	}

	/** One page of GET /api/results as answered now (or wrong, as `lie` says): a request of the poll. */
	answerPage(page: number): Page<RunListRecord> {
		this.request();
		if (this.lie?.atPage === page && this.lie.kind === 'empty') return { records: [], next: undefined };
		const records = this.page(this.lie?.atPage === page ? page - 1 : page);
		return { records, next: records.length < this.perPage ? undefined : page + 1 };
	}

	/** GET /api/scraping-runs/{id} as answered now: undefined once gone (the 404). A request of the poll. */
	answerRun(id: number): ScrapingRun | undefined {
		if (this.failAt === this.pollRequests + 1 || this.readsFail.has(id)) this.readFailedAt.set(id, [...(this.readFailedAt.get(id) ?? []), this.now]);
		this.request();
		if (this.readsFail.has(id)) throw new Error('The service did not answer (simulated outage)');
		this.pollRunReads++;
		const run = this.runs.get(id);
		if (!run || run.deleted) return undefined;
		const results = run.resultIds.map((resultId, index) => this.record({ id: resultId, index, run }));
		return { id, scraper_id: run.scraperId, status: 'running', results, created_at: new Date(run.createdAt).toISOString() };
	}

	/** The poll's I/O against this model. */
	io(): RunTriggerIO {
		return {
			node: NODE,
			now: () => this.now,
			readPage: async (page) => this.answerPage(page),
			readRun: async (id) => this.answerRun(id),
		};
	}
}

/** One poll of the trigger: its reads and its step (`pollRuns`, or the pure step driven without I/O). */
export type PollStep = (io: RunTriggerIO, state: RunTriggerState | undefined, params: RunTriggerParameters) => Promise<{ state: RunTriggerState; emit: TrackedRun[] }>;

/**
 * The trigger over the model, polled as `nodes/shared/execution/trigger.ts` polls it, with n8n's storage around it: the
 * static data lives in memory between polls (as JSON), n8n saves it to its database after the activation poll and
 * after a poll that emitted, and a restart goes back to the saved copy. A poll that throws commits nothing.
 */
export class ModelTrigger {
	private memory: IDataObject = {};
	private saved = '{}';

	constructor(
		readonly model: ResultsModel,
		readonly params: RunTriggerParameters,
		private readonly step: PollStep = pollRuns,
	) {}

	async poll(): Promise<{ runs: TrackedRun[]; activation: boolean }> {
		const io = this.model.io();
		this.model.startPoll();
		const staticData = JSON.parse(JSON.stringify(this.memory)) as IDataObject;
		const state = readState(staticData);
		const outcome = await this.step(io, state, this.params);
		commitState(staticData, outcome.state);
		this.memory = staticData;
		if (state === undefined || outcome.emit.length > 0) this.save();
		return { runs: outcome.emit, activation: state === undefined };
	}

	/** n8n restarts: what was not saved is gone. */
	restart(): void {
		this.memory = JSON.parse(this.saved) as IDataObject;
	}

	/** The state as version 1 of the node saved it (an upgrade of the package between two polls). */
	downgradeToVersion1(): void {
		const state = this.state();
		if (state) this.memory = { version: 1, newestRunId: state.newestRunId, pending: state.pending.map((run) => run.id) };
	}

	state(): RunTriggerState | undefined {
		return readState(this.memory);
	}

	/** The static data's size as n8n stores it (JSON). */
	stateBytes(): number {
		return JSON.stringify(this.memory).length;
	}

	private save(): void {
		this.saved = JSON.stringify(this.memory);
	}
}
