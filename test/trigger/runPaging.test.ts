import type { INode, IPollFunctions } from 'n8n-workflow';

import type { RunListRecord } from '../../nodes/ScraperMarketplace/vocabulary';
import { MAX_PAGES_PER_POLL, PAGE_SIZE, groupByRun, listedRun, readRuns } from '../../nodes/ScraperRunTrigger/paging';
import { readState, stateOf } from '../../nodes/ScraperRunTrigger/state';
import type { Page } from '../../nodes/shared/pages';

/** The Run Trigger's walk of the results list, against pages made here: what it reads, and where it stops. */

const node: INode = { id: 'trigger', name: 'Scraper Run Trigger', type: 'scraperRunTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
const ctx = { getNode: () => node } as unknown as IPollFunctions;

let nextResultId = 1;
function record(runId: number, status = 'succeeded'): RunListRecord {
	return {
		id: nextResultId++,
		scraper_id: 7,
		scraping_run_id: runId,
		scraper_name: 'Leads',
		scraped_url: 'Default',
		status,
		content: [],
		created_at: '2026-03-01T12:00:00Z',
		updated_at: '2026-03-01T12:00:00Z',
	};
}

/** A listing of these run ids (one result each, newest first as given), served in pages; counts the pages read. */
function listing(runIds: number[]) {
	const records = runIds.map((id) => record(id));
	const read = { pages: [] as number[] };
	const reader = async (page: number): Promise<Page<RunListRecord>> => {
		read.pages.push(page);
		const slice = records.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
		return { records: slice, next: slice.length < PAGE_SIZE ? undefined : page + 1 };
	};
	return { reader, read };
}

/** `count` run ids from `top` down. */
const newestFirst = (top: number, count: number) => Array.from({ length: count }, (_, i) => top - i);

describe('Run Trigger paging', () => {
	it('groups results by run in listing order, leaving out records without a run id or that are refused', () => {
		const records = [record(3), record(2), record(3), { ...record(1), scraping_run_id: 'x' as unknown as number }, record(2, 'failed')];
		const runs = groupByRun(records);
		expect([...runs].map(([id, results]) => [id, results.length])).toEqual([
			[3, 2],
			[2, 2],
		]);
		expect([...groupByRun(records, new Map(), (r) => r.status === 'failed').keys()]).toEqual([2]);
	});

	it('a run from its listed results: the first names the scraper', () => {
		const run = listedRun(3, [record(3), record(3, 'failed')]);
		expect(run).toMatchObject({ id: 3, scraper_id: 7, scraper_name: 'Leads', status: 'failed', read: true });
	});

	it('an idle poll reads one page', async () => {
		const { reader, read } = listing(newestFirst(500, 300));
		const runs = await readRuns(ctx, stateOf(500, []), reader);
		expect(read.pages).toEqual([1]);
		expect(runs.size).toBe(PAGE_SIZE);
	});

	it('reads on while the page ends inside a new run, and stops on the first page that passes the newest seen', async () => {
		const { reader, read } = listing(newestFirst(500, 400));
		await readRuns(ctx, stateOf(250, []), reader);
		// Pages 1 and 2 end at runs 401 and 301 (new), page 3 at 201 (seen): it is the last read.
		expect(read.pages).toEqual([1, 2, 3]);
	});

	it('reads on until the oldest unfinished run remembered is passed', async () => {
		const { reader, read } = listing(newestFirst(500, 400));
		const runs = await readRuns(ctx, stateOf(500, [420, 250]), reader);
		expect(read.pages).toEqual([1, 2, 3]);
		expect(runs.has(250)).toBe(true);
	});

	it('a page shorter than a full one is the last', async () => {
		const { reader, read } = listing(newestFirst(500, 150));
		await readRuns(ctx, stateOf(0, []), reader);
		expect(read.pages).toEqual([1, 2]);
	});

	it(`refuses a poll of more than ${MAX_PAGES_PER_POLL} pages without reading one more`, async () => {
		const { reader, read } = listing(newestFirst(MAX_PAGES_PER_POLL * PAGE_SIZE + 10, MAX_PAGES_PER_POLL * PAGE_SIZE + 5));
		await expect(readRuns(ctx, stateOf(0, []), reader)).rejects.toThrow(`More than ${MAX_PAGES_PER_POLL * PAGE_SIZE} new or unfinished results since the last check`);
		expect(read.pages).toHaveLength(MAX_PAGES_PER_POLL);
	});
});

describe('Run Trigger state', () => {
	it('reads only its own shape, and keeps pending runs in order', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ version: 2, newestRunId: 5, pending: [] })).toBeUndefined();
		expect(readState({ version: 1, newestRunId: 5, pending: [4, 'x', 2] })).toEqual({ version: 1, newestRunId: 5, pending: [4, 2] });
		expect(stateOf(9, [8, 3, 5])).toEqual({ version: 1, newestRunId: 9, pending: [3, 5, 8] });
	});
});
