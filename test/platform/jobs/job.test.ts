import { readJobLater, toBulkJob, urlsDone } from '../../../nodes/ScraperPlatform/jobs/job';

describe('Platform bulk job: the record and its reading', () => {
	it('a bulk job is completed once every URL has ended, and counts the URLs done', () => {
		const record = (statuses: string[]) => ({
			id: 'b',
			data: JSON.stringify({ urlDetails: statuses.map((status, i) => ({ url: `https://x.example.com/${i}`, status })) }),
		});
		expect(toBulkJob(record(['Finished', 'Failed', 'Canceled'])).completed).toBe(true);
		const running = toBulkJob(record(['Finished', 'Running', 'Pending']));
		expect(running.completed).toBe(false);
		expect(urlsDone(running)).toBe(1);
		expect(toBulkJob(record([])).completed).toBe(false);
	});

	it('how to read a job later names Bulk > Get by the display name of its id field', () => {
		expect(readJobLater('job-7')).toBe(
			"Read it later with Bulk > Get ('Bulk Job ID' job-7), or start a workflow when it finishes with the Scraper Platform Trigger (Bulk Job Completed).",
		);
	});
});
