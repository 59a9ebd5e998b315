import type { RunListRecord } from '../../../nodes/ScraperMarketplace/transport/vocabulary';
import { pollRuns } from '../../../nodes/ScraperMarketplace/trigger/collect';
import { PAGE_SIZE } from '../../../nodes/ScraperMarketplace/trigger/io';
import type { RunTriggerIO } from '../../../nodes/ScraperMarketplace/trigger/io';
import type { RunTriggerParameters } from '../../../nodes/ScraperMarketplace/trigger/properties';
import type { Page } from '../../../nodes/shared/paging/pages';
import { NODE } from './resultsModel';

/** Pages of the results list made here, for the Run Trigger's walk and its view of what it read (no HTTP). */

export const T0 = Date.parse('2026-03-01T12:00:00Z');
let nextResultId = 1;
export function record(runId: number, status = 'succeeded', extra: Partial<RunListRecord> = {}): RunListRecord {
	return {
		id: nextResultId++,
		scraper_id: 7,
		scraping_run_id: runId,
		scraper_name: 'Leads',
		scraped_url: 'Default',
		status,
		content: [],
		created_at: new Date(T0).toISOString(),
		updated_at: new Date(T0).toISOString(),
		...extra,
	};
}
export const page = (records: RunListRecord[], next?: number): Page<RunListRecord> => ({ records, next });

/** An I/O whose listing is these run ids (one result each, newest first as given); counts what is read. */
export function listing(runIds: number[], running: number[] = []) {
	const records = runIds.map((id) => record(id, running.includes(id) ? 'running' : 'succeeded'));
	const read = { pages: [] as number[], runs: [] as number[] };
	const io: RunTriggerIO = {
		node: NODE,
		now: () => T0,
		readPage: async (at) => {
			read.pages.push(at);
			const slice = records.slice((at - 1) * PAGE_SIZE, at * PAGE_SIZE);
			return { records: slice, next: slice.length < PAGE_SIZE ? undefined : at + 1 };
		},
		readRun: async (id) => {
			read.runs.push(id);
			const results = records.filter((r) => r.scraping_run_id === id);
			return results.length > 0 ? { id, scraper_id: 7, status: 'succeeded', results, created_at: results[0].created_at } : undefined;
		},
	};
	return { io, read };
}

/** `count` run ids from `top` down. */
export const newestFirst = (top: number, count: number) => Array.from({ length: count }, (_, i) => top - i);
export const params = (scrapers: number[] = []): RunTriggerParameters => ({ scrapers: new Set(scrapers), output: 'run', includeFailed: false });
export const pendingRun = (id: number, checked = 0) => ({ id, since: T0, checked });
/** The first poll of an activation: the state it commits. */
export const activate = async (io: RunTriggerIO, p: RunTriggerParameters) => (await pollRuns(io, undefined, p)).state;
