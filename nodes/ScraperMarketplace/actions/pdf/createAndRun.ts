import type { IDataObject } from 'n8n-workflow';

import { additionalFields } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { createAndRun, createAndRunWaitProperties, nameProperty, waitingConcurrency } from '../common';

const LABELS = {
	keywords: 'Keywords',
	unique: 'Unique',
	expected_pdf: 'Expected PDFs',
};

export const pdfCreateAndRun: Operation = {
	value: 'createAndRun',
	name: 'Create and Run',
	action: 'Create and run PDF scraper',
	description: 'Create a scraper that finds PDF files by keyword, keeps those a prompt accepts, and run it',
	properties: [
		nameProperty('Annual reports of energy companies'),
		{
			displayName: 'Keywords',
			name: 'keywords',
			type: 'fixedCollection',
			required: true,
			typeOptions: { multipleValues: true },
			placeholder: 'Add Keyword',
			default: {},
			description: 'What to search for; each keyword has its own prompt that accepts or rejects each file found',
			options: [
				{
					displayName: 'Keyword',
					name: 'keyword',
					values: [
						{
							displayName: 'Keyword',
							name: 'keyword',
							type: 'string',
							required: true,
							default: '',
							placeholder: 'e.g. solar panel installation guide',
							description: 'The search words that find the PDF files',
						},
						{
							displayName: 'Prompt',
							name: 'prompt',
							type: 'string',
							required: true,
							typeOptions: { rows: 2 },
							default: '',
							placeholder: 'e.g. Is this an official installation guide from a manufacturer?',
							description: 'A yes/no question answered for each file found: only files answered true are kept',
						},
					],
				},
			],
		},
		additionalFields([
			{
				displayName: 'Expected PDFs',
				name: 'expectedPdf',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 10,
				description: 'Total number of files wanted; the service adds alternative keywords by itself to reach it',
			},
			{
				displayName: 'Unique',
				name: 'unique',
				type: 'boolean',
				default: true,
				description: 'Whether to leave out PDF files your earlier scrapes already returned',
			},
		], { description: 'Each field is sent only when added' }),
		...createAndRunWaitProperties('one PDF file'),
	],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const v = new InputValidator(this.getNode(), itemIndex);
		const name = v.requiredString(this.getNodeParameter('name', itemIndex), 'Name');
		const collection = this.getNodeParameter('keywords', itemIndex, {}) as IDataObject;
		const entries = (Array.isArray(collection.keyword) ? collection.keyword : []) as IDataObject[];
		if (entries.length === 0) {
			v.fail('Keywords', 'add at least one keyword with its prompt', "Click 'Add Keyword' and fill in the keyword and its prompt.");
		}
		const keywords = entries.map((entry, i) => {
			const at = entries.length > 1 ? ` (keyword ${i + 1})` : '';
			return {
				keyword: v.requiredString(entry.keyword, `Keyword${at}`),
				prompt: v.requiredString(entry.prompt, `Prompt${at}`),
			};
		});
		const body: IDataObject = { name, keywords };
		const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
		if (additional.unique !== undefined) body.unique = v.boolean(additional.unique, 'Unique');
		if (additional.expectedPdf !== undefined) body.expected_pdf = v.integer(additional.expectedPdf, 'Expected PDFs', { min: 1 });

		return await createAndRun(call, itemIndex, '/api/scrapers/pdf/create-and-run', body, LABELS);
	},
};
