import type { IExecuteFunctions, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { shownBefore, shownFrom } from './collections';

interface IdParameter {
	name: string;
	displayName: string;
	description: string;
	/** The `listSearch` method of the node that lists the choices. */
	searchListMethod: string;
	/** Shape of a typed id, checked by the editor in By ID mode (the node checks it again before sending). */
	idPattern: { regex: string; errorMessage: string };
	/** An example id, shown after "e.g." in both shapes. */
	example: string;
	required?: boolean;
	/** The parameter as version 1 stored it (a plain text or number field), kept so saved workflows still load. */
	legacy: Omit<INodeProperties, 'name' | 'displayName' | 'displayOptions'>;
	/** The node's version that turned the field into a resource locator (`From list` / `By ID`). */
	since: number;
}

/**
 * An id parameter in both its shapes: the version 1 text/number field, and from version `since` a resource locator
 * whose list comes from the service (only the locator when `since` is 1). Both have the same name, so an operation
 * reads it the same way (`readId`) whatever version the workflow was saved with.
 */
export function idParameter(spec: IdParameter): INodeProperties[] {
	const required = spec.required ?? true;
	// A node born with the locator (its version 1) has no plain field to keep.
	if (spec.since <= 1) return [locatorProperty(spec)];
	return [
		{
			...spec.legacy,
			placeholder: `e.g. ${spec.example}`,
			displayName: spec.displayName,
			name: spec.name,
			required,
			description: spec.description,
			displayOptions: { show: shownBefore(spec.since) },
		} as INodeProperties,
		{ ...locatorProperty(spec), displayOptions: { show: shownFrom(spec.since) } },
	];
}

/** The resource locator alone, for a parameter that never had a version 1 (a new node, a list of scrapers). */
export function locatorProperty(spec: Omit<IdParameter, 'legacy' | 'since'>): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		required: spec.required ?? true,
		default: { mode: 'list', value: '' },
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${spec.displayName.replace(/ ID$/, '')}...`,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${spec.example}`,
				validation: [{ type: 'regex', properties: spec.idPattern }],
			},
		],
	};
}

/** A locator's value as stored (`{__rl, mode, value}`), or a plain value as is: for locators inside a collection. */
export function locatorValue(stored: unknown): unknown {
	return stored !== null && typeof stored === 'object' && 'value' in stored ? (stored as { value: unknown }).value : stored;
}

/** The id the user chose: the locator's value from version 2, the plain value before; the caller checks its shape. */
export function readId(ctx: IExecuteFunctions | IPollFunctions, name: string, itemIndex: number, fallback: unknown = ''): unknown {
	return 'getInputData' in ctx
		? ctx.getNodeParameter(name, itemIndex, fallback, { extractValue: true })
		: ctx.getNodeParameter(name, fallback, { extractValue: true });
}

export const UUID_PATTERN = {
	regex: '^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$',
	errorMessage: 'Enter a UUID, e.g. 3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b',
};

export const INTEGER_ID_PATTERN = { regex: '^\\s*[1-9][0-9]*\\s*$', errorMessage: 'Enter a whole number, e.g. 101' };

/** The most ids a list token remembers: beyond it an entry may show twice, which is harmless. */
const MAX_REMEMBERED = 1_000;

/**
 * Where a `From list` picker is in the service's listing: the next page, and the entries already shown. Lists built
 * from results (a scraper, a run) meet the same entry on several pages; n8n joins the pages, so the token carries
 * what was shown to list each entry once.
 */
export interface ListPosition {
	page: number;
	shown: Set<string>;
}

export function readListToken(token: string | undefined): ListPosition {
	if (!token) return { page: 1, shown: new Set() };
	try {
		const parsed = JSON.parse(token) as { page?: unknown; shown?: unknown };
		const page = typeof parsed.page === 'number' && Number.isInteger(parsed.page) && parsed.page >= 1 ? parsed.page : 1;
		const shown = Array.isArray(parsed.shown) ? parsed.shown.filter((id): id is string => typeof id === 'string') : [];
		return { page, shown: new Set(shown) };
	} catch {
		return { page: 1, shown: new Set() };
	}
}

/** The token of the page after `page`, or undefined on the last page; `shown` for lists that can meet an entry again. */
export function nextListToken(page: number, more: boolean, shown: Iterable<string> = []): string | undefined {
	if (!more) return undefined;
	return JSON.stringify({ page: page + 1, shown: [...shown].slice(-MAX_REMEMBERED) });
}
