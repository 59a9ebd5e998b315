import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FROM_OPTIONS, movedToOptions, optionsCollection, readMoved } from '../../../shared/descriptions/collections';
import { marketplaceRequest } from '../../transport/api';
import { describeJson, firstSchemaProblem, isJsonObject } from './jsonSchema';
import type { Operation } from '../../../shared/execution/operation';
import { asRecords, findList } from '../../../shared/output/records';
import { InputValidator } from '../../../shared/input/validation';

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

const LABELS = {
	urls: 'URLs',
	schema: 'Schema',
	min: 'Min Items per URL',
	max: 'Max Items per URL',
	timeout: 'Timeout (Seconds)',
};

type Validator = InputValidator;

/** JSON text (or an object from an expression) -> the schema object, checked against the service's rules. */
function readSchema(v: Validator, raw: unknown): IDataObject {
	let schema: unknown = raw;
	if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
		v.fail(LABELS.schema, 'it is required', 'Enter a JSON Schema describing one job, e.g. the example the field starts with.');
	}
	if (typeof raw === 'string') {
		try {
			schema = JSON.parse(raw);
		} catch (error) {
			v.fail(LABELS.schema, `it is not valid JSON (${(error as Error).message})`, 'Fix the JSON: check quotes, commas and brackets.');
		}
	}
	if (!isJsonObject(schema)) {
		v.fail(
			LABELS.schema,
			`it must be a JSON object (a JSON Schema), got ${describeJson(schema)}`,
			'Enter an object such as {"type": "object", "properties": {"title": {"type": "string"}}}.',
		);
	}
	// Paths start at the parameter's name, as the service's own errors name them (`schema.type`).
	const problem = firstSchemaProblem(schema, 'schema');
	if (problem) v.fail(LABELS.schema, `${problem.path} ${problem.rule}`, problem.fix);
	return schema as IDataObject;
}

/** The scraped records inside `result`: the list itself, or the first list property of an object. */
function jobRecords(result: unknown): IDataObject[] {
	// The schema names the list, so any property may hold it.
	const keys = result !== null && typeof result === 'object' ? Object.keys(result) : [];
	return asRecords(findList(result, keys) ?? result);
}

/** Optional settings, in the main panel before version 3 and under Options from 3. */
const MOVED = {
	min: movedToOptions({
		displayName: 'Min Items per URL',
		name: 'min',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 10,
		description: 'How many jobs to collect per URL at least; fewer come back when the page has fewer',
	}),
	max: movedToOptions({
		displayName: 'Max Items per URL',
		name: 'max',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 20,
		description: 'How many jobs to collect per URL at most',
	}),
	timeout: movedToOptions({
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		typeOptions: { minValue: JOB_BOARD_TIMEOUT_RANGE.min, maxValue: JOB_BOARD_TIMEOUT_RANGE.max, numberPrecision: 0 },
		default: 180,
		description: 'When it is reached, scraping stops and the jobs collected so far are returned (60 to 600)',
	}),
	split: movedToOptions({
		displayName: 'Split Into Items',
		name: 'split',
		type: 'boolean',
		default: false,
		description: 'Whether to output one item per scraped job instead of one item with the whole result',
	}),
};

/** The service's defaults, as the options show them: from version 3 an option left unset is not sent. */
const DEFAULTS = { min: MOVED.min.option.default as number, max: MOVED.max.option.default as number, timeout: MOVED.timeout.option.default as number };

export const jobBoardScrape: Operation = {
	value: 'scrape',
	name: 'Scrape',
	action: 'Scrape job boards',
	description: 'Scrape job listings from job board pages into the shape of your JSON Schema (waits for the answer)',
	properties: [
		{
			displayName: 'URLs',
			name: 'urls',
			type: 'string',
			typeOptions: { rows: 3 },
			required: true,
			default: '',
			placeholder: 'e.g. https://jobs.example.com/search?q=engineer',
			description: 'Job board pages to scrape, one per line (or separated by commas), or an expression returning a list',
		},
		{
			displayName: 'Schema',
			name: 'schema',
			type: 'json',
			required: true,
			default: JSON.stringify(EXAMPLE_SCHEMA, null, 2),
			description: 'A JSON Schema of the output. A type "object" needs "properties"; a type "array" needs "items"; at most 16 levels deep. The records go in the first list (here "jobs").',
		},
		...Object.values(MOVED).map((moved) => moved.legacy),
		optionsCollection(
			Object.values(MOVED)
				.map((moved) => moved.option)
				.sort((a, b) => a.displayName.localeCompare(b.displayName)),
			{ displayOptions: { show: FROM_OPTIONS } },
		),
	],
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const urls = v.httpUrlList(this.getNodeParameter('urls', itemIndex), 'URLs', { required: true });
		const schema = readSchema(v, this.getNodeParameter('schema', itemIndex));
		const set = (name: keyof typeof MOVED) => readMoved(this, name, itemIndex, undefined);
		const min = v.optionalInteger(set('min'), 'Min Items per URL', { min: 1 });
		const max = v.optionalInteger(set('max'), 'Max Items per URL', { min: 1 });
		if ((min ?? DEFAULTS.min) > (max ?? DEFAULTS.max)) {
			const maxText = max === undefined ? `${DEFAULTS.max}, its default` : String(max);
			v.fail('Min Items per URL', `${min ?? DEFAULTS.min} is more than 'Max Items per URL' (${maxText})`, "Make 'Min Items per URL' smaller than or equal to 'Max Items per URL'.");
		}
		const timeout = v.optionalInteger(set('timeout'), 'Timeout (Seconds)', JOB_BOARD_TIMEOUT_RANGE);
		const split = v.boolean(set('split') ?? false, 'Split Into Items');
		const body: IDataObject = { urls, schema };
		if (min !== undefined) body.min = min;
		if (max !== undefined) body.max = max;
		if (timeout !== undefined) body.timeout = timeout;

		const response = await marketplaceRequest(
			call,
			{
				method: 'POST',
				path: '/api/job-board-scrape',
				body,
				// A scrape costs tokens: a failed attempt is not repeated.
				idempotent: false,
				started: { what: 'the scrape', happened: 'run and used tokens', check: "Check the account's token usage in the service dashboard" },
				timeoutMs: jobBoardDeadlineMs(timeout ?? DEFAULTS.timeout),
			},
			itemIndex,
			LABELS,
		);
		const totalDone = typeof response.totalDone === 'number' ? response.totalDone : undefined;
		if (split) return jobRecords(response.result).map((json): INodeExecutionData => ({ json }));
		const json: IDataObject = { ...response };
		if (totalDone !== undefined && totalDone < urls.length) {
			json.incomplete = true;
			json.note = `${totalDone} of ${urls.length} URLs were scraped completely: the timeout was reached or a page could not be scraped. The result holds what was collected; raise 'Timeout (Seconds)' to get more.`;
		}
		return [{ json }];
	},
};
