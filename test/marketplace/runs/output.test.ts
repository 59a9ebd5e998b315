import type { IDataObject } from 'n8n-workflow';

import { contentRecords, runItem, runRecordItems } from '../../../nodes/ScraperMarketplace/runs/output';
import { result, run } from './records';

/** The shaping of runs into items, without the service. */

describe('contentRecords: the one way a result content becomes records', () => {
	it.each<[string, unknown, IDataObject[]]>([
		['a list as it is', [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 2 }]],
		['a list inside an object, under the first list key', { total: 2, leads: [{ a: 1 }], jobs: [{ b: 2 }] }, [{ a: 1 }]],
		['an object without a list: one record', { title: 'x', tags: 'y' }, [{ title: 'x', tags: 'y' }]],
		['scalars as { value }', ['a', 3, null], [{ value: 'a' }, { value: 3 }, { value: null }]],
		['one scalar', 'text', [{ value: 'text' }]],
		['empty text: none', '', []],
		['null: none', null, []],
		['undefined: none', undefined, []],
	])('%s', (_name, content, expected) => {
		expect(contentRecords(content)).toEqual(expected);
	});
});

describe('run output', () => {
	it('one item per record: the ids first, then the record, paired with the input item', () => {
		const items = runRecordItems(run([result(1, 'succeeded', [{ email: 'a@x', scraper_id: 99 }, { email: 'b@x' }], 'https://a.example/')]), 2);
		expect(items.map((item) => Object.keys(item.json))).toEqual([
			['scraper_id', 'scraping_run_id', 'result_id', 'scraped_url', 'email'],
			['scraper_id', 'scraping_run_id', 'result_id', 'scraped_url', 'email'],
		]);
		// A record field of the same name wins, in the place of the id.
		expect(items[0].json).toEqual({ scraper_id: 99, scraping_run_id: 500, result_id: 1, scraped_url: 'https://a.example/', email: 'a@x' });
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 2 }, { item: 2 }]);
	});

	it('a result without records gives its status and what to do; the wait is shown in seconds', () => {
		const results = [result(1, 'failed'), result(2, 'failed', null, 'https://a.example/'), result(3, 'running'), result(4, 'succeeded', '')];
		const waited = runRecordItems(run(results), 0, 90_000).map((item) => item.json);
		expect(waited).toEqual([
			{
				scraper_id: 7,
				scraping_run_id: 500,
				result_id: 1,
				scraped_url: 'Default',
				status: 'failed',
				message: 'The service could not scrape this query (status failed). Check the input (URL, location or keyword) and run the scraper again.',
			},
			expect.objectContaining({ result_id: 2, message: expect.stringMatching(/^The service could not scrape this target/) }),
			expect.objectContaining({ result_id: 3, status: 'running', message: 'Still running after 90 s. Read it later with Result > Get Many, or raise \'Max Wait (Seconds)\'.' }),
		]);
		expect(runRecordItems(run([result(3, 'queued')]), 0)[0].json.message).toBe('Still queued. Read it later with Result > Get Many.');
	});

	it('one item per run: counts, and on a wait that ended first, the time in seconds', () => {
		const item = runItem(run([result(1, 'succeeded'), result(2, 'running')]), false, 1_000);
		expect(item).toMatchObject({ status: 'running', completed: false, results_total: 2, results_succeeded: 1, results_failed: 0, waitTimedOut: true });
		expect(item.waitMessage).toBe(
			`The run is still running after 1 s: 1 of 2 results done. Read it later with Scraping Run > Get ('Scraping Run ID' ${item.scraping_run_id}), or start a workflow when it finishes with the Scraper Marketplace Trigger (Scraping Run Finished). Or raise 'Max Wait (Seconds)'.`,
		);
		expect(runItem(run([result(1, 'succeeded')]), true, 1_000)).not.toHaveProperty('waitMessage');
		expect(runItem(run([result(1, 'running')]), false)).not.toHaveProperty('waitMessage');
	});
});
