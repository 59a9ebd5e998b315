import type { Operation } from '../../../shared/execution/operation';
import { readFields, Request } from '../../../shared/input/fieldSets';
import { RecordOutput, SCRAPE_URL } from '../common';
import { runScraper } from '../run';
import { scraperId } from '../../descriptions/ids';
import { AGENT_OPTION_KEYS, MAP_OPTION_FIELDS, mapOptions } from './agentOptions';

const SCRAPER_ID = scraperId('The AI scraper: pick it from the list, or the scraperId returned by Create and Run');

const URL = SCRAPE_URL.with({
	placeholder: 'e.g. https://example.com/products?page=2',
	description: 'The page to scrape. Reruns reuse cached results to save tokens and time.',
});

const MAP_OPTIONS = mapOptions({ description: 'Only for scrapers created with the Map agent. Each option is sent only when added.' });
const OUTPUT = new RecordOutput('Whether to output one item per scraped record (e.g. one per listing item or per found page)');

const RERUN = new Request([SCRAPER_ID, URL, ...MAP_OPTION_FIELDS], AGENT_OPTION_KEYS);

export const aiScraperRerun: Operation = {
	value: 'rerun',
	name: 'Rerun',
	action: 'Rerun AI scraper',
	description: 'Run an existing AI scraper on a URL and get its full results',
	properties: [...SCRAPER_ID.properties, URL.property, MAP_OPTIONS.property, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [SCRAPER_ID, URL, MAP_OPTIONS]);
		const run = { path: '/api/v1/scrapers-ai-rerun', body: RERUN.body(values), output: OUTPUT.read(this, itemIndex) };
		return await runScraper(call, { ...run, scraperId: values.get(SCRAPER_ID), acceptJson: true }, itemIndex);
	},
};
