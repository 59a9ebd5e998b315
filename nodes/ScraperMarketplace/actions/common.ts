import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { runOutputField, runOutputOptions } from '../descriptions/runOutput';
import type { RunOutput } from '../descriptions/runOutput';
import { marketplaceRequest } from '../transport/api';
import type { FieldLabels, ListReaderOptions } from '../transport/api';
import { runItem, runRecordItems } from '../runs/output';
import { isRunDone, refuseUnnamedRuns, RUN_WAIT, trackRuns, waitForRuns } from '../runs/track';
import type { TrackedRun } from '../runs/track';
import { STARTED_RUN_FIELDS } from '../transport/vocabulary';
import { FROM_OPTIONS, MARKETPLACE_VERSIONS } from '../versions';
import { optionsCollection } from '../../shared/descriptions/collections';
import type { WaitSettings } from '../../shared/execution/waitFields';
import { readSimplify, simplifyProperties } from '../../shared/descriptions/simplify';
import type { Shaping } from '../../shared/descriptions/simplify';
import type { ApiRequest } from '../../shared/transport/definition';
import type { ExecutionCall, NodeCall } from '../../shared/execution/call';
import { readListingLimit } from '../../shared/descriptions/listing';
import { collectRecords, listingWalk } from '../../shared/paging/pages';
import type { PageReader } from '../../shared/paging/pages';
import { field, parameter } from '../../shared/input/fields';
import { SPLIT_INTO_ITEMS } from '../../shared/output/records';
import { collection } from '../../shared/input/fieldSets';
import type { Field } from '../../shared/input/fields';
import type { Values } from '../../shared/input/fieldSets';

/** Name is required by every create-and-run; each operation shows it with an example of its own (`nameProperty`). */
export const NAME = field({
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	description: 'A name for the new scraper, shown in the service dashboard and on every result',
});

/** Name as an operation shows it: with its example. */
export const nameProperty = (example: string): INodeProperties => ({ ...NAME.property, placeholder: `e.g. ${example}` });

/** Split Into Items, of the operations whose answers hold records; `description` says what one item is then. */
export function splitField(description: string): Field<boolean, boolean> {
	return SPLIT_INTO_ITEMS.with({ description });
}

/** Shown only while waiting: an unfinished run has no records to shape. */
const WHEN_WAITING = { show: { [RUN_WAIT.waitSwitch.name]: [true] } };

/** Output of the operations that start runs; each shows it naming its own records (`waitProperties`). */
const RUN_OUTPUT = runOutputField({ name: 'runOutput', recordWord: 'one record', description: 'How to shape the output', displayOptions: WHEN_WAITING });

/** From version 3: the Options collection, holding Max Wait and Poll Interval (Parallel Requests joins it). */
const RUN_OPTIONS = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), RUN_WAIT.options);

/**
 * Wait for Completion and the output shape, for every operation that starts scraping runs, and from version 3 the
 * Options collection holding Max Wait and Poll Interval, last. `recordWord` names one record of the output.
 */
export function waitProperties(recordWord: string, whenNotWaiting: INodeProperties[] = []): INodeProperties[] {
	return [...RUN_WAIT.main, { ...RUN_OUTPUT.property, options: runOutputOptions(recordWord) }, ...whenNotWaiting, RUN_OPTIONS.property];
}

/** `waitProperties` of a create-and-run, whose answer without waiting is simplified from version 3. */
export function createAndRunWaitProperties(recordWord: string): INodeProperties[] {
	return waitProperties(recordWord, simplifyProperties(STARTED_RUN_FIELDS, { ...FROM_OPTIONS, [RUN_WAIT.waitSwitch.name]: [false] }));
}

interface WaitChoice {
	wait: WaitSettings;
	output: RunOutput;
}

/** Reads and checks the wait parameters; undefined when the user does not want to wait. */
function readWaitChoice(ctx: IExecuteFunctions, itemIndex: number): WaitChoice | undefined {
	const wait = RUN_WAIT.read(ctx, itemIndex);
	return wait && { wait, output: RUN_OUTPUT.read(ctx, itemIndex) };
}

/** Waiting runs several input items at once, so ten searches take about as long as one. */
export function waitingConcurrency(this: IExecuteFunctions): number {
	const { name, default: waitsByDefault } = RUN_WAIT.waitSwitch.property;
	// Only how many items run at once: each item checks the switch itself.
	return parameter(this, name, 0, waitsByDefault) === true ? 5 : 1;
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
	if (ctx.getNode().typeVersion < MARKETPLACE_VERSIONS.options || RUN_WAIT.read(ctx, itemIndex)) return undefined;
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
 * run it started and output one item per run or per extracted record. `labels` name the request's keys.
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
	refuseUnnamedRuns(ctx.getNode(), results, itemIndex);
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
 * A create-and-run of section C: POST `path` with `body` (always with the `name` of `NAME`), answered with the new
 * scraper and its first run. `labels` name the request's keys (the operation's `Request`).
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
	return await startRuns(call, itemIndex, { path, body, started }, labels, createAnswer(shaping));
}

/** Page Size of the section C listings (results, scrapers), stored as `perPage` and sent as per_page. */
export function pageSizeField(largest: number, description: string) {
	return field({
		displayName: 'Page Size',
		name: 'perPage',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: largest, numberPrecision: 0 },
		default: largest,
		description,
	});
}

/**
 * Return All or Limit over one of the section C listings, `pageSize` records a request as the user set it (checked
 * with `values`); `what` names the listing in the paging guard's messages.
 */
export async function readListing<T>(
	call: ExecutionCall,
	itemIndex: number,
	pages: (call: NodeCall, pageSize: number, options: ListReaderOptions) => PageReader<T>,
	what: string,
	pageSize: { field: Field<number, number>; values: Values },
): Promise<T[]> {
	const { ctx } = call;
	const { limit, pageSize: perPage } = readListingLimit(ctx, itemIndex, pageSize.values.of(pageSize.field));
	const read = pages(call, perPage, { itemIndex, fieldLabels: { per_page: pageSize.field.label } });
	return await collectRecords(read, 1, limit, listingWalk(ctx, itemIndex, what));
}
