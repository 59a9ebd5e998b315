import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../shared/descriptions/collections';
import { readId } from '../../shared/descriptions/locator';
import { InputValidator } from '../../shared/input/validation';
import { scraperIdParameter } from '../descriptions/ids';
import { BULK_OUTPUTS, bulkOutputOptions } from '../descriptions/bulkOutput';
import type { BulkOutput } from '../descriptions/bulkOutput';

/** Longest backfill offered: 30 days. */
const MAX_LOOKBACK_HOURS = 720;

export const triggerProperties: INodeProperties[] = [
	...scraperIdParameter('Only trigger for bulk jobs of this scraper. Leave empty to trigger for every scraper.', false),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'job',
		options: bulkOutputOptions('. Jobs without merged records produce no items.'),
		description: 'How to shape what each completed job emits',
	},
	optionsCollection([
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
	]),
];

export interface TriggerParameters {
	scraperId?: string;
	output: BulkOutput;
	includeFailed: boolean;
	includeCanceled: boolean;
	lookbackHours?: number;
}

/** Reads and checks every parameter before any request. */
export function readParameters(ctx: IPollFunctions): TriggerParameters {
	const v = new InputValidator(ctx.getNode(), 0);
	const scraperIdText = v.optionalString(readId(ctx, 'scraperId', 0, ''), 'Scraper ID');
	const scraperId = scraperIdText === undefined ? undefined : v.uuid(scraperIdText, 'Scraper ID');
	const output = v.oneOf(ctx.getNodeParameter('output', 'job'), 'Output', BULK_OUTPUTS);
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const includeFailed = options.includeFailed === undefined ? false : v.boolean(options.includeFailed, 'Include Failed Jobs');
	const includeCanceled =
		options.includeCanceled === undefined ? false : v.boolean(options.includeCanceled, 'Include Canceled Jobs');
	const lookbackHours = v.optionalInteger(options.lookbackHours, 'Include Jobs Completed in the Last (Hours)', {
		min: 1,
		max: MAX_LOOKBACK_HOURS,
	});
	return { scraperId, output, includeFailed, includeCanceled, lookbackHours };
}
