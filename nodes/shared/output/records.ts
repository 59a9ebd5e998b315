import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { field } from '../input/fields';

/** Fields a spreadsheet or CRM never needs: server file paths and audit columns. */
const NOISE_FIELDS = [
	'htmlPath',
	'recordingPath',
	'screenshotPath',
	'dataPath',
	'createdById',
	'updatedById',
	'deletedAt',
	'deletedById',
] as const;

/** Drops file paths and audit fields (and any extra names given). */
export function simplifyRecord(record: IDataObject, extra: readonly string[] = []): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		if ((NOISE_FIELDS as readonly string[]).includes(key) || extra.includes(key)) continue;
		out[key] = value;
	}
	return out;
}

/**
 * The list a service answer carries: the value itself when it is an array, else the first array found under one of
 * `keys` (each API names where its lists live). Undefined when there is none.
 */
export function findList(value: unknown, keys: readonly string[]): unknown[] | undefined {
	if (Array.isArray(value)) return value;
	if (!value || typeof value !== 'object') return undefined;
	for (const key of keys) {
		const inner = (value as IDataObject)[key];
		if (Array.isArray(inner)) return inner;
	}
	return undefined;
}

/** Records as they come (objects) or as scalars wrapped in `{ value }`, so every item has a json object. */
export function asRecords(value: unknown): IDataObject[] {
	if (value === undefined || value === null) return [];
	const list = Array.isArray(value) ? value : [value];
	return list.map((entry) =>
		entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as IDataObject) : { value: entry as IDataObject[keyof IDataObject] },
	);
}

/**
 * Split Into Items, declared once for every operation whose answer holds records (as `splitIntoItems` outputs them);
 * each operation says what one item is then, and where its answer is a list to begin with, its default.
 */
export const SPLIT_INTO_ITEMS = field({
	displayName: 'Split Into Items',
	name: 'split',
	type: 'boolean',
	default: false,
	description: 'Whether to output one item per record instead of one item with the whole answer',
});

/**
 * One output item per record, each carrying `context` fields (e.g. the job id) first and `trailer` fields (e.g. the
 * payment receipt) last.
 */
export function splitIntoItems(
	records: IDataObject[],
	itemIndex: number,
	context: IDataObject = {},
	trailer: IDataObject = {},
): INodeExecutionData[] {
	// Built from entries, not `{...context, ...record}`: V8 gives such spread objects a padded property store,
	// about 240 bytes more per record (test/bench figure 5). Same keys, same order, the record wins a clash.
	const contextEntries = Object.entries(context);
	const trailerEntries = Object.entries(trailer);
	// One pairing object for all of them: n8n reads pairings and never changes them; 10,000 copies would be 0.3 MB.
	const pairedItem = { item: itemIndex };
	return records.map((record) => ({
		json: Object.fromEntries([...contextEntries, ...Object.entries(record), ...trailerEntries]) as IDataObject,
		pairedItem,
	}));
}

export async function binaryFromText(
	ctx: IExecuteFunctions,
	text: string,
	fileName: string,
	mimeType: string,
): Promise<IBinaryData> {
	return await ctx.helpers.prepareBinaryData(Buffer.from(text, 'utf8'), fileName, mimeType);
}

/** A file-name-safe slug of a URL or label, e.g. for `example-com-pricing.html`. */
export function fileSlug(text: string, fallback = 'file'): string {
	const slug = text
		.replace(/^https?:\/\//i, '')
		.replace(/[^a-z0-9]+/gi, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 80)
		.toLowerCase();
	return slug || fallback;
}
