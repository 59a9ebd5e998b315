import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/execution/operation';
import { field } from '../../../shared/input/fields';
import { readFields } from '../../../shared/input/fieldSets';
import { resultsPages } from '../../transport/api';
import type { ResultsQuery } from '../../transport/api';
import { scraperId } from '../../descriptions/ids';
import { RecordOutput, resultOutput } from '../common';

const SCRAPER_ID = scraperId("The scraper whose newest results to read: pick it from the list, or enter its ID, e.g. the 'scraperId' of a Create and Run output");

const COUNT = field({
	displayName: 'Number of Results',
	name: 'count',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
	default: 1,
	description: 'How many of its newest results to return, 1 to 100 (one page of the results list)',
});

const OUTPUT = new RecordOutput("Whether to output one item per record of each result's data");

/**
 * The newest results of one scraper, newest first: the results list asked as the vendor's n8n node asks it
 * (`filters[scraperId]`, created newest first, one page), and narrowed by the interface's own `search` (which
 * matches any column, the scraper's ID among them), since no API documents the filter. Only records of this scraper
 * are kept, whatever the service did with either.
 */
function latestQuery(id: string, count: number): ResultsQuery {
	return { 'filters[scraperId]': id, search: id, pageSize: count, sortField: 'createdAt', sortOrder: 'DESC' };
}

export const resultGetLatest: Operation = {
	value: 'getLatest',
	name: 'Get Latest',
	action: 'Get latest results of scraper',
	description: "Get a scraper's newest results, newest first, with their extracted data",
	properties: [...SCRAPER_ID.properties, COUNT.property, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [SCRAPER_ID, COUNT]);
		const id = values.get(SCRAPER_ID);
		const output = OUTPUT.read(this, itemIndex);
		const page = await resultsPages(call, latestQuery(id, values.get(COUNT)), itemIndex)(1);
		const ofScraper = page.records.filter((record: IDataObject) => record.scraperId === id);
		return ofScraper.flatMap((record) => resultOutput(record, output, itemIndex));
	},
};
