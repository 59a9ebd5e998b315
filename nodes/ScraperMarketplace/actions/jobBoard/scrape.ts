import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/collections';
import { marketplaceRequest } from '../../transport/api';
import { FROM_OPTIONS, MARKETPLACE_VERSIONS } from '../../versions';
import { jsonSchemaRule } from '../../../shared/input/jsonSchema';
import type { Operation } from '../../../shared/execution/operation';
import { asRecords, findList } from '../../../shared/output/records';
import { field, rules, validatorFor } from '../../../shared/input/fields';
import { collection, Moved, readFields, Request } from '../../../shared/input/fieldSets';
import type { Field } from '../../../shared/input/fields';
import type { InputValidator } from '../../../shared/input/validation';
import { splitField } from '../common';

const JOB_BOARD_TIMEOUT_RANGE = { min: 60, max: 600 } as const;

/** The service works up to `timeout` seconds and then answers: the HTTP deadline leaves it a minute more. */
export function jobBoardDeadlineMs(timeoutSeconds: number): number {
	return (timeoutSeconds + 60) * 1000;
}

export const EXAMPLE_SCHEMA = {
	type: 'object',
	properties: {
		jobs: {
			type: 'array',
			items: {
				type: 'object',
				properties: {
					title: { type: 'string' },
					company: { type: 'string' },
					location: { type: 'string' },
					salary: { type: 'string' },
					employment_type: { type: 'string' },
					posted_date: { type: 'string', format: 'date' },
					url: { type: 'string', format: 'uri' },
				},
			},
		},
	},
};

const URLS = field(
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. https://jobs.example.com/search?q=engineer',
		description: 'Job board pages to scrape, one per line (or separated by commas), a JSON list of them, or an expression returning a list',
	},
	rules.httpUrls,
);

const SCHEMA = field(
	{
		displayName: 'Schema',
		name: 'schema',
		type: 'json',
		required: true,
		default: JSON.stringify(EXAMPLE_SCHEMA, null, 2),
		description: 'A JSON Schema of the output. A type "object" needs "properties"; a type "array" needs "items"; at most 16 levels deep. The records go in the first list (here "jobs").',
	},
	// Paths in its messages start at its request key, as the service's own errors name them (`schema.type`).
	jsonSchemaRule('schema', 'one job'),
);

const MIN = field({
	displayName: 'Min Items per URL',
	name: 'min',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 10,
	description: 'How many jobs to collect per URL at least; fewer come back when the page has fewer',
});

const MAX = field({
	displayName: 'Max Items per URL',
	name: 'max',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 20,
	description: 'How many jobs to collect per URL at most',
});

const TIMEOUT = field({
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: JOB_BOARD_TIMEOUT_RANGE.min, maxValue: JOB_BOARD_TIMEOUT_RANGE.max, numberPrecision: 0 },
	default: 180,
	description: 'When it is reached, scraping stops and the jobs collected so far are returned (60 to 600)',
});

const SPLIT = splitField('Whether to output one item per scraped job instead of one item with the whole result');

/** Optional settings, in the main panel before version 3 and under Options from 3, where one left unset is not sent. */
const OPTIONS = collection(
	(options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }),
	[MIN, MAX, TIMEOUT, SPLIT].map((setting: Field<unknown, unknown>) => new Moved(setting, MARKETPLACE_VERSIONS.options)),
);

const BODY = new Request([URLS, SCHEMA, MIN, MAX, TIMEOUT]);

/** The service's defaults, as the options show them. */
const DEFAULTS = { min: MIN.property.default as number, max: MAX.property.default as number, timeout: TIMEOUT.property.default as number };

/** The scraped records inside `result`: the list itself, or the first list property of an object. */
function jobRecords(result: unknown): IDataObject[] {
	// The schema names the list, so any property may hold it.
	const keys = result !== null && typeof result === 'object' ? Object.keys(result) : [];
	return asRecords(findList(result, keys) ?? result);
}

/** Min Items per URL above Max Items per URL (or above its default) is refused before anything is sent. */
function checkItemRange(v: InputValidator, min: number | undefined, max: number | undefined): void {
	if ((min ?? DEFAULTS.min) <= (max ?? DEFAULTS.max)) return;
	const maxText = max === undefined ? `${DEFAULTS.max}, its default` : String(max);
	v.fail(MIN.label, `${min ?? DEFAULTS.min} is more than '${MAX.label}' (${maxText})`, `Make '${MIN.label}' smaller than or equal to '${MAX.label}'.`);
}

export const jobBoardScrape: Operation = {
	value: 'scrape',
	name: 'Scrape',
	action: 'Scrape job boards',
	description: 'Scrape job listings from job board pages into the shape of your JSON Schema (waits for the answer)',
	properties: [
		URLS.property,
		SCHEMA.property,
		...OPTIONS.legacy,
		OPTIONS.property,
	],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [URLS, SCHEMA, OPTIONS]);
		checkItemRange(validatorFor(this, itemIndex), values.of(MIN), values.of(MAX));
		const urls = values.get(URLS);
		const timeout = values.of(TIMEOUT);

		const response = await marketplaceRequest(
			call,
			{
				method: 'POST',
				path: '/api/job-board-scrape',
				body: BODY.body(values),
				// A scrape costs tokens: a failed attempt is not repeated.
				idempotent: false,
				started: { what: 'the scrape', happened: 'run and used tokens', check: "Check the account's token usage in the service dashboard" },
				timeoutMs: jobBoardDeadlineMs(timeout ?? DEFAULTS.timeout),
			},
			itemIndex,
			BODY.labels(),
		);
		const totalDone = typeof response.totalDone === 'number' ? response.totalDone : undefined;
		if (values.of(SPLIT)) return jobRecords(response.result).map((json): INodeExecutionData => ({ json }));
		const json: IDataObject = { ...response };
		if (totalDone !== undefined && totalDone < urls.length) {
			json.incomplete = true;
			json.note = `${totalDone} of ${urls.length} URLs were scraped completely: the timeout was reached or a page could not be scraped. The result holds what was collected; raise '${TIMEOUT.label}' to get more.`;
		}
		return [{ json }];
	},
};
