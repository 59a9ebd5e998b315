import type { IDataObject, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { SCRAPER_ID } from '../descriptions/ids';
import { runOutputField } from '../descriptions/runOutput';
import type { RunOutput } from '../descriptions/runOutput';
import { optionsCollection } from '../../shared/descriptions/collections';
import { field } from '../../shared/input/fields';
import { collection, readFields } from '../../shared/input/fieldSets';
import type { InputValidator } from '../../shared/input/validation';

/** Said in the editor and the README: a run unfinished past this age stops being tracked (`advance.ts`). */
const AGE_LIMIT_NOTICE =
	'A run still unfinished 24 hours after it started is no longer tracked: if it finishes later, it does not start the workflow. Runs finished before activation never do.';

/** One entry of Scrapers: the resource locator alone (the trigger never had a version 1). */
const SCRAPER = SCRAPER_ID.describedAs('A scraper whose finished runs start the workflow');

/** The chosen scrapers' ids, each entry checked. */
function scraperIds(v: InputValidator, value: unknown): Set<number> {
	const group = value !== null && typeof value === 'object' ? (value as IDataObject).scraper : undefined;
	const entries = (Array.isArray(group) ? group : []) as IDataObject[];
	return new Set(entries.map((entry) => SCRAPER.check(v, entry[SCRAPER.name]) as number));
}

/** Exported for the message on too many unfinished runs (collect.ts), which names it. */
export const SCRAPERS = field(
	{
		displayName: 'Scrapers',
		name: 'scrapers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Scraper',
		default: {},
		description: 'Only trigger for runs of these scrapers. None: every scraper of the account.',
		options: [{ displayName: 'Scraper', name: 'scraper', values: [SCRAPER.property] }],
	},
	scraperIds,
);

const OUTPUT = runOutputField({ name: 'output', recordWord: 'a listing, a lead, a PDF…', description: 'How to shape what each finished run emits' });

const INCLUDE_FAILED = field({
	displayName: 'Include Failed Runs',
	name: 'includeFailed',
	type: 'boolean',
	default: false,
	description:
		'Whether to also trigger for runs in which every result failed (they have no records). Runs with at least one succeeded result always trigger.',
});

const OPTIONS = collection(optionsCollection, [INCLUDE_FAILED]);

export const triggerProperties: INodeProperties[] = [
	{
		displayName: AGE_LIMIT_NOTICE,
		name: 'ageLimitNotice',
		type: 'notice',
		default: '',
	},
	SCRAPERS.property,
	OUTPUT.property,
	OPTIONS.property,
];

export interface RunTriggerParameters {
	/** Scraper ids to trigger for; empty: every scraper. */
	scrapers: Set<number>;
	output: RunOutput;
	includeFailed: boolean;
}

/** Reads and checks every parameter before any request. */
export function readParameters(ctx: IPollFunctions): RunTriggerParameters {
	const values = readFields(ctx, 0, [SCRAPERS, OUTPUT, OPTIONS]);
	return {
		scrapers: values.get(SCRAPERS) ?? new Set(),
		output: values.get(OUTPUT),
		includeFailed: values.of(INCLUDE_FAILED) ?? false,
	};
}

/** A run of one of the chosen scrapers (or of any, when none is chosen). */
export function wanted(params: Pick<RunTriggerParameters, 'scrapers'>, scraperId: unknown): boolean {
	return params.scrapers.size === 0 || params.scrapers.has(Number(scraperId));
}
