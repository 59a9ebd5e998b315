import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/operation';
import { InputValidator } from '../../../shared/validation';
import { outputOptions, runScraper, scraperIdOf, scraperIdParameter } from '../common';

export const aiScraperRerun: Operation = {
	value: 'rerun',
	name: 'Rerun',
	action: 'Rerun AI scraper',
	description: 'Run an existing AI scraper on a URL and get its full results',
	properties: [
		...scraperIdParameter('The AI scraper: pick it from the list, or the scraperId returned by Create and Run'),
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/products?page=2',
			description: 'The page to scrape. Reruns reuse cached results to save tokens and time.',
		},
		{
			displayName: 'Map Agent Options',
			name: 'mapOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			description: 'Only for scrapers created with the Map agent. Each option is sent only when added.',
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
					typeOptions: { minValue: 1 },
					default: 1000,
					description: 'Max number of results to return',
				},
				{
					displayName: 'Max Depth',
					name: 'maxDepth',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 2,
					description: 'How many links deep to follow from the URL',
				},
				{
					displayName: 'Max Pages',
					name: 'maxPages',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 50,
					description: 'How many pages to visit at most',
				},
			],
		},
		...outputOptions('Whether to output one item per scraped record (e.g. one per listing item or per found page)'),
	],
	parallel: true,
	async execute(itemIndex) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const scraperId = scraperIdOf(this, itemIndex);
		const body: IDataObject = { scraperId, url: v.httpUrl(this.getNodeParameter('url', itemIndex), 'URL') };
		const map = this.getNodeParameter('mapOptions', itemIndex, {}) as IDataObject;
		// Each map option is sent only when added; Limit goes out as `limit`.
		const numbers = [
			['maxDepth', 'maxDepth', 'Max Depth'],
			['maxPages', 'maxPages', 'Max Pages'],
			['resultLimit', 'limit', 'Limit'],
		] as const;
		for (const [name, field, label] of numbers) {
			const value = v.optionalInteger(map[name], label, { min: 1 });
			if (value !== undefined) body[field] = value;
		}
		for (const [name, label] of [['includePatterns', 'Include Patterns'], ['excludePatterns', 'Exclude Patterns']] as const) {
			const pattern = v.regex(map[name], label);
			if (pattern !== undefined) body[name] = pattern;
		}
		return await runScraper(this, { path: '/api/v1/scrapers-ai-rerun', body, scraperId, acceptJson: true }, itemIndex);
	},
};
