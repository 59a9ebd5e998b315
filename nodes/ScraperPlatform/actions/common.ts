import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { asRecords, splitIntoItems } from '../../shared/output';
import { decodeResult } from '../../shared/platform';
import { InputValidator } from '../../shared/validation';

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
