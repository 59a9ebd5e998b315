import type { INodeProperties, IPollFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../shared/descriptions/collections';
import { field, rules } from '../../shared/input/fields';
import { collection, readFields } from '../../shared/input/fieldSets';
import { optionalScraperId } from '../descriptions/ids';
import { BULK_OUTPUTS, bulkOutputOptions } from '../descriptions/bulkOutput';
import type { BulkOutput } from '../descriptions/bulkOutput';
import { BULK_TRIGGER_VERSIONS } from '../versions';

/** Longest backfill offered: 30 days. */
const MAX_LOOKBACK_HOURS = 720;

const SCRAPER_ID_DESCRIPTION = 'Only trigger for bulk jobs of this scraper. Leave empty to trigger for every scraper.';
/** Read the same in both shapes (a text or a locator), so one field reads every trigger's. */
const SCRAPER_ID = optionalScraperId(SCRAPER_ID_DESCRIPTION, BULK_TRIGGER_VERSIONS.locator);

const OUTPUT = field(
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'job',
		options: bulkOutputOptions('. Jobs without merged records produce no items.'),
		description: 'How to shape what each completed job emits',
	},
	rules.oneOf(BULK_OUTPUTS),
);

const INCLUDE_CANCELED = field({
	displayName: 'Include Canceled Jobs',
	name: 'includeCanceled',
	type: 'boolean',
	default: false,
	description: 'Whether to also trigger for jobs in which URLs were canceled. Off: a canceled job is skipped, even its finished URLs.',
});

const INCLUDE_FAILED = field({
	displayName: 'Include Failed Jobs',
	name: 'includeFailed',
	type: 'boolean',
	default: false,
	description:
		'Whether to also trigger for jobs in which every URL failed (they have no merged records). Jobs with at least one successful URL always trigger.',
});

const LOOKBACK_HOURS = field({
	displayName: 'Include Jobs Completed in the Last (Hours)',
	name: 'lookbackHours',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_LOOKBACK_HOURS, numberPrecision: 0 },
	default: 24,
	description:
		'On first activation, also trigger for jobs that completed this many hours before it. Without this option only jobs completing after activation trigger the workflow.',
});

/** Read in this order: Include Failed Jobs, Include Canceled Jobs, then the backfill. */
const OPTIONS = collection(optionsCollection, [INCLUDE_FAILED, INCLUDE_CANCELED, LOOKBACK_HOURS]);

/**
 * The bulk-completion event's parameters in a trigger whose Scraper ID became a locator at its version
 * `locatorSince`: the Scraper Bulk Trigger's 2, the Scraper Platform Trigger's 1 (born with it).
 */
export function bulkJobTriggerProperties(locatorSince: number): INodeProperties[] {
	const scraperId = locatorSince === BULK_TRIGGER_VERSIONS.locator ? SCRAPER_ID : optionalScraperId(SCRAPER_ID_DESCRIPTION, locatorSince);
	return [...scraperId.properties, OUTPUT.property, OPTIONS.property];
}

export interface TriggerParameters {
	scraperId?: string;
	output: BulkOutput;
	includeFailed: boolean;
	includeCanceled: boolean;
	lookbackHours?: number;
}

/** Reads and checks every parameter before any request. */
export function readParameters(ctx: IPollFunctions): TriggerParameters {
	const values = readFields(ctx, 0, [SCRAPER_ID, OUTPUT, OPTIONS]);
	return {
		scraperId: values.get(SCRAPER_ID),
		output: values.get(OUTPUT),
		includeFailed: values.of(INCLUDE_FAILED) ?? false,
		includeCanceled: values.of(INCLUDE_CANCELED) ?? false,
		lookbackHours: values.of(LOOKBACK_HOURS),
	};
}
