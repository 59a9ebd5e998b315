import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { idParameter, readId, UUID_PATTERN } from '../../shared/locator';
import { asRecords, splitIntoItems } from '../../shared/output';
import { decodeResult } from '../../shared/platform';
import { InputValidator } from '../../shared/validation';

const UUID_PLACEHOLDER = '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b';

/** A platform id parameter: a uuid typed, or picked from a list the node reads from the service. */
export function platformIdParameter(
	name: string,
	displayName: string,
	searchListMethod: string,
	description: string,
	required = true,
): INodeProperties[] {
	return idParameter({
		name,
		displayName,
		description,
		required,
		searchListMethod,
		idPattern: UUID_PATTERN,
		placeholder: UUID_PLACEHOLDER,
		legacy: { type: 'string', default: '', placeholder: UUID_PLACEHOLDER },
	});
}

export const scraperIdParameter = (description: string): INodeProperties[] =>
	platformIdParameter('scraperId', 'Scraper ID', 'searchScrapers', description);

export const bulkIdParameter: INodeProperties[] = platformIdParameter(
	'bulkId',
	'Bulk Job ID',
	'searchBulkJobs',
	'The bulk job: pick it from the list, or its ID from the output of Bulk > Start',
);

export const resultIdParameter: INodeProperties[] = platformIdParameter('resultId', 'Result ID', 'searchResults', 'The result record');

/** A uuid id the user chose (picked or typed, any node version), checked before anything is sent. */
export function uuidOf(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): string {
	return new InputValidator(ctx.getNode(), itemIndex).uuid(readId(ctx, name, itemIndex), label);
}

/** Output choices every record-returning operation offers, so spreadsheets and CRMs get rows. */
export function outputOptions(splitDescription: string): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: false,
				description: 'Whether to drop server file paths and audit fields (htmlPath, recordingPath, screenshotPath, dataPath, createdById, updatedById, deletedAt, deletedById)',
			},
			{
				displayName: 'Split Into Items',
				name: 'split',
				type: 'boolean',
				default: false,
				description: splitDescription,
			},
		],
	};
}

export interface OutputChoice {
	simplify: boolean;
	split: boolean;
}

export function getOutputChoice(ctx: IExecuteFunctions, itemIndex: number): OutputChoice {
	const output = ctx.getNodeParameter('output', itemIndex, {}) as IDataObject;
	const v = new InputValidator(ctx.getNode(), itemIndex);
	return {
		simplify: v.boolean(output.simplify ?? false, 'Simplify'),
		split: v.boolean(output.split ?? false, 'Split Into Items'),
	};
}

/**
 * A result record as output: `data` decoded; with Split Into Items, one item per record of `data`
 * (an array, or the `records`/`items`/`results` list inside it), each carrying the result id.
 */
export function resultOutput(record: IDataObject, choice: OutputChoice, itemIndex: number): INodeExecutionData[] {
	const decoded = decodeResult(record, choice.simplify);
	if (!choice.split) return [{ json: decoded }];
	const data = decoded.data as unknown;
	const list = Array.isArray(data) ? data : findList(data);
	if (!list) return [{ json: decoded }];
	return splitIntoItems(asRecords(list), itemIndex, { resultId: decoded.id as string });
}

function findList(data: unknown): unknown[] | undefined {
	if (!data || typeof data !== 'object') return undefined;
	for (const key of ['records', 'items', 'results', 'mergedData', 'pages', 'urls', 'data']) {
		const value = (data as IDataObject)[key];
		if (Array.isArray(value)) return value;
	}
	return undefined;
}
