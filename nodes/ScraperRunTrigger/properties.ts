import type { INodeProperties } from 'n8n-workflow';

import { runOutputOptions } from '../ScraperMarketplace/actions/common';
import { INTEGER_ID_PATTERN, locatorProperty } from '../shared/locator';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Scrapers',
		name: 'scrapers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Scraper',
		default: {},
		description: 'Only trigger for runs of these scrapers. None: every scraper of the account.',
		options: [
			{
				displayName: 'Scraper',
				name: 'scraper',
				values: [
					locatorProperty({
						name: 'scraperId',
						displayName: 'Scraper ID',
						description: 'A scraper whose finished runs start the workflow',
						searchListMethod: 'searchScrapers',
						idPattern: INTEGER_ID_PATTERN,
						placeholder: '101',
					}),
				],
			},
		],
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'run',
		options: runOutputOptions('a listing, a lead, a PDF…'),
		description: 'How to shape what each finished run emits',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Failed Runs',
				name: 'includeFailed',
				type: 'boolean',
				default: false,
				description:
					'Whether to also trigger for runs in which every result failed (they have no records). Runs with at least one succeeded result always trigger.',
			},
		],
	},
];
