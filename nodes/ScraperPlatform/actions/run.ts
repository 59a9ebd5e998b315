import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ExecutionCall } from '../../shared/execution/call';
import type { StartedWork } from '../../shared/execution/unknownOutcome';
import { withoutSecrets } from '../../shared/execution/errors';
import { platformRequest } from '../transport/api';
import { ID_KINDS } from '../transport/vocabulary';
import { resultOutput } from './common';
import type { OutputChoice } from './common';
import { lookForResults } from './result/getMany';

/** One scraper run: where it is sent, what, which scraper it reruns (none for a new one), and its output's shape. */
export interface ScraperRun {
	path: string;
	body: IDataObject;
	output: OutputChoice;
	scraperId?: string;
	/** The rerun endpoints refuse a request without `accept: application/json`. */
	acceptJson?: boolean;
	/** Values the run sends that must never reach an error (a proxy URL with its password). */
	secrets?: readonly string[];
}

/** Where a run whose answer was lost shows up: its result record, newest first in the results list. */
function runStarted(run: Omit<ScraperRun, 'output'>): StartedWork {
	return run.scraperId === undefined
		? { what: 'the AI scraper and its first run', check: `Look for it with ${lookForResults()}` }
		: { what: `the run of scraper "${run.scraperId}"`, check: `Look for its result with ${lookForResults({ scraperId: run.scraperId })}` };
}

/** A browser run's answer gets five minutes, or the run's own Timeout plus a minute when that is longer. */
const DEADLINE_MS = 300_000;
const DEADLINE_MARGIN_MS = 60_000;

/** Sends a scraper run (create or rerun) and gives its result record. A run may have started when a request fails, so it is never repeated. */
export async function sendRun(call: ExecutionCall, run: Omit<ScraperRun, 'output'>, itemIndex: number): Promise<IDataObject> {
	const response = await platformRequest(
		call,
		{
			method: 'POST',
			path: run.path,
			body: run.body,
			headers: run.acceptJson ? { accept: 'application/json' } : undefined,
			idempotent: false,
			subject: { kind: ID_KINDS.scraper, id: run.scraperId },
			started: runStarted(run),
			timeoutMs: typeof run.body.timeout === 'number' ? Math.max(DEADLINE_MS, run.body.timeout * 1000 + DEADLINE_MARGIN_MS) : DEADLINE_MS,
		},
		itemIndex,
	).catch((error: Error) => {
		throw withoutSecrets(error, run.secrets ?? []);
	});
	return response.data as IDataObject;
}

/** Sends a scraper run and outputs its result record as the user chose. */
export async function runScraper(call: ExecutionCall, run: ScraperRun, itemIndex: number): Promise<INodeExecutionData[]> {
	return resultOutput(await sendRun(call, run, itemIndex), run.output, itemIndex);
}
