import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputValidator } from '../../../shared/input/validation';

/**
 * The vendor's agent options (its MCP server, SDKs and docs): the Listing agent follows up to Max Pages; the Map
 * agent crawls with Max Depth, Max Pages, Limit and URL patterns. Create and Run offers both, Rerun the Map agent's
 * (a map scraper's rerun crawls again); each is sent only when added, with the same ranges everywhere.
 */

const maxPages = (description: string): INodeProperties => ({
	displayName: 'Max Pages',
	name: 'maxPages',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
	default: 50,
	description,
});

/** The Listing agent's options collection (`listingOptions`). */
export const listingOptionsProperty = (more: Pick<INodeProperties, 'displayOptions' | 'description'> = {}): INodeProperties => ({
	displayName: 'Listing Agent Options',
	name: 'listingOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Sent only when added',
	options: [maxPages('How many listing pages to follow at most (1 to 1000)')],
	...more,
});

/** The Map agent's options collection (`mapOptions`). */
export const mapOptionsProperty = (more: Pick<INodeProperties, 'displayOptions' | 'description'> = {}): INodeProperties => ({
	displayName: 'Map Agent Options',
	name: 'mapOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Sent only when added; the service applies its own defaults otherwise',
	options: [
		{
			displayName: 'Exclude Patterns',
			name: 'excludePatterns',
			type: 'string',
			default: '',
			placeholder: 'e.g. /tag/.*',
			description: 'Regular expression: pages whose URL matches are skipped',
		},
		{
			displayName: 'Include Patterns',
			name: 'includePatterns',
			type: 'string',
			default: '',
			placeholder: 'e.g. /blog/.*',
			description: 'Regular expression: only pages whose URL matches are kept',
		},
		{
			displayName: 'Limit',
			// Sent as `limit`; named apart from n8n's list "Limit" convention (default 50), as the service's default is 1000.
			name: 'resultLimit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100_000, numberPrecision: 0 },
			default: 1000,
			description: 'Max number of results to return (1 to 100,000)',
		},
		{
			displayName: 'Max Depth',
			name: 'maxDepth',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 5, numberPrecision: 0 },
			default: 2,
			description: 'How many links deep to follow from the URL (0 to 5; 0 is the URL alone)',
		},
		maxPages('How many pages to visit at most (1 to 1000)'),
	],
	...more,
});

type OptionsAgent = 'listing' | 'map';

/** Numbers of each agent's options: parameter name, field sent, label, range. */
const NUMBERS = {
	listing: [['maxPages', 'maxPages', 'Max Pages', { min: 1, max: 1000 }]],
	map: [
		['maxDepth', 'maxDepth', 'Max Depth', { min: 0, max: 5 }],
		['maxPages', 'maxPages', 'Max Pages', { min: 1, max: 1000 }],
		['resultLimit', 'limit', 'Limit', { min: 1, max: 100_000 }],
	],
} as const;

/** An agent's options as set (`options`), each checked and added to `body` only when set. */
export function addAgentOptions(v: InputValidator, agent: OptionsAgent, options: IDataObject, body: IDataObject): void {
	for (const [name, field, label, range] of NUMBERS[agent]) {
		const value = v.optionalInteger(options[name], label, range);
		if (value !== undefined) body[field] = value;
	}
	if (agent !== 'map') return;
	for (const [name, label] of [['includePatterns', 'Include Patterns'], ['excludePatterns', 'Exclude Patterns']] as const) {
		const pattern = v.regex(options[name], label);
		if (pattern !== undefined) body[name] = pattern;
	}
}
