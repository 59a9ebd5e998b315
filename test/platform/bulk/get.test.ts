import type { IDataObject } from 'n8n-workflow';

import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { urls } from '../bulkJobs';
import type { UrlDetail } from '../bulkJobs';
import { ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();
const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];

describe('Bulk > Get', () => {
	it('Get returns status, summary, per-URL details and merged data of a job', async () => {
		ctx.sim.options.bulkUrlDurationMs = 1_000;
		ctx.sim.options.bulkConcurrency = 2;
		const record = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, urls(4));
		ctx.sim.clock.advance(5_000);
		const result = await ctx.run({ resource: 'bulk', operation: 'get', simplify: false, bulkId: record.id });
		expect(result.error).toBeUndefined();
		const job = result.items[0].json;
		expect(job).toMatchObject({ id: record.id, scraperId, completed: true });
		expect((job.urlDetails as UrlDetail[]).every((d) => d.status === 'Finished')).toBe(true);
		expect((job.summary as IDataObject).successfulUrls).toBe(4);
		expect(ctx.sim.server.log.last(ROUTES.result)?.path).toBe(`/api/v1/results/${record.id}`);
	});
});
