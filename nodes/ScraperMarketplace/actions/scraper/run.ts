import type { IDataObject } from 'n8n-workflow';

import { marketplaceRequest } from '../../api';
import type { Operation } from '../../../shared/operation';
import { InputValidator } from '../../../shared/validation';
import { finishRuns, readWaitChoice, waitingConcurrency, waitProperties } from '../common';

export const scraperRun: Operation = {
	value: 'run',
	name: 'Run',
	action: 'Run a scraper',
	description: 'Run an existing scraper again, on its own URLs or on URLs you give',
	properties: [
		{
			displayName: 'Scraper ID',
			name: 'scraperId',
			type: 'number',
			required: true,
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 0,
			placeholder: '101',
			description: 'The scraper_id of the scraper, e.g. from the output of a Create and Run',
		},
		{
			displayName: 'URLs',
			name: 'urls',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'https://example.com/page-1\nhttps://example.com/page-2',
			description: "Leave empty to scrape the scraper's own URLs. Otherwise one URL per line (or separated by commas), used instead of them.",
		},
		...waitProperties('one record'),
	],
	concurrency: waitingConcurrency,
	async execute(itemIndex) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const scraperId = v.integer(this.getNodeParameter('scraperId', itemIndex), 'Scraper ID', { min: 1 });
		const urls = v.httpUrlList(this.getNodeParameter('urls', itemIndex, ''), 'URLs', { required: false });
		const body: IDataObject = {};
		if (urls.length > 0) body.urls = urls;
		const wait = readWaitChoice(this, itemIndex);

		const response = await marketplaceRequest<{ data?: IDataObject[] }>(
			this,
			{
				method: 'POST',
				path: `/api/scrapers/${scraperId}/run`,
				body,
				idempotent: false,
				subject: { kind: 'scraper', id: scraperId },
				timeoutMs: 300_000,
			},
			itemIndex,
			{ urls: 'URLs', scraper_id: 'Scraper ID' },
		);
		const records = Array.isArray(response.data) ? response.data : [];
		return await finishRuns(
			this,
			itemIndex,
			wait,
			records,
			records.map((json) => ({ json })),
		);
	},
};
