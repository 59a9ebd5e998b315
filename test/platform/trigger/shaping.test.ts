import type { INode } from 'n8n-workflow';

import type { BulkJob } from '../../../nodes/ScraperPlatform/jobs/job';
import type { TriggerParameters } from '../../../nodes/ScraperPlatform/trigger/properties';
import {
	SAMPLE_MAX_PAGES,
	SAMPLE_PAGE_SIZE,
	isCanceledJob,
	isFailedOnlyJob,
	jobItems,
	noSampleError,
	passesStatusFilters,
	sampleItems,
} from '../../../nodes/ScraperPlatform/trigger/shaping';
import { LIST, SCRAPER_A, TOKEN, countRequests, newTrigger, useSimulator } from './helpers';

function job(statuses: string[], overrides: Partial<BulkJob> = {}): BulkJob {
	return {
		id: 'job-1',
		scraperId: SCRAPER_A,
		status: 'Finished',
		completed: true,
		summary: {},
		urlDetails: statuses.map((status, i) => ({ url: `https://shop.example.com/${i}`, status })),
		mergedData: [],
		...overrides,
	};
}

const PARAMS: TriggerParameters = { output: 'job', includeFailed: false, includeCanceled: false };

describe('Bulk Trigger shaping: filters', () => {
	it('a job with a canceled URL (or itself canceled) is canceled, in any spelling', () => {
		expect(isCanceledJob(job(['Finished', 'Canceled']))).toBe(true);
		expect(isCanceledJob(job(['Finished', 'cancelled']))).toBe(true);
		expect(isCanceledJob(job(['Finished'], { status: 'CANCELED' }))).toBe(true);
		expect(isCanceledJob(job(['Finished', 'Failed']))).toBe(false);
	});

	it('failed-only means every URL failed (and there is at least one)', () => {
		expect(isFailedOnlyJob(job(['Failed', 'Error']))).toBe(true);
		expect(isFailedOnlyJob(job(['Failed', 'Finished']))).toBe(false);
		expect(isFailedOnlyJob(job([]))).toBe(false);
	});

	it('skips canceled and failed-only jobs unless included; a partly failed job always passes', () => {
		const canceled = job(['Failed', 'Canceled']);
		const failed = job(['Failed']);
		expect(passesStatusFilters(job(['Finished', 'Failed']), PARAMS)).toBe(true);
		expect(passesStatusFilters(canceled, PARAMS)).toBe(false);
		expect(passesStatusFilters(failed, PARAMS)).toBe(false);
		// Canceled wins over failed-only: Include Failed Jobs alone does not bring a canceled job.
		expect(passesStatusFilters(canceled, { ...PARAMS, includeFailed: true })).toBe(false);
		expect(passesStatusFilters(canceled, { ...PARAMS, includeCanceled: true })).toBe(true);
		expect(passesStatusFilters(failed, { ...PARAMS, includeFailed: true })).toBe(true);
	});
});

describe('Bulk Trigger shaping: items', () => {
	it('one item per job is the job itself', () => {
		const one = job(['Finished'], { mergedData: [{ title: 'a' }] });
		expect(jobItems(one, { output: 'job' })).toEqual([{ json: one }]);
	});

	it('one item per merged record carries the job id first, unpaired, and the right one even if a record has a bulkId', () => {
		const items = jobItems(job(['Finished'], { mergedData: [{ title: 'a' }, { bulkId: 'wrong', title: 'b' }] }), { output: 'records' });
		expect(items).toEqual([{ json: { bulkId: 'job-1', title: 'a' } }, { json: { bulkId: 'job-1', title: 'b' } }]);
		expect(Object.keys(items[0].json)).toEqual(['bulkId', 'title']);
		expect(jobItems(job(['Finished']), { output: 'records' })).toEqual([]);
	});
});

describe('Bulk Trigger shaping: the editor sample', () => {
	const node = { name: 'Scraper Bulk Trigger' } as INode;

	it('names what was looked for and which jobs are skipped', () => {
		const plain = noSampleError(node, PARAMS);
		expect(plain.message).toBe('No completed bulk job found yet');
		expect(plain.description).toContain(`among the ${SAMPLE_PAGE_SIZE * SAMPLE_MAX_PAGES} newest bulk jobs`);
		expect(plain.description).toContain('jobs in which every URL failed and canceled jobs are skipped unless enabled in Options');
		const narrow = noSampleError(node, { output: 'records', scraperId: SCRAPER_A, includeFailed: true, includeCanceled: true });
		expect(narrow.message).toBe(`No completed bulk job of scraper ${SCRAPER_A} with merged records found yet`);
		expect(narrow.description).not.toContain('skipped');
	});

	describe('against the simulator', () => {
		const ctx = useSimulator();

		it(`looks at ${SAMPLE_MAX_PAGES} pages at most, then says nothing was found`, async () => {
			const { sim } = ctx;
			const running = { url: 'https://shop.example.com/1', status: 'Running', error: null };
			sim.seedResults(TOKEN, SAMPLE_PAGE_SIZE * SAMPLE_MAX_PAGES + 30, {
				type: 'Bulk-AI',
				status: 'Running',
				scraperId: SCRAPER_A,
				data: { mergedData: [], urlDetails: [running], summary: {} },
			});
			const trigger = newTrigger(sim);
			const sample = await countRequests(sim, async () => await sampleItems(trigger.call('manual'), PARAMS).catch((e: unknown) => e as Error));
			expect((sample.value as Error).message).toBe('No completed bulk job found yet');
			expect(sample.list).toBe(SAMPLE_MAX_PAGES);
			expect(sample.detail).toBe(0);
			expect(sim.server.log.for(LIST).map((r) => r.query.page)).toEqual(['1', '2', '3', '4']);
		});
	});
});
