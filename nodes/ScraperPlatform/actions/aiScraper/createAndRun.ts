import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/operation';
import { platformRequest } from '../../../shared/platform';
import { InputValidator } from '../../../shared/validation';
import { getOutputChoice, outputOptions, resultOutput } from '../common';

export const AGENTS = ['general', 'map', 'listing'] as const;

export const aiScraperCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run an AI scraper',
	description: 'Create an AI scraper from a prompt and run it once on a URL',
	properties: [
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://example.com/products',
			description: 'The page the scraper starts from',
		},
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			required: true,
			typeOptions: { rows: 4 },
			default: '',
			placeholder: 'Extract every product with its name, price and rating',
			description: 'What to extract, in plain language',
			hint: 'The first run returns example code and example output only, not final results. Keep the Scraper ID from the output and use Rerun to get full results.',
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
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Proxy Country',
					name: 'proxyCountry',
					type: 'string',
					default: '',
					placeholder: 'us',
					description: 'Two-letter country code of the proxy the page is fetched through',
				},
			],
		},
		outputOptions('Whether to output one item per record of the example output'),
	],
	parallel: true,
	async execute(itemIndex) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const body: IDataObject = {
			url: v.httpUrl(this.getNodeParameter('url', itemIndex), 'URL'),
			prompt: v.requiredString(this.getNodeParameter('prompt', itemIndex), 'Prompt'),
			agent: v.oneOf(this.getNodeParameter('agent', itemIndex), 'Agent', AGENTS),
		};
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		const proxyCountry = v.optionalString(additional.proxyCountry, 'Proxy Country');
		if (proxyCountry !== undefined) {
			if (!/^[a-zA-Z]{2}$/.test(proxyCountry)) {
				v.fail('Proxy Country', `"${proxyCountry}" is not a two-letter country code`, 'Enter a code such as us, gb or de.');
			}
			body.proxyCountry = proxyCountry;
		}
		const output = getOutputChoice(this, itemIndex);
		const response = await platformRequest(
			this,
			{ method: 'POST', path: '/api/v1/scrapers-ai', body, idempotent: false, subject: { kind: 'scraper' }, timeoutMs: 300_000 },
			itemIndex,
		);
		return resultOutput(response.data, output, itemIndex);
	},
};
