import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { marketplaceRequest } from '../../transport/api';
import { SUBJECT } from '../../transport/vocabulary';
import type { RunListRecord, ScrapingRun } from '../../transport/vocabulary';
import { SCRAPING_RUN_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';
import { binaryFromText, fileSlug } from '../../../shared/output/records';
import { field } from '../../../shared/input/fields';
import { readFields } from '../../../shared/input/fieldSets';

const ID = SCRAPING_RUN_ID.describedAs(
	'The scraping run: pick it from the list, or its scraping_run_id, e.g. from the output of a Create and Run or of Result > Get Many',
);

const HTML_OUTPUT = field({
	displayName: 'Output',
	name: 'htmlOutput',
	type: 'options',
	default: 'text',
	options: [
		{ name: 'Text', value: 'text', description: 'One item per result, with the HTML in the html field' },
		{ name: 'HTML File', value: 'binary', description: 'One item per result, with the HTML as a binary .html file' },
	],
	description: 'How to output the HTML',
});

const BINARY_PROPERTY = field({
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	required: true,
	default: 'data',
	description: 'The name of the binary field the .html file is written to',
	displayOptions: { show: { htmlOutput: ['binary'] } },
});

export const scrapingRunGetHtml: Operation = {
	value: 'getHtml',
	name: 'Get HTML',
	action: 'Get HTML of scraping run',
	description: 'Get the page HTML of each result of a scraping run, as text or as .html files',
	properties: [...ID.properties, HTML_OUTPUT.property, BINARY_PROPERTY.property],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [ID, HTML_OUTPUT]);
		const id = values.get(ID);
		const asFile = values.get(HTML_OUTPUT) === 'binary';
		// The field is shown, and read, only for files.
		const binaryProperty = asFile ? BINARY_PROPERTY.read(this, itemIndex) : '';

		// Declared as text/plain holding a JSON object: the shared request parses it as JSON either way.
		const response = await marketplaceRequest<{ data: ScrapingRun }>(
			call,
			{ method: 'GET', path: `/api/scraping-runs/html/${id}`, idempotent: true, subject: { kind: SUBJECT.scrapingRun, id } },
			itemIndex,
			{ scraping_run_id: ID.label },
		);
		const run = response.data ?? ({} as ScrapingRun);
		const results: RunListRecord[] = Array.isArray(run.results) ? run.results : [];

		const output: INodeExecutionData[] = [];
		for (const result of results) {
			const { content, ...fields } = result;
			const html = typeof content === 'string' ? content : null;
			const json: IDataObject = { ...fields, run_status: run.status };
			if (html === null) {
				json.html = null;
				json.message = `No HTML for this result: it is ${result.status}. The HTML is there once the result has succeeded.`;
				output.push({ json });
				continue;
			}
			if (!asFile) {
				output.push({ json: { ...json, html } });
				continue;
			}
			const fileName = `${fileSlug(String(result.scraped_url ?? ''), 'page')}-${result.scraping_run_id ?? id}-${result.id}.html`;
			const binary = await binaryFromText(this, html, fileName, 'text/html');
			output.push({ json: { ...json, fileName }, binary: { [binaryProperty]: binary } });
		}
		return output;
	},
};
