import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { field } from '../../../shared/input/fields';
import { jsonSchemaRule } from '../../../shared/input/jsonSchema';
import { asRecords } from '../../../shared/output/records';
import { decodeResult } from '../../transport/api';
import { RESULT_LIST_KEYS } from '../../transport/vocabulary';
import type { OutputChoice } from '../common';
import { schemaBreaks } from './schemaCheck';

/**
 * The Output Schema of Create and Run: a JSON Schema, checked before sending by the rules the Job Board's schema
 * follows, told to the agent with the instruction, and held against every extracted record after the run, so a
 * sheet receives only rows of the shape it expects (or every row, flagged).
 */

export const OUTPUT_SCHEMA = field(
	{
		displayName: 'Output Schema',
		name: 'outputSchema',
		type: 'json',
		default: '',
		placeholder: 'e.g. {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}',
		description: 'JSON Schema of one extracted record. The agent is told it; after the run each record is checked against it.',
	},
	jsonSchemaRule('outputSchema'),
);

export const NOT_MATCHING = field({
	displayName: 'Records Not Matching Schema',
	name: 'notMatching',
	type: 'options',
	default: 'keep',
	options: [
		{ name: 'Drop and Flag', value: 'drop', description: 'Output only matching records; schemaErrors says what the others broke' },
		{ name: 'Keep and Flag', value: 'keep', description: 'Output every record; schemaErrors says what each breaks' },
	],
	description: 'What happens to extracted records that break the Output Schema',
});

/** The instruction with the schema the agent is asked to follow. */
export function withSchema(instruction: string, schema: IDataObject): string {
	return `${instruction}\n\nReturn the data as JSON that matches this JSON Schema: ${JSON.stringify(schema)}`;
}

/** The records of a result's data: its list (where the service keeps one), else the one object it is. */
function recordsOf(data: unknown): { records: unknown[]; replace: (kept: unknown[]) => unknown } {
	if (Array.isArray(data)) return { records: data, replace: (kept) => kept };
	const key = data !== null && typeof data === 'object' ? RESULT_LIST_KEYS.find((name) => Array.isArray((data as IDataObject)[name])) : undefined;
	if (key) return { records: (data as IDataObject)[key] as unknown[], replace: (kept) => ({ ...(data as IDataObject), [key]: kept }) };
	return { records: data === undefined || data === null ? [] : [data], replace: (kept) => kept[0] ?? null };
}

/**
 * The result as output with its records checked: one item (the result, `data` without the dropped records when
 * dropping, `matchingRecords` and the flat `schemaErrors`, "record 2: $.price must be number, …"), or with Split Into
 * Items one item per record kept, each with `schemaMatches` and its own `schemaErrors`. When every record is dropped,
 * one item says so: no input item goes without an output.
 */
export function checkedOutput(record: IDataObject, choice: OutputChoice, schema: IDataObject, drop: boolean, itemIndex: number): INodeExecutionData[] {
	const decoded = decodeResult(record);
	const { records, replace } = recordsOf(decoded.data);
	const checked = records.map((entry) => ({ entry, breaks: schemaBreaks(entry, schema) }));
	const kept = drop ? checked.filter(({ breaks }) => breaks.length === 0) : checked;
	const matchingRecords = checked.filter(({ breaks }) => breaks.length === 0).length;
	const schemaErrors = checked.flatMap(({ breaks }, i) => breaks.map((text) => `record ${i + 1}: ${text}`));
	const pairedItem = { item: itemIndex };
	if (!choice.split) {
		const data = drop ? replace(kept.map(({ entry }) => entry)) : decoded.data;
		return [{ json: { ...choice.shape({ ...decoded, data: data as IDataObject }), matchingRecords, schemaErrors }, pairedItem }];
	}
	if (kept.length === 0) return [{ json: { resultId: decoded.id, matchingRecords, records: checked.length, schemaErrors }, pairedItem }];
	const entries = asRecords(kept.map(({ entry }) => entry));
	return entries.map((json, i) => ({ json: { resultId: decoded.id, ...json, schemaMatches: kept[i].breaks.length === 0, schemaErrors: kept[i].breaks }, pairedItem }));
}
