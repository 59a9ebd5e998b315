import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { runForEachItem, withItemIndex } from '../../../shared/items';
import type { Operation } from '../../../shared/operation';
import { platformRequest } from '../../../shared/platform';
import { InputValidator, toList } from '../../../shared/validation';
import { bulkOutputProperty, finishBulk, readBulkFinish, waitProperties } from './common';
import type { BulkFinish } from './common';

async function startJob(
	ctx: IExecuteFunctions,
	scraperId: string,
	urls: string[],
	finish: BulkFinish,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await platformRequest(
		ctx,
		{
			method: 'POST',
			path: '/api/v1/scrapers-manual-rerun/bulk',
			body: { scraperId, urls },
			idempotent: false,
			subject: { kind: 'scraper', id: scraperId },
		},
		itemIndex,
	);
	return await finishBulk(ctx, response.data, itemIndex, finish);
}

function scraperIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return new InputValidator(ctx.getNode(), itemIndex).uuid(ctx.getNodeParameter('scraperId', itemIndex), 'Scraper ID');
}

/** Every input item's URL field, in item order, as one job. */
async function startFromAllItems(ctx: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = ctx.getInputData();
	const pairedItem = items.map((_, item) => ({ item }));
	try {
		const scraperId = scraperIdOf(ctx, 0);
		const field = new InputValidator(ctx.getNode(), 0).requiredString(ctx.getNodeParameter('urlField', 0), 'URL Field');
		const urls: string[] = [];
		items.forEach((item, itemIndex) => {
			const v = new InputValidator(ctx.getNode(), itemIndex);
			const value = item.json[field];
			if (value === undefined || value === null || value === '') {
				v.fail('URL Field', `input item ${itemIndex + 1} has no field "${field}"`, `Make every input item carry the URL in a field named "${field}", or change "URL Field".`);
			}
			for (const url of toList(value)) urls.push(v.httpUrl(url, `URL Field (item ${itemIndex + 1})`));
		});
		const output = await startJob(ctx, scraperId, urls, readBulkFinish(ctx, 0), 0);
		// The job came from every input item: pair its output with all of them.
		return output.map((item) => ({ ...item, pairedItem }));
	} catch (error) {
		if (!ctx.continueOnFail()) throw withItemIndex(ctx, error, 0);
		return [{ json: { error: (error as Error).message, description: (error as { description?: string }).description ?? null }, pairedItem }];
	}
}

export const bulkStart: Operation = {
	value: 'start',
	name: 'Start',
	action: 'Start a bulk job',
	description: 'Rerun a manual scraper over many URLs as one asynchronous bulk job',
	properties: [
		{
			displayName: 'Scraper ID',
			name: 'scraperId',
			type: 'string',
			required: true,
			default: '',
			placeholder: '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b',
			description: 'A manual scraper, typically a detail scraper',
		},
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
			placeholder: 'https://example.com/item/1\nhttps://example.com/item/2',
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
	],
	async executeAll() {
		const source = new InputValidator(this.getNode(), 0).oneOf(this.getNodeParameter('urlSource', 0), 'URLs From', ['list', 'inputItems'] as const);
		if (source === 'inputItems') return await startFromAllItems(this);
		return await runForEachItem(this, async (itemIndex) => {
			const scraperId = scraperIdOf(this, itemIndex);
			const urls = new InputValidator(this.getNode(), itemIndex).httpUrlList(this.getNodeParameter('urls', itemIndex), 'URLs', { required: true });
			return await startJob(this, scraperId, urls, readBulkFinish(this, itemIndex), itemIndex);
		});
	},
};

