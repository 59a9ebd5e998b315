import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { createAndRun, createAndRunWaitProperties, nameProperty, waitingConcurrency } from '../common';

const SEARCH_TYPES = ['url', 'keywords'] as const;

const LABELS = {
	search_type: 'Search By',
	limit_pages: 'Max Result Pages',
	keywords: 'Keywords',
	url: 'URL',
};

export const leadCreateAndRunSearch: Operation = {
	value: 'createAndRunSearch',
	name: 'Create and Run Search Engine Scraper',
	action: 'Create and run search engine lead scraper',
	description: 'Find leads (name, company, email, phone…) in search engine results for keywords or a results URL',
	properties: [
		nameProperty('Marketing agencies in Sydney'),
		{
			displayName: 'Search By',
			name: 'searchType',
			type: 'options',
			default: 'keywords',
			options: [
				{ name: 'Keywords', value: 'keywords', description: 'Search the engine for your keywords' },
				{ name: 'URL', value: 'url', description: 'Start from a search results URL' },
			],
			description: 'Whether to search for keywords or start from a URL',
		},
		{
			displayName: 'Keywords',
			name: 'keywords',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. marketing agency sydney',
			description: 'The search words',
			displayOptions: { show: { searchType: ['keywords'] } },
		},
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
		{
			displayName: 'Max Result Pages',
			name: 'limitPages',
			type: 'number',
			required: true,
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description: 'How many result pages to read at most',
		},
		...createAndRunWaitProperties('one lead'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const searchType = v.oneOf(this.getNodeParameter('searchType', itemIndex), 'Search By', SEARCH_TYPES);
		const body: IDataObject = {
			name: v.requiredString(this.getNodeParameter('name', itemIndex), 'Name'),
			search_type: searchType,
			limit_pages: v.integer(this.getNodeParameter('limitPages', itemIndex), 'Max Result Pages', { min: 1 }),
		};
		if (searchType === 'keywords') body.keywords = v.requiredString(this.getNodeParameter('keywords', itemIndex, ''), 'Keywords');
		else body.url = v.httpUrl(this.getNodeParameter('url', itemIndex, ''), 'URL');

		return await createAndRun(call, itemIndex, '/api/scrapers/leads-generator/search/create-and-run', body, LABELS);
	},
};
