import type { IDataObject } from 'n8n-workflow';

import type { Operation } from '../../../shared/execution/operation';
import { withoutSecrets } from '../../../shared/execution/errors';
import { readFields, Request } from '../../../shared/input/fieldSets';
import type { Values } from '../../../shared/input/fieldSets';
import { RecordOutput, SCRAPE_URL } from '../common';
import { runScraper } from '../run';
import { scraperId } from '../../descriptions/ids';
import { BYPASS_PROXY, HTML, MARKDOWN, MAX_RETRY, PROXY_COUNTRY, RETURN_COOKIES, STREAM, TIMEOUT } from '../rerunOptions';
import { COOKIE_JAR, COOKIES, HOME_PAGE, HOME_PAGE_TIMEOUT, PAGINATOR, PROXY_URL, RECORD, SCREENSHOT_AS_TEXT, TOKEN_CAP } from './rerunOptions';

const SCRAPER_ID = scraperId('The manual scraper, built in the service dashboard');

const URL = SCRAPE_URL.with({ placeholder: 'e.g. https://example.com/item/1' });

/** Every rerun option the vendor's clients send (public facts, "Manual rerun options"), in their order. */
const RERUN_OPTIONS = [
	MAX_RETRY,
	PROXY_COUNTRY,
	BYPASS_PROXY,
	COOKIE_JAR,
	COOKIES,
	HOME_PAGE,
	HOME_PAGE_TIMEOUT,
	HTML,
	MARKDOWN,
	PAGINATOR,
	PROXY_URL,
	RECORD,
	RETURN_COOKIES,
	SCREENSHOT_AS_TEXT,
	STREAM,
	TIMEOUT.with({ default: 600, description: 'How long the service works on the run, 1 to 600 seconds. The node waits this long plus a minute for the answer. Not added: 600.' }),
	TOKEN_CAP,
];

const OUTPUT = new RecordOutput('Whether to output one item per scraped record', RERUN_OPTIONS);

const RERUN = new Request([SCRAPER_ID, URL, ...RERUN_OPTIONS]);

export const manualScraperRerun: Operation = {
	value: 'rerun',
	name: 'Rerun',
	action: 'Rerun manual scraper',
	description: 'Run a manual scraper on one URL and get its results',
	properties: [...SCRAPER_ID.properties, URL.property, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		// The proxy as entered, masked in any error, a refusal of it included.
		const entered = (this.getNodeParameter(OUTPUT.options.name, itemIndex, {}) as IDataObject)[PROXY_URL.name];
		const secrets = typeof entered === 'string' && entered.trim() !== '' ? [entered, entered.trim()] : [];
		let values: Values;
		try {
			values = readFields(this, itemIndex, [SCRAPER_ID, URL, OUTPUT.options]);
		} catch (error) {
			throw withoutSecrets(error as Error, secrets);
		}
		const run = { path: '/api/v1/scrapers-manual-rerun', body: RERUN.body(values), output: OUTPUT.read(this, itemIndex) };
		return await runScraper(call, { ...run, scraperId: values.get(SCRAPER_ID), acceptJson: true, secrets }, itemIndex);
	},
};
