import { isRunDone, overallStatus, refuseUnnamedRuns, trackRuns } from '../../../nodes/ScraperMarketplace/runs/track';
import { MARKETPLACE_NODE } from '../../shared/fixtures';
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

describe('a start whose answer names no scraping run', () => {
	it('is refused naming the scraper and saying the work was started, never "NaN" or an empty id', () => {
		const answer = [
			{ id: 1, scraping_run_id: 10, scraper_id: 3, status: 'queued' },
			{ id: 2, scraper_id: 3, status: 'queued' },
			{ id: 3, scraping_run_id: '', scraper_id: 3, status: 'queued' },
		];
		let message = '';
		let description = '';
		try {
			refuseUnnamedRuns(MARKETPLACE_NODE, answer, 0);
		} catch (error) {
			({ message, description } = error as { message: string; description: string });
		}
		expect(message).toBe('Scraper Marketplace started the work of scraper 3, but 2 results of its answer name no scraping run (no scraping_run_id)');
		expect(description).toMatch(/^The node can neither wait for nor name a run without its ID\. Do not start it again/);
		expect(message).not.toMatch(/NaN|""/);
		expect(() => refuseUnnamedRuns(MARKETPLACE_NODE, [answer[0], { id: 4, scraping_run_id: '12', scraper_id: 3 }], 0)).not.toThrow();
	});
});
