import type { INodeExecutionData } from 'n8n-workflow';

import { scrapersPageReader } from '../../transport/api';
import { LARGEST_SCRAPERS_PAGE } from '../../transport/vocabulary';
import { pageSizeField, readListing } from '../common';
import { optionsCollection } from '../../../shared/descriptions/collections';
import { returnAllProperties } from '../../../shared/descriptions/listing';
import type { Operation } from '../../../shared/execution/operation';
import { collection, readFields } from '../../../shared/input/fieldSets';

const PAGE_SIZE = pageSizeField(
	LARGEST_SCRAPERS_PAGE,
	"Scrapers read per request ('per_page'), 1 to 100. Smaller pages take more requests, each answered sooner.",
);

const OPTIONS = collection(optionsCollection, [PAGE_SIZE]);

export const scraperGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many scrapers',
	description: 'List the scrapers of your account, newest first, with their IDs for Run or Get Latest',
	properties: [...returnAllProperties(), OPTIONS.property],
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [OPTIONS]);
		// New scrapers enter the list at the top and push the rest down a page: the guard leaves out one met again.
		const scrapers = await readListing(call, itemIndex, scrapersPageReader, 'the scrapers list', { field: PAGE_SIZE, values });
		return scrapers.map((json): INodeExecutionData => ({ json }));
	},
};
