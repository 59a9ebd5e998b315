import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { RUN_OUTPUTS, runOutputOptions } from '../descriptions/runOutput';
import type { RunOutput } from '../descriptions/runOutput';
import { optionsCollection } from '../../shared/descriptions/collections';
import { INTEGER_ID_PATTERN, locatorProperty, locatorValue } from '../../shared/descriptions/locator';
import { InputValidator } from '../../shared/input/validation';

/** Said in the editor and the README: a run unfinished past this age stops being tracked (`tracking.ts`). */
const AGE_LIMIT_NOTICE =
	'A run still unfinished 24 hours after it started is no longer tracked: if it finishes later, it does not start the workflow. Runs finished before activation never do.';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: AGE_LIMIT_NOTICE,
		name: 'ageLimitNotice',
		type: 'notice',
		default: '',
	},
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
						example: '101',
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
	optionsCollection([
		{
			displayName: 'Include Failed Runs',
			name: 'includeFailed',
			type: 'boolean',
			default: false,
			description:
				'Whether to also trigger for runs in which every result failed (they have no records). Runs with at least one succeeded result always trigger.',
		},
	]),
];

export interface RunTriggerParameters {
	/** Scraper ids to trigger for; empty: every scraper. */
	scrapers: Set<number>;
	output: RunOutput;
	includeFailed: boolean;
}

/** Reads and checks every parameter before any request. */
export function readParameters(ctx: IPollFunctions): RunTriggerParameters {
	const v = new InputValidator(ctx.getNode(), 0);
	const chosen = ctx.getNodeParameter('scrapers', {}) as { scraper?: Array<{ scraperId?: unknown }> };
	const scrapers = new Set<number>();
	for (const entry of chosen.scraper ?? []) scrapers.add(v.integer(locatorValue(entry.scraperId), 'Scraper ID', { min: 1 }));
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	return {
		scrapers,
		output: v.oneOf(ctx.getNodeParameter('output', 'run'), 'Output', RUN_OUTPUTS),
		includeFailed: options.includeFailed === undefined ? false : v.boolean(options.includeFailed, 'Include Failed Runs'),
	};
}

/** A run of one of the chosen scrapers (or of any, when none is chosen). */
export function wanted(params: Pick<RunTriggerParameters, 'scrapers'>, scraperId: unknown): boolean {
	return params.scrapers.size === 0 || params.scrapers.has(Number(scraperId));
}
