import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { BEFORE_OPTIONS, FROM_OPTIONS, optionsCollection, OPTIONS_VERSION } from '../../shared/descriptions/collections';
import { asRecords, findList, simplifyRecord, splitIntoItems } from '../../shared/output/records';
import { readShaping, SIMPLIFY_DESCRIPTION, simplifyProperties } from '../../shared/descriptions/simplify';
import type { Shaping } from '../../shared/descriptions/simplify';
import type { StartedWork } from '../../shared/execution/unknownOutcome';
import { InputValidator } from '../../shared/input/validation';
import { decodeResult, platformRequest } from '../transport/api';
import { ID_KINDS, RESULT_FIELDS, RESULT_LIST_KEYS } from '../transport/vocabulary';
import type { ExecutionCall } from '../../shared/execution/call';

/**
 * Simplify before version 3: under Output in the record-returning operations, under Options in Result > Get Many,
 * off by default and dropping server file paths and audit fields (`NOISE_FIELDS`). Saved workflows keep it so.
 */
export const legacySimplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description: SIMPLIFY_DESCRIPTION,
};

/** Reads the version 1-2 Simplify from the collection that holds it. */
export function readLegacySimplify(ctx: IExecuteFunctions, collection: IDataObject, itemIndex: number): Shaping {
	const simplify = new InputValidator(ctx.getNode(), itemIndex).boolean(collection.simplify ?? false, 'Simplify');
	return simplify ? (record) => simplifyRecord(record) : (record) => record;
}

/** Simplify and, for an agent, the Output choice of a result record, from version 3. */
export const resultSimplifyProperties: INodeProperties[] = simplifyProperties(RESULT_FIELDS, FROM_OPTIONS);

/**
 * Output choices every record-returning operation offers, so spreadsheets and CRMs get rows: before version 3 an
 * Output collection; from version 3 Simplify on top and Split Into Items under Options.
 */
export function outputOptions(splitDescription: string): INodeProperties[] {
	const split: INodeProperties = { displayName: 'Split Into Items', name: 'split', type: 'boolean', default: false, description: splitDescription };
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [legacySimplifyProperty, split],
			displayOptions: { show: BEFORE_OPTIONS },
		},
		...resultSimplifyProperties,
		optionsCollection([split], { displayOptions: { show: FROM_OPTIONS } }),
	];
}

interface OutputChoice {
	shape: Shaping;
	split: boolean;
}

export function getOutputChoice(ctx: IExecuteFunctions, itemIndex: number): OutputChoice {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	if (ctx.getNode().typeVersion < OPTIONS_VERSION) {
		const output = ctx.getNodeParameter('output', itemIndex, {}) as IDataObject;
		return { shape: readLegacySimplify(ctx, output, itemIndex), split: v.boolean(output.split ?? false, 'Split Into Items') };
	}
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return { shape: readShaping(ctx, itemIndex, RESULT_FIELDS), split: v.boolean(options.split ?? false, 'Split Into Items') };
}

/**
 * A result record as output: `data` decoded; with Split Into Items, one item per record of `data`
 * (an array, or the `records`/`items`/`results` list inside it), each carrying the result id.
 */
export function resultOutput(record: IDataObject, choice: OutputChoice, itemIndex: number): INodeExecutionData[] {
	const decoded = decodeResult(record);
	const list = choice.split ? findList(decoded.data, RESULT_LIST_KEYS) : undefined;
	if (!list) return [{ json: choice.shape(decoded) }];
	return splitIntoItems(asRecords(list), itemIndex, { resultId: decoded.id as string });
}

/** One scraper run: where it is sent, what, and which scraper it reruns (none for a new one). */
interface ScraperRun {
	path: string;
	body: IDataObject;
	scraperId?: string;
	/** The rerun endpoints refuse a request without `accept: application/json`. */
	acceptJson?: boolean;
}

/** Where a run whose answer was lost shows up: its result record, newest first in the results list. */
function runStarted(run: ScraperRun): StartedWork {
	return run.scraperId === undefined
		? { what: 'the AI scraper and its first run', check: 'Look for it with Result > Get Many (newest first)' }
		: { what: `the run of scraper "${run.scraperId}"`, check: `Look for its result with Result > Get Many (newest first, Filters > 'Search' ${run.scraperId})` };
}

/**
 * Sends a scraper run (create or rerun) and outputs its result record as the user chose. A run may have started when
 * a request fails, so it is never repeated, and a browser run gets five minutes to answer.
 */
export async function runScraper(call: ExecutionCall, run: ScraperRun, itemIndex: number): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	const output = getOutputChoice(ctx, itemIndex);
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
			timeoutMs: 300_000,
		},
		itemIndex,
	);
	return resultOutput(response.data, output, itemIndex);
}
