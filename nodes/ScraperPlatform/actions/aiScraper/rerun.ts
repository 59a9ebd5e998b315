import type { Operation } from '../../../shared/execution/operation';
import { field, validatorFor } from '../../../shared/input/fields';
import { collection, readFields, Request } from '../../../shared/input/fieldSets';
import { RecordOutput, SCRAPE_URL } from '../common';
import { runScraper } from '../run';
import { scraperId } from '../../descriptions/ids';
import { AGENT_OPTION_KEYS, LISTING_MAX_PAGES, MAP_MAX_PAGES, MAP_OPTION_FIELDS, mapOptions } from './agentOptions';
import { BYPASS_PROXY, HTML, MARKDOWN, MAX_RETRY, PROXY_COUNTRY, RETURN_COOKIES, SCREENSHOT, STREAM, TIMEOUT, WAIT_FOR_SELECTOR } from '../rerunOptions';

const SCRAPER_ID = scraperId('The AI scraper: pick it from the list, or the scraperId returned by Create and Run');

const URL = SCRAPE_URL.with({
	placeholder: 'e.g. https://example.com/products?page=2',
	description: 'The page to scrape. Reruns reuse cached results to save tokens and time.',
});

const RENDER_JAVASCRIPT = field({
	displayName: 'Render JavaScript',
	name: 'renderJavascript',
	type: 'boolean',
	default: true,
	description: 'Whether the page is loaded in a browser and its scripts run before it is read. Not added: the service default.',
});

const USE_HOME_PAGE = field({
	displayName: 'Use Home Page',
	name: 'useHomePage',
	type: 'boolean',
	default: true,
	description: "Whether the service opens the site's home page first, as a visitor would. Not added: the service default.",
});

const MAP_OPTIONS = mapOptions({ description: 'Only for scrapers created with the Map agent. Each option is sent only when added.' });

/** The Listing agent's rerun options: how far it follows, how long it works, and whether it streams. */
const LISTING_OPTIONS = collection(
	(options) => ({
		displayName: 'Listing Agent Options',
		name: 'listingOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'Only for scrapers created with the Listing agent. Each option is sent only when added.',
		options,
	}),
	[LISTING_MAX_PAGES.with({ default: 5, description: 'How many listing pages to follow at most, 1 to 1000. Not added: 5.' }), TIMEOUT, STREAM],
);

/** Every rerun option the vendor's clients send (public facts, "AI rerun options"), in their order. */
const RERUN_OPTIONS = [MAX_RETRY, PROXY_COUNTRY, BYPASS_PROXY, HTML, MARKDOWN, RENDER_JAVASCRIPT, RETURN_COOKIES, SCREENSHOT, USE_HOME_PAGE, WAIT_FOR_SELECTOR];

const OUTPUT = new RecordOutput('Whether to output one item per scraped record (e.g. one per listing item or per found page)', RERUN_OPTIONS);

/** The AI rerun takes `returnCookies` where the fetch and the manual rerun say `returnCookie`. */
const RERUN = new Request([SCRAPER_ID, URL, ...MAP_OPTION_FIELDS, ...RERUN_OPTIONS, ...LISTING_OPTIONS.fields], {
	...AGENT_OPTION_KEYS,
	[RETURN_COOKIES.name]: 'returnCookies',
});

export const aiScraperRerun: Operation = {
	value: 'rerun',
	name: 'Rerun',
	action: 'Rerun AI scraper',
	description: 'Run an existing AI scraper on a URL and get its full results',
	properties: [...SCRAPER_ID.properties, URL.property, MAP_OPTIONS.property, LISTING_OPTIONS.property, ...OUTPUT.properties],
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [SCRAPER_ID, URL, MAP_OPTIONS, LISTING_OPTIONS, OUTPUT.options]);
		// A scraper has one agent: its Max Pages is the Map agent's or the Listing agent's, never both.
		if (values.of(MAP_MAX_PAGES) !== undefined && values.of(LISTING_OPTIONS.fields[0]) !== undefined) {
			const [map, listing] = [MAP_OPTIONS.property.displayName, LISTING_OPTIONS.property.displayName];
			validatorFor(this, itemIndex).fail(`${map} > ${MAP_MAX_PAGES.label}`, `it is set with '${listing} > ${MAP_MAX_PAGES.label}'`, `Keep the one of the scraper's agent: '${listing}' for a Listing scraper, '${map}' for a Map scraper.`);
		}
		const run = { path: '/api/v1/scrapers-ai-rerun', body: RERUN.body(values), output: OUTPUT.read(this, itemIndex) };
		return await runScraper(call, { ...run, scraperId: values.get(SCRAPER_ID), acceptJson: true }, itemIndex);
	},
};
