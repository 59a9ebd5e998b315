import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import type { RunListRecord } from '../transport/vocabulary';
import { walkPages } from '../../shared/paging/pages';
import { PAGE_SIZE } from './io';
import type { RunTriggerIO } from './io';
import { oldestRunOn, runIdOf } from './listing';
import type { ListingView } from './listing';
import type { PendingRun } from './state';

/**
 * Section C's results list is the only listing of runs: newest first (by creation), `page`/`per_page`, no cursor,
 * no date filter, no sort, no count. These are the two walks of it; what they read goes into a `ListingView`.
 */

/** A poll reads at most this many pages of new runs (100,000 results); more is refused, and nothing is committed. */
export const MAX_PAGES_PER_POLL = 1_000;

const withCommas = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function tooManyNewResults(node: INode): NodeOperationError {
	return new NodeOperationError(node, `More than ${withCommas(MAX_PAGES_PER_POLL * PAGE_SIZE)} results of new runs since the last check`, {
		description:
			`A poll reads at most ${withCommas(MAX_PAGES_PER_POLL)} pages of the results list, and the runs created since the last successful check ` +
			'do not fit (for example after n8n was stopped for days). Nothing was emitted or remembered, so the next poll meets the same backlog. ' +
			'To start again from the newest run, rename this trigger node (n8n keeps what a trigger remembers under its name): runs created in between then do not trigger.',
	});
}

/**
 * A regular poll: pages from the newest until the oldest run on a page is one seen before (`newestRunId`). Every new
 * run then lies above it, whole; a new run cut by a page's end is the page's oldest, so the next page is read.
 * That costs one request per 100 new results, plus one.
 *
 * Past that point it reads on only while it pays: while the page just read held a remembered unfinished run and
 * some are not read whole yet (runs still going at activation sit together near the top: one page covers many of
 * them, where a direct read covers one), and for at most `extraPages` pages. Returns the extra pages read.
 */
export async function walkNewRuns(io: RunTriggerIO, view: ListingView, newestRunId: number, pending: PendingRun[], extraPages: number): Promise<number> {
	let passedNewRuns = false;
	let extra = 0;
	for await (const page of walkPages(io.readPage, 1)) {
		view.add(page);
		if (passedNewRuns) extra++;
		else if (oldestRunOn(page.records) > newestRunId) {
			if (page.next !== undefined && page.count >= MAX_PAGES_PER_POLL) throw tooManyNewResults(io.node);
			continue;
		} else passedNewRuns = true;
		if (extra >= extraPages || !holdsPendingWithMoreBelow(page.records, pending, view)) break;
	}
	return extra;
}

/** The page held a remembered run, and some remembered run is not read whole yet. */
function holdsPendingWithMoreBelow(records: RunListRecord[], pending: PendingRun[], view: ListingView): boolean {
	const onPage = new Set(records.map(runIdOf));
	return pending.some((run) => onPage.has(run.id)) && pending.some((run) => !view.holdsWhole(run.id));
}

/**
 * The first poll of an activation: pages from the newest while a page still holds a run started within the age limit
 * (or one that is `going`: unfinished, of a chosen scraper, its age unknown), at most `MAX_PAGES_PER_POLL`. A run
 * still going may sit behind any number of finished ones (a run of 100 URLs that finished after it started), so
 * stopping at the first page without one would miss it; older runs are never tracked, so none is missed there.
 */
export async function walkRecentRuns(io: RunTriggerIO, view: ListingView, recentOrGoing: (record: RunListRecord) => boolean): Promise<void> {
	for await (const page of walkPages(io.readPage, 1)) {
		view.add(page);
		if (!page.records.some(recentOrGoing) || page.count >= MAX_PAGES_PER_POLL) break;
	}
}
