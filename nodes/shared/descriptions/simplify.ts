import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { isToolCall } from '../execution/tool';
import { field, validatorFor } from '../input/fields';

/** The description n8n prescribes for Simplify. */
export const SIMPLIFY_DESCRIPTION = 'Whether to return a simplified version of the response instead of the raw data';

/** The fields of one kind of record, as Simplify and an AI Agent's Output option read them. */
export interface RecordFields {
	/** The field that names a record: kept whatever the agent selects. */
	id: string;
	/** At most ten top-level fields, the most used first: what Simplify keeps. */
	simplified: readonly string[];
	/** Every field an agent may select. */
	all: readonly string[];
	/** What Simplified gives an AI Agent when it differs from `simplified` (a model reads text: fewer, shorter fields). */
	agent?: readonly string[];
}

/** `scraperId` -> `Scraper ID`, `total_bandwidth_usage` -> `Total Bandwidth Usage`: a field as the editor lists it. */
function fieldLabel(field: string): string {
	return field
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.split(/[\s_]+/)
		.map((word) => (/^(id|url|html|ai)$/i.test(word) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1)))
		.join(' ');
}

/** Simplify, declared once: a node's earlier versions word it their own way (`Field.with`). */
export const SIMPLIFY = field({
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: SIMPLIFY_DESCRIPTION,
});

/** An AI Agent's Output choice; its descriptions name the record's fields, so each node's is built from them. */
const TOOL_OUTPUT = field({
	displayName: 'Output',
	name: 'toolOutput',
	type: 'options',
	default: 'simplified',
	options: [
		{ name: 'Raw', value: 'raw', description: 'Every field the service returns' },
		{ name: 'Selected Fields', value: 'selected', description: 'Only the fields chosen in Fields' },
		{ name: 'Simplified', value: 'simplified', description: 'At most ten fields' },
	],
	description: 'What the agent gets back of each record',
});

/** The fields an agent's Selected Fields keeps; the choices are each node's record fields (checked per node below). */
const TOOL_FIELDS = field(
	{
		displayName: 'Fields',
		name: 'toolFields',
		type: 'multiOptions',
		default: [],
		description: 'The fields the agent gets',
	},
	(v, value, label) => v.textList(value, label),
);

/**
 * Simplify for people, and for an AI Agent's tool call the Output choice (Simplified, Raw or Selected Fields), so an
 * agent reads only what it needs. `show` limits both to where they apply (a node version, an output shape).
 */
export function simplifyProperties(fields: RecordFields, show: IDisplayOptions['show'] = {}): INodeProperties[] {
	const described = { selected: `Only the fields chosen in '${TOOL_FIELDS.label}', and ${fields.id}`, simplified: `At most ten fields: ${(fields.agent ?? fields.simplified).join(', ')}` };
	return [
		{ ...SIMPLIFY.property, displayOptions: { show: { ...show, '@tool': [false] } } },
		{
			...TOOL_OUTPUT.property,
			options: (TOOL_OUTPUT.property.options as INodePropertyOptions[]).map((option) => ({
				...option,
				description: described[option.value as keyof typeof described] ?? option.description,
			})),
			displayOptions: { show: { ...show, '@tool': [true] } },
		},
		{
			...TOOL_FIELDS.property,
			options: fields.all
				.filter((field) => field !== fields.id)
				.map((field) => ({ name: fieldLabel(field), value: field }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			description: `The fields the agent gets, besides ${fields.id}`,
			displayOptions: { show: { ...show, '@tool': [true], toolOutput: ['selected'] } },
		},
	];
}

/** How a record leaves the node: as it is, or with only some of its fields. */
export type Shaping = (record: IDataObject) => IDataObject;

const keepAll: Shaping = (record) => record;

/** The listed fields of a record that it has, in the order listed; for an agent, empty ones are left out too. */
function pick(fields: readonly string[], forAgent = false): Shaping {
	const kept = (value: unknown) => value !== undefined && !(forAgent && (value === null || value === ''));
	return (record) => {
		const out: IDataObject = {};
		for (const field of fields) if (kept(record[field])) out[field] = record[field];
		return out;
	};
}

/**
 * Reads Simplify, or for an agent's tool call the Output choice, and checks them before anything is sent: the
 * shaping chosen, or undefined for the service's answer as it is (Simplify off, Output Raw).
 */
export function readSimplify(ctx: IExecuteFunctions, itemIndex: number, fields: RecordFields): Shaping | undefined {
	if (!isToolCall(ctx)) return SIMPLIFY.read(ctx, itemIndex) ? pick(fields.simplified) : undefined;
	const output = TOOL_OUTPUT.read(ctx, itemIndex);
	if (output === 'raw') return undefined;
	if (output === 'simplified') return pick(fields.agent ?? fields.simplified, true);
	const chosen = TOOL_FIELDS.read(ctx, itemIndex) ?? [];
	if (chosen.length === 0) {
		validatorFor(ctx, itemIndex).fail(TOOL_FIELDS.label, 'no field is selected', `Select the fields the agent needs in '${TOOL_FIELDS.label}', or set '${TOOL_OUTPUT.label}' to 'Simplified'.`);
	}
	return pick([fields.id, ...chosen.filter((field) => field !== fields.id)], true);
}

/** `readSimplify` for records that are shaped either way: the record as it is when nothing is picked. */
export function readShaping(ctx: IExecuteFunctions, itemIndex: number, fields: RecordFields): Shaping {
	return readSimplify(ctx, itemIndex, fields) ?? keepAll;
}
