import type { INode, IPollFunctions } from 'n8n-workflow';

import { getScrapingRun, resultsPageReader } from '../transport/api';
import { LARGEST_RESULTS_PAGE } from '../transport/vocabulary';
import type { RunListRecord, ScrapingRun } from '../transport/vocabulary';
import type { PageReader } from '../../shared/paging/pages';
import { TRIGGER_RETRY_POLICY } from '../../shared/transport/retry';
import { answeredStatus } from '../../shared/execution/errors';
import type { NodeCall } from '../../shared/execution/call';

/** The trigger reads the results list in pages of the most the service recommends (100). */
export const PAGE_SIZE = LARGEST_RESULTS_PAGE;

/**
 * Everything a poll reads from outside, so the whole poll can be run against an in-memory listing (generated tests
 * of 100,000 results and hundreds of polls) as well as against the service.
 */
export interface RunTriggerIO {
	/** Whom messages name. */
	node: INode;
	/** One page of GET /api/results: newest first, `PAGE_SIZE` records, a shorter page is the last. */
	readPage: PageReader<RunListRecord>;
	/** One run with all its results (GET /api/scraping-runs/{id}); undefined when it is gone (404). */
	readRun: (id: number) => Promise<ScrapingRun | undefined>;
	/** Now, in ms: the age of unfinished runs is counted with it. */
	now: () => number;
}

/** A 404 means the run is gone (deleted, or never this account's): nothing is left to wait for. Else as it came. */
function goneAsUndefined(error: unknown): undefined {
	if (answeredStatus(error) === 404) return undefined;
	throw error;
}

/** The poll's I/O against the service, with the triggers' short retry policy (the next poll tries again anyway). */
export function serviceIO(call: NodeCall<IPollFunctions>): RunTriggerIO {
	const { ctx } = call;
	return {
		node: ctx.getNode(),
		readPage: resultsPageReader(call, PAGE_SIZE, { policy: TRIGGER_RETRY_POLICY }),
		readRun: async (id) => await getScrapingRun(call, id, 0, TRIGGER_RETRY_POLICY).catch(goneAsUndefined),
		now: () => Date.now(),
	};
}

/** A direct read's results, whatever shape the answer had. */
export function resultsOf(run: ScrapingRun | undefined): RunListRecord[] {
	return Array.isArray(run?.results) ? run.results : [];
}

/**
 * Whether a failed request says the account cannot read at all (credential refused, no permission, rate limited):
 * every other read would get the same answer, so the poll fails rather than setting one run aside.
 */
export function refusesAccount(error: unknown): boolean {
	const status = answeredStatus(error);
	return status === 401 || status === 403 || status === 429;
}
