import { toBulkJob } from '../../../nodes/ScraperPlatform/jobs/job';
import { mergedRecordItems, waitedJobItems } from '../../../nodes/ScraperPlatform/jobs/output';

describe('Platform bulk job: as output items', () => {
	it("a bulk job's merged records as items: the job id first and right, paired with the input item (a trigger's unpaired)", () => {
		const job = toBulkJob({ id: 'job-7', data: { mergedData: [{ title: 'a' }, { bulkId: 'wrong', title: 'b' }] } });
		const items = mergedRecordItems(job, 2);
		expect(items.map((item) => item.json)).toEqual([{ bulkId: 'job-7', title: 'a' }, { bulkId: 'job-7', title: 'b' }]);
		expect(Object.keys(items[1].json)).toEqual(['bulkId', 'title']);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 2 }, { item: 2 }]);
		expect(mergedRecordItems(job, undefined).map((item) => 'pairedItem' in item)).toEqual([false, false]);
	});

	it('a job whose wait ended first is one item of its simplified fields and the note, never partial records', () => {
		const job = toBulkJob({
			id: 'job-8',
			status: 'Running',
			data: { summary: { totalUrls: 2, successfulUrls: 1 }, urlDetails: [{ url: 'https://x.example.com/', status: 'Running' }], mergedData: [{ title: 'a' }] },
		});
		const note = { waitTimedOut: true, waitMessage: 'still running' };
		const items = waitedJobItems({ job, note }, 'records', undefined, 0);
		expect(items.map((item) => item.json)).toEqual([
			{ id: 'job-8', status: 'Running', completed: false, totalUrls: 2, successfulUrls: 1, scraperId: '', waitTimedOut: true, waitMessage: 'still running' },
		]);
		expect(waitedJobItems({ job, note: {} }, 'records', undefined, 0).map((item) => item.json)).toEqual([{ bulkId: 'job-8', title: 'a' }]);
		expect(waitedJobItems({ job, note: {} }, 'job', undefined, 0)[0].json).toMatchObject({ id: 'job-8', urlDetails: job.urlDetails });
	});
});
