import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { scrapersPageReader } from '../../transport/api';
import { LARGEST_SCRAPERS_PAGE } from '../../transport/vocabulary';
import { optionsCollection } from '../../../shared/descriptions/collections';
import { readListingLimit, returnAllProperties } from '../../../shared/descriptions/listing';
import type { Operation } from '../../../shared/execution/operation';
import { collectRecords, listingWalk } from '../../../shared/paging/pages';

export const scraperGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many scrapers',
	description: 'List the scrapers of your account, newest first, with their IDs for Run or Get Latest',
	properties: [
		...returnAllProperties(),
		optionsCollection([
			{
				displayName: 'Page Size',
				name: 'perPage',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: LARGEST_SCRAPERS_PAGE },
				default: LARGEST_SCRAPERS_PAGE,
				description: "Scrapers read per request ('per_page'), 1 to 100. Smaller pages take more requests, each answered sooner.",
			},
		]),
	],
	async execute(itemIndex, call) {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const { limit, pageSize } = readListingLimit(this, itemIndex, options.perPage);
		const read = scrapersPageReader(call, pageSize, { itemIndex, fieldLabels: { per_page: 'Page Size' } });
		// New scrapers enter the list at the top and push the rest down a page: the guard leaves out one met again.
		const scrapers = await collectRecords(read, 1, limit, listingWalk(this, itemIndex, 'the scrapers list'));
		return scrapers.map((json): INodeExecutionData => ({ json }));
	},
};
