import type { IDataObject } from 'n8n-workflow';

import { SUBJECT } from '../../transport/vocabulary';
import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { integerIdOf, marketplaceIdParameter, runAnswer, startRuns, waitingConcurrency, waitProperties } from '../common';

export const scraperRun: Operation = {
	value: 'run',
	name: 'Run',
	action: 'Run scraper',
	description: 'Run an existing scraper again, on its own URLs or on URLs you give',
	properties: [
		...marketplaceIdParameter(
			'scraperId',
			'Scraper ID',
			'searchScrapers',
			'The scraper to run: pick it from the list, or its scraper_id, e.g. from the output of a Create and Run',
			'101',
		),
		{
			displayName: 'URLs',
			name: 'urls',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'e.g. https://example.com/page-1\nhttps://example.com/page-2',
			description: "Leave empty to scrape the scraper's own URLs. Otherwise one URL per line (or separated by commas), used instead of them.",
		},
		...waitProperties('one record'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const scraperId = integerIdOf(this, 'scraperId', 'Scraper ID', itemIndex);
		const urls = v.httpUrlList(this.getNodeParameter('urls', itemIndex, ''), 'URLs', { required: false });
		const body: IDataObject = {};
		if (urls.length > 0) body.urls = urls;

		return await startRuns(
			call,
			itemIndex,
			{
				path: `/api/scrapers/${scraperId}/run`,
				body,
				subject: { kind: SUBJECT.scraper, id: scraperId },
				started: { what: `a run of scraper ${scraperId}`, check: `Look for it with Scraping Run > Get Latest ('Scraper ID' ${scraperId})` },
			},
			{ urls: 'URLs', scraper_id: 'Scraper ID' },
			runAnswer,
		);
	},
};
