import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { resultsPageReader } from '../../transport/api';
import { contentRecords } from '../../runs/output';
import { recordOrigin } from '../../transport/vocabulary';
import { readListing } from '../common';
import { optionsCollection } from '../../../shared/descriptions/collections';
import { returnAllProperties } from '../../../shared/descriptions/listing';
import type { Operation } from '../../../shared/execution/operation';
import { splitIntoItems } from '../../../shared/output/records';
import { InputValidator } from '../../../shared/input/validation';

export const resultGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many results',
	description: 'List the results of your scraping runs, newest first, with their extracted content',
	properties: [
		...returnAllProperties(),
		optionsCollection([
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
		]),
	],
	async execute(itemIndex, call) {
		const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const split = new InputValidator(this.getNode(), itemIndex).boolean(options.split ?? false, 'Split Into Items');
		const results = await readListing(call, itemIndex, resultsPageReader, 'the results list');
		if (!split) return results.map((json): INodeExecutionData => ({ json }));
		return results.flatMap((result) =>
			splitIntoItems(contentRecords(result.content), itemIndex, recordOrigin(result.scraper_id, result.scraping_run_id, result)),
		);
	},
};
