import type { INodeProperties } from 'n8n-workflow';

import { field, rules } from '../../../shared/input/fields';
import { collection } from '../../../shared/input/fieldSets';
import type { Collection } from '../../../shared/input/fieldSets';

/**
 * The vendor's agent options (its MCP server, SDKs and docs): the Listing agent follows up to Max Pages; the Map
 * agent crawls with Max Depth, Max Pages, Limit and URL patterns. Create and Run offers both, Rerun the Map agent's
 * (a map scraper's rerun crawls again); each is sent only when added, with the same ranges everywhere.
 */

const maxPages = (description: string) =>
	field({
		displayName: 'Max Pages',
		name: 'maxPages',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
		default: 50,
		description,
	});

export const LISTING_MAX_PAGES = maxPages('How many listing pages to follow at most (1 to 1000)');

const MAX_DEPTH = field({
	displayName: 'Max Depth',
	name: 'maxDepth',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 5, numberPrecision: 0 },
	default: 2,
	description: 'How many links deep to follow from the URL (0 to 5; 0 is the URL alone)',
});

export const MAP_MAX_PAGES = maxPages('How many pages to visit at most (1 to 1000)');

const RESULT_LIMIT = field({
	displayName: 'Limit',
	// Sent as `limit` (AGENT_OPTION_KEYS); named apart from n8n's list "Limit" convention (default 50), as the
	// service's default is 1000.
	name: 'resultLimit',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100_000, numberPrecision: 0 },
	default: 1000,
	description: 'Max number of results to return (1 to 100,000)',
});

const INCLUDE_PATTERNS = field(
	{
		displayName: 'Include Patterns',
		name: 'includePatterns',
		type: 'string',
		default: '',
		placeholder: 'e.g. /blog/.*',
		description: 'Regular expression: only pages whose URL matches are kept',
	},
	rules.regex,
);

const EXCLUDE_PATTERNS = field(
	{
		displayName: 'Exclude Patterns',
		name: 'excludePatterns',
		type: 'string',
		default: '',
		placeholder: 'e.g. /tag/.*',
		description: 'Regular expression: pages whose URL matches are skipped',
	},
	rules.regex,
);

/** Each agent's options, in the order they are read, checked and sent. */
export const LISTING_OPTION_FIELDS = [LISTING_MAX_PAGES];
export const MAP_OPTION_FIELDS = [MAX_DEPTH, MAP_MAX_PAGES, RESULT_LIMIT, INCLUDE_PATTERNS, EXCLUDE_PATTERNS];

/** The request keys of agent options whose names differ from them. */
export const AGENT_OPTION_KEYS = { [RESULT_LIMIT.name]: 'limit' };

type Shown = Pick<INodeProperties, 'displayOptions' | 'description'>;

/** The Listing agent's options collection (`listingOptions`). */
export const listingOptions = (more: Shown = {}): Collection =>
	collection(
		(options) => ({
			displayName: 'Listing Agent Options',
			name: 'listingOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			description: 'Sent only when added',
			options,
			...more,
		}),
		LISTING_OPTION_FIELDS,
	);

/** The Map agent's options collection (`mapOptions`). */
export const mapOptions = (more: Shown = {}): Collection =>
	collection(
		(options) => ({
			displayName: 'Map Agent Options',
			name: 'mapOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			description: 'Sent only when added; the service applies its own defaults otherwise',
			options,
			...more,
		}),
		MAP_OPTION_FIELDS,
	);
