import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runForEachItem } from '../../../shared/execution/items';
import type { Operation } from '../../../shared/execution/operation';
import { InputValidator, toList } from '../../../shared/input/validation';
import { scraperIdOf, scraperIdParameter } from '../../descriptions/ids';
import { bulkJobSimplifyProperties, bulkOptions, bulkOutputProperty, readBulkFinish, waitProperties } from './common';
import { SCRAPER_KINDS, startBulkJob } from './startJob';
import type { BulkStart } from './startJob';
import type { ExecutionCall } from '../../../shared/execution/call';

/** Everything a job needs, read and checked in this order before anything is sent; `urls` reads the URLs. */
function readStart(ctx: IExecuteFunctions, itemIndex: number, urls: () => string[]): BulkStart {
	const kind = new InputValidator(ctx.getNode(), itemIndex).oneOf(ctx.getNodeParameter('scraperKind', itemIndex, 'manual'), 'Scraper Kind', SCRAPER_KINDS);
	return { kind, scraperId: scraperIdOf(ctx, itemIndex), urls: urls(), finish: readBulkFinish(ctx, itemIndex) };
}

/** The URL field of every input item, in item order. */
function urlsOfAllItems(ctx: IExecuteFunctions): string[] {
	const field = new InputValidator(ctx.getNode(), 0).requiredString(ctx.getNodeParameter('urlField', 0), 'URL Field');
	const urls: string[] = [];
	ctx.getInputData().forEach((item, itemIndex) => {
		const v = new InputValidator(ctx.getNode(), itemIndex);
		const value = item.json[field];
		if (value === undefined || value === null || value === '') {
			v.fail('URL Field', `input item ${itemIndex + 1} has no field "${field}"`, `Make every input item carry the URL in a field named "${field}", or change 'URL Field'.`);
		}
		for (const url of toList(value)) urls.push(v.httpUrl(url, `URL Field (item ${itemIndex + 1})`));
	});
	return urls;
}

async function startJobOfAllItems(call: ExecutionCall): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	return await startBulkJob(call, readStart(ctx, 0, () => urlsOfAllItems(ctx)), 0);
}

/** Every input item's URL field as one job, paired with all of them (the router pairs an error with all of them too). */
async function startFromAllItems(call: ExecutionCall): Promise<INodeExecutionData[]> {
	const pairedItem = call.ctx.getInputData().map((_, item) => ({ item }));
	const items = await startJobOfAllItems(call);
	return items.map((item) => ({ ...item, pairedItem }));
}

export const bulkStart: Operation = {
	value: 'start',
	name: 'Start',
	action: 'Start bulk job',
	description: 'Rerun a scraper over many URLs as one asynchronous bulk job',
	properties: [
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
		...scraperIdParameter('The scraper to run on every URL'),
		{
			displayName: 'URLs From',
			name: 'urlSource',
			type: 'options',
			default: 'list',
			options: [
				{ name: 'List Below', value: 'list', description: 'Each input item starts one job with the URLs listed below' },
				{ name: 'All Input Items', value: 'inputItems', description: 'One job with the URL field of every input item' },
			],
			description: 'Where the URLs of the job come from',
		},
		{
			displayName: 'URLs',
			name: 'urls',
			type: 'string',
			typeOptions: { rows: 4 },
			required: true,
			default: '',
			placeholder: 'e.g. https://example.com/item/1\nhttps://example.com/item/2',
			description: 'One URL per line (or separated by commas), or an expression returning a list',
			displayOptions: { show: { urlSource: ['list'] } },
		},
		{
			displayName: 'URL Field',
			name: 'urlField',
			type: 'string',
			required: true,
			default: 'url',
			description: 'Name of the input field holding each item\'s URL',
			displayOptions: { show: { urlSource: ['inputItems'] } },
		},
		...waitProperties,
		bulkOutputProperty,
		...bulkJobSimplifyProperties,
		bulkOptions,
	],
	async executeAll(call) {
		const source = new InputValidator(this.getNode(), 0).oneOf(this.getNodeParameter('urlSource', 0), 'URLs From', ['list', 'inputItems'] as const);
		if (source === 'inputItems') return await startFromAllItems(call);
		return await runForEachItem(this, async (itemIndex) => {
			const urls = () => new InputValidator(this.getNode(), itemIndex).httpUrlList(this.getNodeParameter('urls', itemIndex), 'URLs', { required: true });
			return await startBulkJob(call, readStart(this, itemIndex, urls), itemIndex);
		});
	},
};
