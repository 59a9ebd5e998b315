import { callPlatform } from '../../simulator/platform/client';
import {
	DEMO_AI_SCRAPER_IDS,
	DEMO_MANUAL_SCRAPER_IDS,
	PLATFORM_OTHER_USER_TOKEN,
	PlatformSimulator,
	type BulkData,
	type ListedResultRecord,
} from '../../simulator/platform';
import { freshPerTest } from '../served';

const LIST = { page: 1, pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC' };

describe('platform simulator: demo data (seedDemo, used by the standalone simulator)', () => {
	const ctx = freshPerTest(() => new PlatformSimulator());

	const list = async (token?: string) =>
		(await callPlatform<ListedResultRecord[]>(ctx.base, 'GET', '/api/v1/results', { token, query: LIST })).body.data;

	it('a new simulator has no results: seeding is explicit', async () => {
		expect(await list()).toEqual([]);
	});

	it('lists a finished bulk job per demo manual scraper and a finished rerun per demo AI scraper, all in the past', async () => {
		ctx.sim.seedDemo();
		ctx.sim.seedDemo(); // adds nothing the second time
		const records = await list();
		expect(records).toHaveLength(DEMO_MANUAL_SCRAPER_IDS.length + Object.keys(DEMO_AI_SCRAPER_IDS).length);
		const scraperIds = records.map((r) => r.scraperId);
		expect(scraperIds).toEqual([...DEMO_MANUAL_SCRAPER_IDS, ...Object.values(DEMO_AI_SCRAPER_IDS)]);
		for (const record of records) {
			expect(record.status).toBe('Finished');
			expect(Date.parse(record.createdAt)).toBeLessThan(ctx.sim.clock.now() - 12 * 3_600_000);
		}
		const bulks = records.filter((r) => r.type === 'Bulk-AI');
		expect(bulks).toHaveLength(DEMO_MANUAL_SCRAPER_IDS.length);
		for (const bulk of bulks) {
			const data = JSON.parse(bulk.data) as BulkData;
			expect(data.summary).toMatchObject({ totalUrls: 3, successfulUrls: 3, failedUrls: 0 });
		}
		const reruns = records.filter((r) => r.type === 'Rerun-AI');
		expect(reruns.map((r) => r.scraperId)).toEqual(Object.values(DEMO_AI_SCRAPER_IDS));
		// The map agent's rerun lists URLs; the listing agent's is an array of items.
		expect(Array.isArray(JSON.parse(reruns[1].data))).toBe(true);
		expect(await list(PLATFORM_OTHER_USER_TOKEN)).toEqual([]);
	});

	it('cancelling a seeded scraper finds its finished job and cancels nothing', async () => {
		ctx.sim.seedDemo();
		const res = await callPlatform<{ bulkUrls: string[]; canceledUrls: string[] }>(ctx.base, 'PATCH', `/api/v1/scrapers-bulks/${DEMO_MANUAL_SCRAPER_IDS[0]}/cancel`);
		expect(res.status).toBe(200);
		expect(res.body.data.bulkUrls).toHaveLength(3);
		expect(res.body.data.canceledUrls).toEqual([]);
	});
});
