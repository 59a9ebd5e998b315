import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { contentRecords, marketplaceRequest } from '../../api';
import type { RunListRecord } from '../../api';
import { readListingLimit, returnAllProperties } from '../../../shared/listing';
import type { Operation } from '../../../shared/operation';
import { InputValidator } from '../../../shared/validation';

export const resultGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many results',
	description: 'List the results of your scraping runs, newest first, with their extracted content',
	properties: [
		...returnAllProperties(),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Page Size',
					name: 'perPage',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 100 },
					default: 100,
					description: 'Results per request (per_page), 1 to 100. Smaller pages are slower but avoid time-outs on large results.',
				},
				{
					displayName: 'Split Into Items',
					name: 'split',
					type: 'boolean',
					default: false,
					description: 'Whether to output one item per extracted record (one lead, listing, PDF…) instead of one per result; results without content yet are left out',
				},
			],
		},
	],
	async execute(itemIndex) {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const { limit, pageSize: perPage } = readListingLimit(this, itemIndex, options.perPage);
		const split = new InputValidator(this.getNode(), itemIndex).boolean(options.split ?? false, 'Split Into Items');

		const results: RunListRecord[] = [];
		// The list carries no total: a page shorter than per_page is the last one.
		for (let page = 1; ; page++) {
			const response = await marketplaceRequest<{ data?: RunListRecord[] }>(
				this,
				{ method: 'GET', path: '/api/results', qs: { page, per_page: perPage }, idempotent: true },
				itemIndex,
				{ per_page: 'Page Size' },
			);
			const records = Array.isArray(response.data) ? response.data : [];
			results.push(...records.slice(0, limit - results.length));
			if (results.length >= limit || records.length < perPage) break;
		}

		if (!split) return results.map((json): INodeExecutionData => ({ json }));
		const output: INodeExecutionData[] = [];
		for (const result of results) {
			const context: IDataObject = {
				scraper_id: result.scraper_id,
				scraping_run_id: result.scraping_run_id,
				result_id: result.id,
				scraped_url: result.scraped_url,
			};
			for (const record of contentRecords(result.content)) output.push({ json: { ...context, ...record } });
		}
		return output;
	},
};
