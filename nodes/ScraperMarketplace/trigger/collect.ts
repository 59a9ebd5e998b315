import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import type { TrackedRun } from '../runs/track';
import type { RunListRecord } from '../transport/vocabulary';
import { walkPages } from '../../shared/paging/pages';
import { advance, MAX_PAGES_PER_POLL, needsMorePages, runsToRead } from './advance';
import type { Observation, Refusal } from './advance';
import { PAGE_SIZE, refusesAccount, resultsOf } from './io';
import type { RunTriggerIO } from './io';
import { SCRAPERS } from './properties';
import type { RunTriggerParameters } from './properties';
import { MAX_PENDING } from './state';
import type { RunTriggerState } from './state';

/**
 * One poll's reads, and nothing else: the pages of the results list `needsMorePages` asks for, then each remembered run
 * `runsToRead` names, read directly; `advance` (`advance.ts`) decides what they mean. Without a state, the first poll
 * of an activation. Nothing is written here: `nodes/shared/execution/trigger.ts` commits the returned state only
 * once the poll has fully succeeded.
 */
export async function pollRuns(
	io: RunTriggerIO,
	state: RunTriggerState | undefined,
	params: Pick<RunTriggerParameters, 'scrapers'>,
): Promise<{ state: RunTriggerState; emit: TrackedRun[] }> {
	const now = io.now();
	const seen: Observation = { scrapers: params.scrapers, pages: [], runs: new Map() };
	await readPages(io, state, seen, now);
	// In turn, one request each (a handful per poll: no need to press the account's limit).
	for (const id of runsToRead(state, seen)) seen.runs.set(id, await readRun(io, id));
	const step = advance(state, seen, now);
	if ('refused' in step) throw refusal(io.node, step.refused);
	return step;
}

/** The walk: pages of the results list from the newest, one request each, while `needsMorePages` asks for one. */
export async function readPages(io: RunTriggerIO, state: RunTriggerState | undefined, seen: Observation, now: number): Promise<void> {
	for await (const page of walkPages(io.readPage, 1)) {
		seen.pages.push(page);
		if (!needsMorePages(state, seen, now)) break;
	}
}

/**
 * A remembered run read whole: its results, none once it is gone (404). One that cannot be read (a timeout, a 5xx)
 * must not hold up the others forever: 'failed', it is set aside. An account refused fails the poll as it came.
 */
async function readRun(io: RunTriggerIO, id: number): Promise<RunListRecord[] | 'failed'> {
	return await io.readRun(id).then(resultsOf, (cause: unknown) => {
		if (refusesAccount(cause)) throw cause;
		return 'failed' as const;
	});
}

const withCommas = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** What a refused poll says: why nothing was emitted or remembered, and what to do. */
function refusal(node: INode, refused: Refusal): NodeOperationError {
	if (refused === 'tooManyUnfinished') {
		return new NodeOperationError(node, `More than ${MAX_PENDING} runs are unfinished at once`, {
			description:
				`The trigger remembers at most ${MAX_PENDING} unfinished runs, to start the workflow when each finishes. Choose fewer scrapers in '${SCRAPERS.label}', ` +
				'or wait until some runs finish (a run unfinished for more than 24 hours stops being tracked): the next poll tries again and nothing is skipped until then.',
		});
	}
	return new NodeOperationError(node, `More than ${withCommas(MAX_PAGES_PER_POLL * PAGE_SIZE)} results of new runs since the last check`, {
		description:
			`A poll reads at most ${withCommas(MAX_PAGES_PER_POLL)} pages of the results list, and the runs created since the last successful check ` +
			'do not fit (for example after n8n was stopped for days). Nothing was emitted or remembered, so the next poll meets the same backlog. ' +
			'To start again from the newest run, rename this trigger node (n8n keeps what a trigger remembers under its name): runs created in between then do not trigger.',
	});
}
