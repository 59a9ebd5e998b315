import { isRunDone, overallStatus, trackRuns } from '../../../nodes/ScraperMarketplace/runs/track';
import { result, run } from './records';

/** Runs tracked from the service's answers, without the service. */

describe('Marketplace vocabulary', () => {
	it("a run's status from its results", () => {
		expect(overallStatus([])).toBe('queued');
		expect(overallStatus([result(1, 'queued')])).toBe('queued');
		expect(overallStatus([result(1, 'queued'), result(2, 'succeeded')])).toBe('running');
		expect(overallStatus([result(1, 'Succeeded'), result(2, 'succeeded')])).toBe('succeeded');
		expect(overallStatus([result(1, 'failed'), result(2, 'succeeded')])).toBe('failed');
	});
});

describe('run tracking', () => {
	it('groups create answers by run, in run-list shape (content null, no configuration, no misspelt twin)', () => {
		const answer = [
			{ id: 1, scraping_run_id: 10, scraper_id: 3, scraper_name: 'A', status: 'queued', scraper: { id: 3 }, scrapped_url: 'x', scraped_url: 'x' },
			{ id: 2, scraping_run_id: 11, scraper_id: 3, scraper_name: 'A', status: 'queued' },
			{ id: 3, scraping_run_id: 10, scraper_id: 3, scraper_name: 'A', status: 'running' },
		];
		const runs = trackRuns(answer);
		expect(runs.map((r) => [r.id, r.results.length, r.status, r.read])).toEqual([
			[10, 2, 'running', false],
			[11, 1, 'queued', false],
		]);
		expect(runs[0].results[0]).toEqual({ content: null, id: 1, scraping_run_id: 10, scraper_id: 3, scraper_name: 'A', status: 'queued', scraped_url: 'x' });
	});

	it('a run is done once read with every result terminal, never without results', () => {
		expect(isRunDone(run([result(1, 'succeeded')]))).toBe(true);
		expect(isRunDone(run([result(1, 'succeeded')], false))).toBe(false);
		expect(isRunDone(run([result(1, 'succeeded'), result(2, 'running')]))).toBe(false);
		expect(isRunDone(run([]))).toBe(false);
	});
});
