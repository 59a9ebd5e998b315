import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runForEachItem } from '../../../shared/execution/items';
import type { Operation } from '../../../shared/execution/operation';
import { field, rules, validatorFor } from '../../../shared/input/fields';
import { readFields } from '../../../shared/input/fieldSets';
import { toList } from '../../../shared/input/validation';
import { scraperId } from '../../descriptions/ids';
import { bulkFinishProperties, bulkOptions, readBulkFinish } from './common';
import { SCRAPER_KINDS, startBulkJob } from './startJob';
import type { BulkStart } from './startJob';
import type { ExecutionCall } from '../../../shared/execution/call';

const SCRAPER_KIND = field(
	{
		displayName: 'Scraper Kind',
		name: 'scraperKind',
		type: 'options',
		default: 'manual',
		options: [
			{ name: 'Manual', value: 'manual', description: 'A scraper built by hand in the dashboard, typically a detail scraper' },
			{ name: 'AI', value: 'ai', description: 'A scraper made by AI Scraper > Create and Run' },
		],
		description: 'The kind of scraper to rerun: each has its own bulk endpoint',
	},
	rules.oneOf(SCRAPER_KINDS),
);

const SCRAPER_ID = scraperId('The scraper to run on every URL');

const URL_SOURCE = field({
	displayName: 'URLs From',
	name: 'urlSource',
	type: 'options',
	default: 'list',
	options: [
		{ name: 'List Below', value: 'list', description: 'Each input item starts one job with the URLs listed below' },
		{ name: 'All Input Items', value: 'inputItems', description: 'One job with the URL field of every input item' },
	],
	description: 'Where the URLs of the job come from',
});

const URLS = field(
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/item/1\nhttps://example.com/item/2',
		description: 'One URL per line (or separated by commas), a JSON list such as ["https://…", "https://…"], or an expression returning a list',
		displayOptions: { show: { urlSource: ['list'] } },
	},
	rules.httpUrls,
);

const URL_FIELD = field({
	displayName: 'URL Field',
	name: 'urlField',
	type: 'string',
	required: true,
	default: 'url',
	description: "Name of the input field holding each item's URL",
	displayOptions: { show: { urlSource: ['inputItems'] } },
});

/** Everything a job needs, read and checked in this order before anything is sent: its URLs listed, or of all items. */
function readStart(ctx: IExecuteFunctions, itemIndex: number, ofAllItems: boolean): BulkStart {
	const values = readFields(ctx, itemIndex, ofAllItems ? [SCRAPER_KIND, SCRAPER_ID] : [SCRAPER_KIND, SCRAPER_ID, URLS]);
	const urls = ofAllItems ? urlsOfAllItems(ctx) : values.get(URLS);
	return { kind: values.get(SCRAPER_KIND), scraperId: values.get(SCRAPER_ID), urls, finish: readBulkFinish(ctx, itemIndex) };
}

/** The URL field of every input item, in item order. */
function urlsOfAllItems(ctx: IExecuteFunctions): string[] {
	const name = URL_FIELD.read(ctx, 0);
	const urls: string[] = [];
	ctx.getInputData().forEach((item, itemIndex) => {
		const v = validatorFor(ctx, itemIndex);
		const value = item.json[name];
		if (value === undefined || value === null || value === '') {
			v.fail(URL_FIELD.label, `input item ${itemIndex + 1} has no field "${name}"`, `Make every input item carry the URL in a field named "${name}", or change '${URL_FIELD.label}'.`);
		}
		for (const url of toList(value)) urls.push(v.httpUrl(url, `${URL_FIELD.label} (item ${itemIndex + 1})`));
	});
	return urls;
}

/** Every input item's URL field as one job, paired with all of them (the router pairs an error with all of them too). */
async function startFromAllItems(call: ExecutionCall): Promise<INodeExecutionData[]> {
	const pairedItem = call.ctx.getInputData().map((_, item) => ({ item }));
	const items = await startBulkJob(call, readStart(call.ctx, 0, true), 0);
	return items.map((item) => ({ ...item, pairedItem }));
}

export const bulkStart: Operation = {
	value: 'start',
	name: 'Start',
	action: 'Start bulk job',
	description: 'Rerun a scraper over many URLs as one asynchronous bulk job',
	properties: [
		SCRAPER_KIND.property,
		...SCRAPER_ID.properties,
		URL_SOURCE.property,
		URLS.property,
		URL_FIELD.property,
		...bulkFinishProperties,
		bulkOptions.property,
	],
	async executeAll(call) {
		if (URL_SOURCE.read(this, 0) === 'inputItems') return await startFromAllItems(call);
		return await runForEachItem(this, async (itemIndex) => await startBulkJob(call, readStart(this, itemIndex, false), itemIndex));
	},
};
