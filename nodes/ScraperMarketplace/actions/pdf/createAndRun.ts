import type { IDataObject } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { field } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import type { InputValidator } from '../../../shared/input/validation';
import { createAndRun, createAndRunWaitProperties, NAME, nameProperty, waitingConcurrency } from '../common';

/** The values of one entry of Keywords. */
const KEYWORD = field({
	displayName: 'Keyword',
	name: 'keyword',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. solar panel installation guide',
	description: 'The search words that find the PDF files',
});

const PROMPT = field({
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	required: true,
	typeOptions: { rows: 2 },
	default: '',
	placeholder: 'e.g. Is this an official installation guide from a manufacturer?',
	description: 'A yes/no question answered for each file found: only files answered true are kept',
});

/** At least one entry, each with its keyword and prompt; an entry is named by its place when there are several. */
function keywordEntries(v: InputValidator, value: unknown, label: string): IDataObject[] {
	const group = value !== null && typeof value === 'object' ? (value as IDataObject).keyword : undefined;
	const entries = (Array.isArray(group) ? group : []) as IDataObject[];
	if (entries.length === 0) v.fail(label, 'add at least one keyword with its prompt', "Click 'Add Keyword' and fill in the keyword and its prompt.");
	return entries.map((entry, i) => {
		const at = entries.length > 1 ? ` (keyword ${i + 1})` : '';
		return {
			keyword: KEYWORD.check(v, entry.keyword, `${KEYWORD.label}${at}`),
			prompt: PROMPT.check(v, entry.prompt, `${PROMPT.label}${at}`),
		};
	});
}

const KEYWORDS = field(
	{
		displayName: 'Keywords',
		name: 'keywords',
		type: 'fixedCollection',
		required: true,
		typeOptions: { multipleValues: true },
		placeholder: 'Add Keyword',
		default: {},
		description: 'What to search for; each keyword has its own prompt that accepts or rejects each file found',
		options: [{ displayName: 'Keyword', name: 'keyword', values: [KEYWORD.property, PROMPT.property] }],
	},
	keywordEntries,
);

const EXPECTED_PDF = field({
	displayName: 'Expected PDFs',
	name: 'expectedPdf',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 10,
	description: 'Total number of files wanted; the service adds alternative keywords by itself to reach it',
});

const UNIQUE = field({
	displayName: 'Unique',
	name: 'unique',
	type: 'boolean',
	default: true,
	description: 'Whether to leave out PDF files your earlier scrapes already returned',
});

const ADDITIONAL = collection((options) => additionalFields(options, { description: 'Each field is sent only when added' }), [EXPECTED_PDF, UNIQUE]);

const BODY = new Request([NAME, KEYWORDS, UNIQUE, EXPECTED_PDF], { expectedPdf: 'expected_pdf' });

export const pdfCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run PDF scraper',
	description: 'Create a scraper that finds PDF files by keyword, keeps those a prompt accepts, and run it',
	properties: [nameProperty('Annual reports of energy companies'), KEYWORDS.property, ADDITIONAL.property, ...createAndRunWaitProperties('one PDF file')],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [NAME, KEYWORDS, ADDITIONAL]);
		return await createAndRun(call, itemIndex, '/api/scrapers/pdf/create-and-run', BODY.body(values), BODY.labels());
	},
};
