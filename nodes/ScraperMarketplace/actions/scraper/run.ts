import { SUBJECT } from '../../transport/vocabulary';
import { SCRAPER_ID } from '../../descriptions/ids';
import type { Operation } from '../../../shared/execution/operation';
import { field } from '../../../shared/input/fields';
import { readFields, Request } from '../../../shared/input/fieldSets';
import type { InputValidator } from '../../../shared/input/validation';
import { runAnswer, startRuns, waitingConcurrency, waitProperties } from '../common';

const SCRAPER = SCRAPER_ID.describedAs('The scraper to run: pick it from the list, or its scraper_id, e.g. from the output of a Create and Run');

/** URLs to use instead of the scraper's own: none given (an empty list too) sends none. */
function otherUrls(v: InputValidator, value: unknown, label: string): string[] | undefined {
	const urls = v.httpUrlList(value, label, { required: false });
	return urls.length > 0 ? urls : undefined;
}

const URLS = field(
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. https://example.com/page-1\nhttps://example.com/page-2',
		description: "Leave empty to scrape the scraper's own URLs. Otherwise one URL per line (or separated by commas), used instead of them.",
	},
	otherUrls,
);

/** The body: the URLs, when given. The scraper is in the path, and named so in the service's errors. */
const BODY = new Request([URLS]);
const LABELS = { ...BODY.labels(), scraper_id: SCRAPER.label };

export const scraperRun: Operation = {
	value: 'run',
	name: 'Run',
	action: 'Run scraper',
	description: 'Run an existing scraper again, on its own URLs or on URLs you give',
	properties: [...SCRAPER.properties, URLS.property, ...waitProperties('one record')],
	concurrency: waitingConcurrency,
	parallel: true,
	async execute(itemIndex, call) {
		const values = readFields(this, itemIndex, [SCRAPER, URLS]);
		const scraperId = values.get(SCRAPER);
		return await startRuns(
			call,
			itemIndex,
			{
				path: `/api/scrapers/${scraperId}/run`,
				body: BODY.body(values),
				subject: { kind: SUBJECT.scraper, id: scraperId },
				started: { what: `a run of scraper ${scraperId}`, check: `Look for it with Scraping Run > Get Latest ('${SCRAPER.label}' ${scraperId})` },
			},
			LABELS,
			runAnswer,
		);
	},
};
