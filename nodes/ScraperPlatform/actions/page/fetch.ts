import { optionsCollection } from '../../../shared/descriptions/collections';
import type { Operation } from '../../../shared/execution/operation';
import { collection, readFields } from '../../../shared/input/fieldSets';
import { readShaping, simplifyProperties } from '../../../shared/descriptions/simplify';
import type { RecordFields } from '../../../shared/descriptions/simplify';
import { FETCH_OPTIONS, FETCH_QUERY, HTML, MARKDOWN, PAGE_URL, SCREENSHOT, TIMEOUT } from '../../pageFetch/fields';
import { requestPage } from '../../pageFetch/request';
import { FROM_OPTIONS } from '../../versions';
import { pageItem } from './fetchAnswer';

/** A fetched page as an item: the content asked for and what the answer reports (fetchAnswer.ts). */
const PAGE_FIELDS: RecordFields = {
	id: 'url',
	simplified: ['url', 'statusCode', 'html', 'markdown', 'screenshot', 'file', 'cookies', 'tokenUsage', 'runtime', 'resultId'],
	all: ['url', 'statusCode', 'html', 'markdown', 'screenshot', 'file', 'cookies', 'tokenUsage', 'bandwidthUsage', 'runtime', 'resultId', 'contentType'],
	// A model reads the page and whether it answered; the usage figures are for the workflow's owner.
	agent: ['url', 'statusCode', 'markdown', 'html', 'file'],
};

/** Every option of the fetch (pageFetch/fields.ts), each sent only when added. */
const OPTIONS = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), FETCH_OPTIONS);

export const pageFetch: Operation = {
	value: 'fetch',
	name: 'Fetch',
	// An AI Agent's tool is described by this action ("<action> in Scraper Platform"): what it returns and costs.
	action: 'Fetch page as HTML, Markdown or screenshot (uses plan tokens)',
	description: "Fetch one public web page with the API token: its HTML, Markdown or a screenshot, the page's status code and the tokens it used",
	properties: [PAGE_URL.property, ...simplifyProperties(PAGE_FIELDS, FROM_OPTIONS), OPTIONS.property],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [PAGE_URL, OPTIONS]);
		const qs = FETCH_QUERY.body(values);
		// Read before anything is sent, like every other setting.
		const shape = readShaping(this, itemIndex, PAGE_FIELDS);
		const url = values.get(PAGE_URL);
		const answer = await requestPage(call, url, qs, values.of(TIMEOUT), itemIndex);
		const asked = { html: values.of(HTML) ?? true, markdown: values.of(MARKDOWN) === true, screenshot: values.of(SCREENSHOT) !== undefined };
		const item = await pageItem(this, itemIndex, url, answer, asked);
		return [{ ...item, json: shape(item.json) }];
	},
};
