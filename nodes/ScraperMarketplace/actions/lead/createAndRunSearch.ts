import type { Operation } from '../../../shared/execution/operation';
import { field, rules } from '../../../shared/input/fields';
import { readFields, Request } from '../../../shared/input/fieldSets';
import { createAndRun, createAndRunWaitProperties, NAME, nameProperty, waitingConcurrency } from '../common';

const SEARCH_TYPE = field({
	displayName: 'Search By',
	name: 'searchType',
	type: 'options',
	default: 'keywords',
	options: [
		{ name: 'Keywords', value: 'keywords', description: 'Search the engine for your keywords' },
		{ name: 'URL', value: 'url', description: 'Start from a search results URL' },
	],
	description: 'Whether to search for keywords or start from a URL',
});

const KEYWORDS = field({
	displayName: 'Keywords',
	name: 'keywords',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. marketing agency sydney',
	description: 'The search words',
	displayOptions: { show: { searchType: ['keywords'] } },
});

const RESULTS_URL = field(
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://search.example.com/search?q=marketing+agency',
		description: 'The search results page to start from',
		displayOptions: { show: { searchType: ['url'] } },
	},
	rules.httpUrl,
);

const LIMIT_PAGES = field({
	displayName: 'Max Result Pages',
	name: 'limitPages',
	type: 'number',
	required: true,
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 1,
	description: 'How many result pages to read at most',
});

const SENT_AS = { searchType: 'search_type', limitPages: 'limit_pages' };

/** The request of each Search By: the keywords, or the URL. */
const BY: Record<string, Request> = {
	keywords: new Request([NAME, SEARCH_TYPE, LIMIT_PAGES, KEYWORDS], SENT_AS),
	url: new Request([NAME, SEARCH_TYPE, LIMIT_PAGES, RESULTS_URL], SENT_AS),
};

export const leadCreateAndRunSearch: Operation = {
	value: 'createAndRunSearch',
	name: 'Create and Run Search Engine Scraper',
	action: 'Create and run search engine lead scraper',
	description: 'Find leads (name, company, email, phone…) in search engine results for keywords or a results URL',
	properties: [
		nameProperty('Marketing agencies in Sydney'),
		SEARCH_TYPE.property,
		KEYWORDS.property,
		RESULTS_URL.property,
		LIMIT_PAGES.property,
		...createAndRunWaitProperties('one lead'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const request = BY[SEARCH_TYPE.read(this, itemIndex)];
		const values = readFields(this, itemIndex, request.fields);
		return await createAndRun(call, itemIndex, '/api/scrapers/leads-generator/search/create-and-run', request.body(values), request.labels());
	},
};
