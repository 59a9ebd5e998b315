import type { IDataObject } from 'n8n-workflow';

import {
	LIST_PAGE_SIZE,
	MAX_PAGES_PER_POLL,
	bulkJobsQuery,
	collectCompletedJobs,
	isWantedRecord,
	newestUpdate,
	nextKeyset,
} from '../../../nodes/ScraperPlatform/trigger/paging';
import { startState } from '../../../nodes/ScraperPlatform/trigger/state';
import type { TriggerState } from '../../../nodes/ScraperPlatform/trigger/state';
import type { PlatformSimulator } from '../../simulator/platform';
import { LIST, SCRAPER_A, SCRAPER_B, TOKEN, countRequests, newTrigger, startJob, useSimulator } from './helpers';

const T = Date.parse('2026-03-01T12:00:00.000Z');
const at = (ms: number): IDataObject => ({ updatedAt: new Date(ms).toISOString() });

describe('Bulk Trigger paging: pure pieces', () => {
	it('the next page starts at the last updatedAt read, by offset only while a page shares one instant', () => {
		expect(nextKeyset({ startAt: T, page: 1 }, [at(T), at(T + 5), at(T + 9)])).toEqual({ startAt: T + 9, page: 1 });
		expect(nextKeyset({ startAt: undefined, page: 1 }, [at(T)])).toEqual({ startAt: T, page: 1 });
		expect(nextKeyset({ startAt: T, page: 2 }, [at(T), at(T)])).toEqual({ startAt: T, page: 3 });
		// Records without a readable updatedAt do not move the keyset.
		expect(nextKeyset({ startAt: T, page: 1 }, [at(T + 3), { updatedAt: 'later' }])).toEqual({ startAt: T + 3, page: 1 });
	});

	it('wants bulk records only, of the chosen scraper when there is one', () => {
		expect(isWantedRecord({ type: 'Bulk-AI', scraperId: SCRAPER_A }, undefined)).toBe(true);
		expect(isWantedRecord({ type: 'bulk-ai', scraperId: SCRAPER_A }, SCRAPER_A)).toBe(true);
		expect(isWantedRecord({ type: 'Bulk-AI', scraperId: SCRAPER_B }, SCRAPER_A)).toBe(false);
		expect(isWantedRecord({ type: 'Rerun-AI', scraperId: SCRAPER_A }, undefined)).toBe(false);
	});

	it('asks the list for bulk records by updatedAt', () => {
		expect(bulkJobsQuery(100, 'ASC')).toEqual({ pageSize: 100, sortField: 'updatedAt', sortOrder: 'ASC', search: 'Bulk-AI' });
	});
});

/** `count` finished bulk jobs of one URL each, one second apart (or all at one instant with `stepMs: 0`). */
function seedFinishedJobs(sim: PlatformSimulator, count: number, stepMs = 1000): void {
	sim.seedResults(TOKEN, count, {
		type: 'Bulk-AI',
		status: 'Finished',
		scraperId: SCRAPER_A,
		runtime: 1,
		stepMs,
		data: {
			mergedData: [{ title: 'seeded' }],
			urlDetails: [{ url: 'https://seed.example.com/1', status: 'Finished', error: null }],
			summary: { totalUrls: 1, successfulUrls: 1, failedUrls: 0, scrapedCount: 1, totalTokenUsage: 10 },
		},
	});
}

describe('Bulk Trigger paging: against the simulator', () => {
	const ctx = useSimulator();
	const poll = (sim: PlatformSimulator) => newTrigger(sim).call('trigger');
	const since = (ms: number): TriggerState => startState(ms);

	it('the newest update is the newest bulk job, one request; none while the account has no job', async () => {
		const { sim } = ctx;
		expect(await newestUpdate(poll(sim))).toBeUndefined();
		startJob(sim);
		const last = startJob(sim, { urls: 2 });
		sim.clock.advance(60_000);
		const newest = await countRequests(sim, () => newestUpdate(poll(sim)));
		expect(newest.value).toBe(Date.parse(sim.getRecord(last)!.updatedAt));
		expect(newest.total).toBe(1);
		expect(sim.server.log.last(LIST)!.query).toMatchObject({ page: '1', pageSize: '1', sortOrder: 'DESC', search: 'Bulk-AI' });
	});

	it(`a backlog longer than ${MAX_PAGES_PER_POLL} pages is read across polls, each job once, in update order`, async () => {
		const { sim } = ctx;
		const total = MAX_PAGES_PER_POLL * LIST_PAGE_SIZE + 150;
		seedFinishedJobs(sim, total);
		let state = since(sim.clock.now() - 10 * 3_600_000);
		const emitted: string[] = [];
		const first = await countRequests(sim, () => collectCompletedJobs(poll(sim), state));
		expect(first.list).toBe(MAX_PAGES_PER_POLL);
		expect(first.detail).toBe(0);
		expect(first.value.state.overlapPending).toBe(true);
		emitted.push(...first.value.jobs.map((job) => job.id));
		state = first.value.state;
		for (let p = 0; p < 3; p++) {
			const next = await collectCompletedJobs(poll(sim), state);
			emitted.push(...next.jobs.map((job) => job.id));
			state = next.state;
		}
		expect(emitted).toHaveLength(total);
		expect(new Set(emitted).size).toBe(total);
		const stamps = emitted.map((id) => Date.parse(sim.getRecord(id)!.updatedAt));
		expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
	});

	it('a page that shares one updatedAt is stepped through by offset, each job once', async () => {
		const { sim } = ctx;
		seedFinishedJobs(sim, 250, 0);
		const outcome = await countRequests(sim, () => collectCompletedJobs(poll(sim), since(sim.clock.now() - 3_600_000)));
		expect(new Set(outcome.value.jobs.map((job) => job.id)).size).toBe(250);
		expect(outcome.value.jobs).toHaveLength(250);
		// Page 1 moves the keyset to that instant; from it, pages 1, 2 and 3 by offset.
		expect(sim.server.log.for(LIST).map((r) => r.query.page)).toEqual(['1', '1', '2', '3']);
	});

	it('keeps to the chosen scraper and leaves running jobs for later', async () => {
		const { sim } = ctx;
		const from = sim.clock.now() - 1;
		const a = startJob(sim, { scraperId: SCRAPER_A });
		startJob(sim, { scraperId: SCRAPER_B });
		const running = startJob(sim, { scraperId: SCRAPER_A, urlMs: 3_600_000 });
		sim.clock.advance(60_000);
		const outcome = await collectCompletedJobs(poll(sim), since(from), SCRAPER_A);
		expect(outcome.jobs.map((job) => job.id)).toEqual([a]);
		expect(outcome.state.seen).toEqual({ [a]: Date.parse(sim.getRecord(a)!.updatedAt) });
		expect(outcome.state.seen[running]).toBeUndefined();
	});
});
