import type { Operation } from '../../../shared/operation';
import { platformRequest } from '../../../shared/platform';
import { InputValidator } from '../../../shared/validation';
import { getOutputChoice, outputOptions, resultOutput, scraperIdParameter, uuidOf } from '../common';

export const manualScraperRerun: Operation = {
	value: 'rerun',
	name: 'Rerun',
	action: 'Rerun a manual scraper',
	description: 'Run a manual scraper on one URL and get its results',
	properties: [
		...scraperIdParameter('The manual scraper, built in the service dashboard'),
		{
			displayName: 'URL',
			name: 'url',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://example.com/item/1',
			description: 'The page to scrape',
		},
		outputOptions('Whether to output one item per scraped record'),
	],
	parallel: true,
	async execute(itemIndex) {
		const scraperId = uuidOf(this, 'scraperId', 'Scraper ID', itemIndex);
		const url = new InputValidator(this.getNode(), itemIndex).httpUrl(this.getNodeParameter('url', itemIndex), 'URL');
		const output = getOutputChoice(this, itemIndex);
		const response = await platformRequest(
			this,
			{
				method: 'POST',
				path: '/api/v1/scrapers-manual-rerun',
				body: { scraperId, url },
				// Without it the service refuses the rerun.
				headers: { accept: 'application/json' },
				idempotent: false,
				subject: { kind: 'scraper', id: scraperId },
				timeoutMs: 300_000,
			},
			itemIndex,
		);
		return resultOutput(response.data, output, itemIndex);
	},
};
