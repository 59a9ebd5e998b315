import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../../shared/descriptions/collections';
import { asRecords, findList, simplifyRecord, SPLIT_INTO_ITEMS, splitIntoItems } from '../../shared/output/records';
import { readShaping, SIMPLIFY, simplifyProperties } from '../../shared/descriptions/simplify';
import type { Shaping } from '../../shared/descriptions/simplify';
import { collection, readFields } from '../../shared/input/fieldSets';
import { field, rules } from '../../shared/input/fields';
import type { Field } from '../../shared/input/fields';
import type { Collection } from '../../shared/input/fieldSets';
import { decodeResult } from '../transport/api';
import { RESULT_FIELDS, RESULT_LIST_KEYS } from '../transport/vocabulary';
import { BEFORE_OPTIONS, FROM_OPTIONS, PLATFORM_VERSIONS } from '../versions';

/**
 * Simplify before version 3: under Output in the record-returning operations, under Options in Result > Get Many,
 * off by default and dropping server file paths and audit fields (`NOISE_FIELDS`). Saved workflows keep it so.
 */
export const LEGACY_SIMPLIFY = SIMPLIFY.with({ default: false });

/** The version 1-2 Simplify as read (undefined: not added, off). */
export function legacyShaping(simplify: boolean | undefined): Shaping {
	return simplify ? (record) => simplifyRecord(record) : (record) => record;
}

/** The page a scraper starts from, declared once for the operations that create or rerun one (each words its own). */
export const SCRAPE_URL = field(
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/products',
		description: 'The page to scrape',
	},
	rules.httpUrl,
);

/** Simplify and, for an agent, the Output choice of a result record, from version 3. */
export const resultSimplifyProperties: INodeProperties[] = simplifyProperties(RESULT_FIELDS, FROM_OPTIONS);

export interface OutputChoice {
	shape: Shaping;
	split: boolean;
}

/**
 * Output choices every record-returning operation offers, so spreadsheets and CRMs get rows: before version 3 an
 * Output collection (Simplify, Split Into Items); from version 3 Simplify on top and Split Into Items under Options.
 */
export class RecordOutput {
	readonly split: Field<boolean>;
	private readonly legacy: Collection;
	/** Options from version 3: Split Into Items and the operation's own options (`optionFields`), sorted by label. */
	readonly options: Collection;

	constructor(splitDescription: string, optionFields: ReadonlyArray<Field<unknown, unknown>> = []) {
		this.split = SPLIT_INTO_ITEMS.with({ description: splitDescription });
		this.legacy = collection(
			(options) => ({ displayName: 'Output', name: 'output', type: 'collection', placeholder: 'Add Option', default: {}, options, displayOptions: { show: BEFORE_OPTIONS } }),
			[LEGACY_SIMPLIFY, this.split],
		);
		this.options = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), [this.split, ...optionFields]);
	}

	get properties(): INodeProperties[] {
		return [this.legacy.property, ...resultSimplifyProperties, this.options.property];
	}

	/** The choice as the workflow's version keeps it, checked before anything is sent. */
	read(ctx: IExecuteFunctions, itemIndex: number): OutputChoice {
		if (ctx.getNode().typeVersion < PLATFORM_VERSIONS.options) {
			const values = readFields(ctx, itemIndex, [this.legacy]);
			return { shape: legacyShaping(values.of(LEGACY_SIMPLIFY)), split: values.of(this.split) ?? false };
		}
		const shape = readShaping(ctx, itemIndex, RESULT_FIELDS);
		return { shape, split: readFields(ctx, itemIndex, [this.options]).of(this.split) ?? false };
	}
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
