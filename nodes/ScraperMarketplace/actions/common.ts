import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { RUN_OUTPUTS, runOutputOptions } from '../descriptions/runOutput';
import type { RunOutput } from '../descriptions/runOutput';
import { marketplaceRequest } from '../transport/api';
import type { FieldLabels, ListReaderOptions } from '../transport/api';
import { runItem, runRecordItems } from '../runs/output';
import { isRunDone, trackRuns, waitForRuns } from '../runs/track';
import type { TrackedRun } from '../runs/track';
import { STARTED_RUN_FIELDS } from '../transport/vocabulary';
import { FROM_OPTIONS, optionsCollection, OPTIONS_VERSION } from '../../shared/descriptions/collections';
import { idParameter, INTEGER_ID_PATTERN, readId } from '../../shared/descriptions/locator';
import { readWaitSettings, waitParameters } from '../../shared/execution/polling';
import type { WaitSettings } from '../../shared/execution/polling';
import { readSimplify, simplifyProperties } from '../../shared/descriptions/simplify';
import type { Shaping } from '../../shared/descriptions/simplify';
import type { ApiRequest } from '../../shared/transport/definition';
import { InputValidator } from '../../shared/input/validation';
import type { ExecutionCall, NodeCall } from '../../shared/execution/call';
import { readListingLimit } from '../../shared/descriptions/listing';
import { collectRecords, listingWalk } from '../../shared/paging/pages';
import type { PageReader } from '../../shared/paging/pages';

/**
 * Wait for Completion and the output shape, for every operation that starts scraping runs, and from version 3 the
 * Options collection holding Max Wait and Poll Interval (Parallel Requests joins it), last.
 */
export function waitProperties(recordWord: string, whenNotWaiting: INodeProperties[] = []): INodeProperties[] {
	// A queued run carries no data yet: waiting is what most users want, so it is on by default.
	const wait = waitParameters('run', true, 'every result of the run has succeeded or failed, and output the extracted data');
	return [
		...wait.main,
		{
			displayName: 'Output',
			name: 'runOutput',
			type: 'options',
			default: 'run',
			displayOptions: { show: { waitForCompletion: [true] } },
			options: runOutputOptions(recordWord),
			description: 'How to shape the output',
		},
		...whenNotWaiting,
		optionsCollection(wait.options, { displayOptions: { show: FROM_OPTIONS } }),
	];
}

/** `waitProperties` of a create-and-run, whose answer without waiting is simplified from version 3. */
export function createAndRunWaitProperties(recordWord: string): INodeProperties[] {
	return waitProperties(recordWord, simplifyProperties(STARTED_RUN_FIELDS, { ...FROM_OPTIONS, waitForCompletion: [false] }));
}

interface WaitChoice {
	wait: WaitSettings;
	output: RunOutput;
}

/** Reads and checks the wait parameters; undefined when the user does not want to wait. */
function readWaitChoice(ctx: IExecuteFunctions, itemIndex: number): WaitChoice | undefined {
	const wait = readWaitSettings(ctx, itemIndex, true);
	if (!wait) return undefined;
	const v = new InputValidator(ctx.getNode(), itemIndex);
	return { wait, output: v.oneOf(ctx.getNodeParameter('runOutput', itemIndex, 'run'), 'Output', RUN_OUTPUTS) };
}

/** Waiting runs several input items at once, so ten searches take about as long as one. */
export function waitingConcurrency(this: IExecuteFunctions): number {
	return this.getNodeParameter('waitForCompletion', 0, true) === true ? 5 : 1;
}

/** What the service answered when runs started: their results, and the output (of those runs) when the user does not wait. */
interface StartedRuns {
	results: IDataObject[];
	immediate: (runs: TrackedRun[]) => INodeExecutionData[];
}

/**
 * A create-and-run answer `{message, scraper, results}`: simplified, one flat item per started run; else as it is,
 * one item.
 */
function createAnswer(shaping: Shaping | undefined): (answer: IDataObject) => StartedRuns {
	return (answer) => {
		const results = (Array.isArray(answer.results) ? answer.results : []) as IDataObject[];
		if (!shaping) return { results, immediate: () => [{ json: answer }] };
		const message = typeof answer.message === 'string' ? { message: answer.message } : {};
		return { results, immediate: (runs) => runs.map((run) => ({ json: shaping({ ...runItem(run, false), ...message }) })) };
	};
}

