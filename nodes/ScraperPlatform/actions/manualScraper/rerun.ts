import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { outputOptions, runScraper } from '../common';
import { scraperIdOf, scraperIdParameter } from '../../descriptions/ids';

export const manualScraperRerun: Operation = {
	value: 'rerun',
	name: 'Rerun',
	action: 'Rerun manual scraper',
	description: 'Run a manual scraper on one URL and get its results',
	properties: [
		...scraperIdParameter('The manual scraper, built in the service dashboard'),
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/item/1',
			description: 'The page to scrape',
		},
		...outputOptions('Whether to output one item per scraped record'),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const scraperId = scraperIdOf(this, itemIndex);
		const url = new InputValidator(this.getNode(), itemIndex).httpUrl(this.getNodeParameter('url', itemIndex), 'URL');
		return await runScraper(call, { path: '/api/v1/scrapers-manual-rerun', body: { scraperId, url }, scraperId, acceptJson: true }, itemIndex);
	},
};
