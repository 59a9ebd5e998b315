import type { Operation } from '../../../shared/execution/operation';
import { readFields, Request } from '../../../shared/input/fieldSets';
import { RecordOutput, SCRAPE_URL } from '../common';
import { runScraper } from '../run';
import { scraperId } from '../../descriptions/ids';

const SCRAPER_ID = scraperId('The manual scraper, built in the service dashboard');

const URL = SCRAPE_URL.with({ placeholder: 'e.g. https://example.com/item/1' });

const OUTPUT = new RecordOutput('Whether to output one item per scraped record');

const RERUN = new Request([SCRAPER_ID, URL]);

export const manualScraperRerun: Operation = {
	value: 'rerun',
	name: 'Rerun',
	action: 'Rerun manual scraper',
	description: 'Run a manual scraper on one URL and get its results',
	properties: [...SCRAPER_ID.properties, URL.property, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [SCRAPER_ID, URL]);
		const run = { path: '/api/v1/scrapers-manual-rerun', body: RERUN.body(values), output: OUTPUT.read(this, itemIndex) };
		return await runScraper(call, { ...run, scraperId: values.get(SCRAPER_ID), acceptJson: true }, itemIndex);
	},
};
