import type { IDataObject } from 'n8n-workflow';

import { additionalFields } from '../../../shared/collections';
import type { Operation } from '../../../shared/operation';
import { InputValidator } from '../../../shared/validation';
import { AI_AGENTS } from '../../vocabulary';
import { outputOptions, runScraper } from '../common';

export const aiScraperCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run AI scraper',
	description: 'Create an AI scraper from a prompt and run it once on a URL',
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/products',
			description: 'The page the scraper starts from',
		},
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			required: true,
			typeOptions: { rows: 4 },
			default: '',
			placeholder: 'e.g. Extract every product with its name, price and rating',
			description: 'What to extract, in plain language',
			hint: "The first run gives sample output only: keep the 'Scraper ID' it returns and use Rerun for full results",
		},
		{
			displayName: 'Agent',
			name: 'agent',
			type: 'options',
			default: 'general',
			options: [
				{ name: 'General', value: 'general', description: 'Extract fields from one page' },
				{ name: 'Listing', value: 'listing', description: 'Extract a list of similar items (products, posts, jobs)' },
				{ name: 'Map', value: 'map', description: 'Find the pages of a site by following its links' },
			],
			description: 'The kind of AI agent that runs the scraper',
		},
		additionalFields([
			{
				displayName: 'Proxy Country',
				name: 'proxyCountry',
				type: 'string',
				default: '',
				placeholder: 'e.g. us',
				description: 'Two-letter country code of the proxy the page is fetched through',
			},
		]),
		...outputOptions('Whether to output one item per record of the example output'),
	],
	parallel: true,
	async execute(itemIndex) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const body: IDataObject = {
			url: v.httpUrl(this.getNodeParameter('url', itemIndex), 'URL'),
			prompt: v.requiredString(this.getNodeParameter('prompt', itemIndex), 'Prompt'),
			agent: v.oneOf(this.getNodeParameter('agent', itemIndex), 'Agent', AI_AGENTS),
		};
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const proxyCountry = v.countryCode(additional.proxyCountry, 'Proxy Country');
		if (proxyCountry !== undefined) body.proxyCountry = proxyCountry;
		return await runScraper(this, { path: '/api/v1/scrapers-ai', body }, itemIndex);
	},
};
