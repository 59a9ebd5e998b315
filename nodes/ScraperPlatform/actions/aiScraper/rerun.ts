import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { outputOptions, runScraper } from '../common';
import { scraperIdOf, scraperIdParameter } from '../../descriptions/ids';
import { addAgentOptions, mapOptionsProperty } from './agentOptions';

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
		mapOptionsProperty({ description: 'Only for scrapers created with the Map agent. Each option is sent only when added.' }),
		...outputOptions('Whether to output one item per scraped record (e.g. one per listing item or per found page)'),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const scraperId = scraperIdOf(this, itemIndex);
		const body: IDataObject = { scraperId, url: v.httpUrl(this.getNodeParameter('url', itemIndex), 'URL') };
		addAgentOptions(v, 'map', this.getNodeParameter('mapOptions', itemIndex, {}) as IDataObject, body);
		return await runScraper(call, { path: '/api/v1/scrapers-ai-rerun', body, scraperId, acceptJson: true }, itemIndex);
	},
};
