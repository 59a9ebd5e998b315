import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SimClock } from '../../simulator/core/clock';
import { DEMO_MANUAL_SCRAPER_IDS, FAIL_MARKER, PLATFORM_DEMO_TOKEN, PLATFORM_ROUTES, PlatformSimulator } from '../../simulator/platform';
import type { BulkData, PlatformSimulatorOptions, ResultRecord } from '../../simulator/platform';
import type { LoggedRequest } from '../../simulator/core/log';
import { TriggerInstance } from '../../harness/trigger';
import type { TriggerDatabase } from '../../harness/trigger';

export const TOKEN = PLATFORM_DEMO_TOKEN;
export const [SCRAPER_A, SCRAPER_B] = DEMO_MANUAL_SCRAPER_IDS;
export const LIST = PLATFORM_ROUTES.results;
export const DETAIL = PLATFORM_ROUTES.result;
export const MINUTE = 60_000;

export interface TriggerContext {
	sim: PlatformSimulator;
}

/** A fresh simulator per test (its own clock and jobs); bulk URLs one at a time, 1 s each unless a job says otherwise. */
export function useSimulator(options: PlatformSimulatorOptions = {}): TriggerContext {
	const context = {} as TriggerContext;
	beforeEach(async () => {
		context.sim = new PlatformSimulator({ bulkUrlDurationMs: 1000, bulkConcurrency: 1, ...options });
		await context.sim.listen();
	});
	afterEach(async () => {
		await context.sim.close();
	});
	return context;
}

/** A Scraper Platform Trigger (Bulk Job Completed unless `parameters` say), or `nodeType` at `typeVersion`. */
export function newTrigger(
	sim: PlatformSimulator,
	parameters: IDataObject = {},
	database?: TriggerDatabase,
	typeVersion?: number,
	nodeType?: string,
	name?: string,
): TriggerInstance {
	return new TriggerInstance({
		baseUrl: sim.url,
		apiToken: TOKEN,
		parameters: parameters as TriggerInstance['node']['parameters'],
		database,
		typeVersion,
		nodeType,
		name,
	});
}

let jobCounter = 0;

export interface JobSpec {
	scraperId?: string;
	/** Number of URLs; they run one at a time. */
	urls?: number;
	/** Simulated time per URL. */
	urlMs?: number;
	/** Which URLs fail (by index); `true` for all. */
	fail?: boolean | number[];
}

/** Starts a bulk job now; it completes `urls * urlMs` later. Returns its id. */
export function startJob(sim: PlatformSimulator, spec: JobSpec = {}): string {
	const n = spec.urls ?? 1;
	const id = ++jobCounter;
	const urls = Array.from({ length: n }, (_, i) => {
		const fails = spec.fail === true || (Array.isArray(spec.fail) && spec.fail.includes(i));
		return `https://shop.example.com/${fails ? `${FAIL_MARKER}/` : ''}job-${id}/item-${i}`;
	});
	sim.options.bulkUrlDurationMs = spec.urlMs ?? 1000;
	return sim.startBulk(TOKEN, spec.scraperId ?? SCRAPER_A, urls).id;
}

export function record(sim: PlatformSimulator, id: string): ResultRecord<BulkData> {
	const found = sim.getRecord<BulkData>(id);
	if (!found) throw new Error(`no record ${id}`);
	return found;
}

/** The moment a job completed (its updatedAt once done), in ms. */
export function completedAt(sim: PlatformSimulator, id: string): number {
	const r = record(sim, id);
	if (r.status === 'Running') throw new Error(`job ${id} is still running`);
	return Date.parse(r.updatedAt);
}

/** Requests to the results list and to single results that `fn` caused, from the simulator's log. */
export async function countRequests<T>(sim: PlatformSimulator, fn: () => Promise<T>): Promise<{ value: T; list: number; detail: number; total: number }> {
	const before = sim.server.log.entries.length;
	const value = await fn();
	const entries = sim.server.log.entries.slice(before).filter((e) => e.query.testProbe === undefined);
	const list = entries.filter((e) => e.route === LIST).length;
	const detail = entries.filter((e) => e.route === DETAIL).length;
	return { value, list, detail, total: entries.length };
}

export function ids(items: INodeExecutionData[]): string[] {
	return items.map((item) => String(item.json.id));
}

/** A clock that starts `hours` in the past and follows real time from there (advance() moves it forward). */
export class PastClock extends SimClock {
	constructor(private readonly shiftMs: number) {
		super();
	}

	now(): number {
		return super.now() - this.shiftMs;
	}
}

/**
 * Runs `hook` as the simulator receives each request of a poll (numbered from 1), before it answers: a test acts
 * between the pages of one poll this way. Requests the test sends itself with `testProbe` in the query are not
 * counted. Returns the function that removes the hook.
 */
export function beforeEachRequest(
	sim: PlatformSimulator,
	hook: (requestNumber: number, request: LoggedRequest) => void | Promise<void>,
): () => void {
	let count = 0;
	sim.server.beforeHandle = async (request) => {
		if (request.query.testProbe) return;
		await hook(++count, request);
	};
	return () => {
		sim.server.beforeHandle = undefined;
	};
}
