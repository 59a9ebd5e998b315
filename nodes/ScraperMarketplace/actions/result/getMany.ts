import type { INodeExecutionData } from 'n8n-workflow';

import { resultsPageReader } from '../../transport/api';
import { contentRecords } from '../../runs/output';
import { LARGEST_RESULTS_PAGE, recordOrigin } from '../../transport/vocabulary';
import { pageSizeField, readListing, splitField } from '../common';
import { optionsCollection } from '../../../shared/descriptions/collections';
import { returnAllProperties } from '../../../shared/descriptions/listing';
import type { Operation } from '../../../shared/execution/operation';
import { splitIntoItems } from '../../../shared/output/records';
import { collection, readFields } from '../../../shared/input/fieldSets';

const PAGE_SIZE = pageSizeField(
	LARGEST_RESULTS_PAGE,
	'Results per request (per_page), 1 to 100. Smaller pages are slower but avoid time-outs on large results.',
);

const SPLIT = splitField(
	'Whether to output one item per extracted record (one lead, listing, PDF…) instead of one per result; results without content yet are left out',
);

const OPTIONS = collection(optionsCollection, [PAGE_SIZE, SPLIT]);

export const resultGetMany: Operation = {
	value: 'getMany',
	name: 'Get Many',
	action: 'Get many results',
	description: 'List the results of your scraping runs, newest first, with their extracted content',
	properties: [...returnAllProperties(), OPTIONS.property],
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [OPTIONS]);
		const results = await readListing(call, itemIndex, resultsPageReader, 'the results list', { field: PAGE_SIZE, values });
		if (!values.of(SPLIT)) return results.map((json): INodeExecutionData => ({ json }));
		return results.flatMap((result) =>
			splitIntoItems(contentRecords(result.content), itemIndex, recordOrigin(result.scraper_id, result.scraping_run_id, result)),
		);
	},
};
