import type { INodeProperties } from 'n8n-workflow';

import { platformIdParameter } from '../ScraperPlatform/actions/common';

/** Longest backfill offered: 30 days. */
export const MAX_LOOKBACK_HOURS = 720;

export const triggerProperties: INodeProperties[] = [
	...platformIdParameter(
		'scraperId',
		'Scraper ID',
		'searchScrapers',
		'Only trigger for bulk jobs of this scraper. Leave empty to trigger for every scraper.',
		false,
	),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'job',
		options: [
			{
				name: 'One Item per Job',
				value: 'job',
				description: 'Status, summary counts, per-URL details and all merged records in one item',
			},
			{
				name: 'One Item per Merged Record',
				value: 'records',
				description:
					'Each merged record as its own item with the bulk job ID on it, ready for a spreadsheet. Jobs without merged records produce no items.',
			},
		],
		description: 'How to shape what each completed job emits',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Canceled Jobs',
				name: 'includeCanceled',
				type: 'boolean',
				default: false,
				description:
					'Whether to also trigger for jobs in which URLs were canceled. Off: a canceled job is skipped, even its finished URLs.',
			},
			{
				displayName: 'Include Failed Jobs',
				name: 'includeFailed',
				type: 'boolean',
				default: false,
				description:
					'Whether to also trigger for jobs in which every URL failed (they have no merged records). Jobs with at least one successful URL always trigger.',
			},
			{
				displayName: 'Include Jobs Completed in the Last (Hours)',
				name: 'lookbackHours',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_LOOKBACK_HOURS },
				default: 24,
				description:
					'On first activation, also trigger for jobs that completed this many hours before it. Without this option only jobs completing after activation trigger the workflow.',
			},
		],
	},
];