/** Simplify as set, read only where it applies: from version 3, when the node does not wait. */
function readStartedShaping(ctx: IExecuteFunctions, itemIndex: number): Shaping | undefined {
	if (ctx.getNode().typeVersion < OPTIONS_VERSION || readWaitSettings(ctx, itemIndex, true)) return undefined;
	return readSimplify(ctx, itemIndex, STARTED_RUN_FIELDS);
}

/** A run answer `{data: run-list records}`: one item per result. */
export function runAnswer(answer: IDataObject): StartedRuns {
	const records = (Array.isArray(answer.data) ? answer.data : []) as IDataObject[];
	return { results: records, immediate: () => records.map((json) => ({ json })) };
}

/** How long a request that starts runs may take: the service answers once they are queued. It is never repeated. */
const START_TIMEOUT_MS = 300_000;

/**
 * The steps of every operation that starts scraping runs, after its input is checked: read the wait (so a bad wait
 * setting sends nothing), send `request`, then without waiting output the service's answer, with waiting poll every
 * run it started and output one item per run or per extracted record.
 */
export async function startRuns(
	call: ExecutionCall,
	itemIndex: number,
	request: Omit<ApiRequest, 'method' | 'idempotent' | 'timeoutMs'>,
	labels: FieldLabels,
	started: (answer: IDataObject) => StartedRuns,
): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	const choice = readWaitChoice(ctx, itemIndex);
	const answer = await marketplaceRequest(
		call,
		{ method: 'POST', idempotent: false, timeoutMs: START_TIMEOUT_MS, ...request },
		itemIndex,
		labels,
	);
	const { results, immediate } = started(answer);
	const tracked = trackRuns(results);
	if (!choice || tracked.length === 0) return immediate(tracked);
	const runs = await waitForRuns(call, tracked, itemIndex, choice.wait);
	const { maxWaitMs } = choice.wait;
	return runs.flatMap((run) => {
		if (choice.output === 'records') return runRecordItems(run, itemIndex, maxWaitMs);
		return [{ json: runItem(run, isRunDone(run), maxWaitMs), pairedItem: { item: itemIndex } }];
	});
}

/**
 * A create-and-run of section C: POST `path` with `body` (always with the `name` of `nameProperty`), answered with
 * the new scraper and its first run. `labels` name the operation's other fields.
 */
export async function createAndRun(
	call: ExecutionCall,
	itemIndex: number,
	path: string,
	body: IDataObject,
	labels: FieldLabels,
): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	const shaping = readStartedShaping(ctx, itemIndex);
	const started = { what: `the scraper "${String(body.name)}" and its first run`, check: 'Look for it with Scraper > Get Many (newest first), then Scraping Run > Get Latest' };
	return await startRuns(call, itemIndex, { path, body, started }, { name: 'Name', ...labels }, createAnswer(shaping));
}

/** Name is required by every create-and-run. */
export const nameProperty = (placeholder: string): INodeProperties => ({
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${placeholder}`,
	description: 'A name for the new scraper, shown in the service dashboard and on every result',
});

/** A section C id parameter: a whole number typed, or picked from a list the node reads from the results. */
export function marketplaceIdParameter(
	name: string,
	displayName: string,
	searchListMethod: string,
	description: string,
	example: string,
): INodeProperties[] {
	return idParameter({
		name,
		displayName,
		description,
		searchListMethod,
		idPattern: INTEGER_ID_PATTERN,
		example,
		legacy: { type: 'number', default: 0, typeOptions: { minValue: 1, numberPrecision: 0 } },
	});
}

/** A whole-number id the user chose (picked, typed or, before version 2, a number field), checked before sending. */
export function integerIdOf(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): number {
	return new InputValidator(ctx.getNode(), itemIndex).integer(readId(ctx, name, itemIndex, 0), label, { min: 1 });
}

/**
 * Return All or Limit over one of the section C listings (results, scrapers): Options' Page Size, stored as `perPage`
 * (saved workflows keep it), is sent as per_page; `what` names the listing in the paging guard's messages.
 */
export async function readListing<T>(
	call: ExecutionCall,
	itemIndex: number,
	pages: (call: NodeCall, pageSize: number, options: ListReaderOptions) => PageReader<T>,
	what: string,
): Promise<T[]> {
	const { ctx } = call;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { limit, pageSize } = readListingLimit(ctx, itemIndex, options.perPage);
	const read = pages(call, pageSize, { itemIndex, fieldLabels: { per_page: 'Page Size' } });
	return await collectRecords(read, 1, limit, listingWalk(ctx, itemIndex, what));
}
