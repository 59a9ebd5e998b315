import { callPlatform } from '../../simulator/platform/client';
import {
	DEMO_AI_SCRAPER_IDS,
	DEMO_MANUAL_SCRAPER_IDS,
	OTHER_USER_MANUAL_SCRAPER_ID,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_RESTRICTED_TOKEN,
	PLATFORM_ROUTES,
	PlatformSimulator,
	type ListedResultRecord,
	type ResultRecord,
} from '../../simulator/platform';
import { freshPerTest } from '../served';

const LIST = { page: 1, pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC' };

describe('platform simulator: manual rerun and rerun statuses (public facts)', () => {
	const ctx = freshPerTest(() => new PlatformSimulator());

	const manualRerun = (body: Record<string, unknown>, token = PLATFORM_DEMO_TOKEN) =>
		callPlatform<ResultRecord<Record<string, unknown> | null>>(ctx.base, 'POST', '/api/v1/scrapers-manual-rerun', { body, token });
	const aiRerun = (body: Record<string, unknown>) => callPlatform<ResultRecord>(ctx.base, 'POST', '/api/v1/scrapers-ai-rerun', { body });

	describe('POST /api/v1/scrapers-manual-rerun', () => {
		it("answers a finished Rerun-Manual record at once, its data the general agent's page object", async () => {
			const url = 'https://shop.example.com/product/42';
			const res = await manualRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url });
			expect(res.status).toBe(200);
			expect(res.body.message).toBe('Scraper rerun successfully');
			const record = res.body.data;
			expect(record).toMatchObject({ type: 'Rerun-Manual', status: 'Finished', error: null, url, scraperId: DEMO_MANUAL_SCRAPER_IDS[0] });
			expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
			expect(record.tokenUsage).toBeGreaterThan(0);
			expect(typeof record.runtime).toBe('number');
			expect(record.htmlContent).toMatch(/^<!DOCTYPE html>/);
			expect(record.screenshotPath).toContain(record.id);
			// The same page object the general agent extracts, without an instruction (a manual scraper has no prompt).
			const general = (await aiRerun({ scraperId: DEMO_AI_SCRAPER_IDS.general, url })).body.data.data as Record<string, unknown>;
			const { instruction, ...page } = general;
			expect(instruction).toEqual(expect.any(String));
			expect(record.data).toEqual(page);
			expect(record.htmlContent).toContain(`<title>${String(page.title)}</title>`);
		});

		it('is in the results list and reads back in detail', async () => {
			const record = (await manualRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[1], url: 'https://shop.example.com/a' })).body.data;
			const list = await callPlatform<ListedResultRecord[]>(ctx.base, 'GET', '/api/v1/results', { query: { ...LIST, search: 'Rerun-Manual' } });
			expect(list.body.data.map((r) => [r.id, r.type, r.scraperId])).toEqual([[record.id, 'Rerun-Manual', DEMO_MANUAL_SCRAPER_IDS[1]]]);
			expect(JSON.parse(list.body.data[0].data)).toEqual(record.data);
			expect(ctx.sim.getRecord(record.id)).toEqual(record);
			expect(ctx.sim.server.log.count(PLATFORM_ROUTES.manualRerun)).toBe(1);
		});

		it('a sim-fail URL gives a Failed record; a repeated URL reuses the cache', async () => {
			const failed = (await manualRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/sim-fail' })).body.data;
			expect(failed).toMatchObject({ status: 'Failed', data: null, tokenUsage: 0 });
			expect(failed.error).toEqual(expect.any(String));
			const body = { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/b' };
			const first = (await manualRerun(body)).body.data;
			const second = (await manualRerun(body)).body.data;
			expect(second.data).toEqual(first.data);
			expect(second.tokenUsage).toBeLessThan(first.tokenUsage);
		});

		it('takes manual scrapers only: an AI scraper is 422 isManualScraper', async () => {
			const res = await manualRerun({ scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/' });
			expect(res.status).toBe(422);
			expect(res.body.errors).toEqual([{ field: 'scraperId', rule: 'isManualScraper', message: 'scraperId must be a manual scraper' }]);
			// And the AI rerun refuses a manual scraper the other way round.
			const ai = await aiRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/' });
			expect(ai.body.errors?.map((e) => e.rule)).toEqual(['isAiScraper']);
		});

		it('same order of checks as the AI rerun: 403 permission, 422 accept and body, 404, 403 owner, 422 kind', async () => {
			const good = { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/' };
			expect((await manualRerun({}, PLATFORM_RESTRICTED_TOKEN)).status).toBe(403);
			const noAccept = await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-manual-rerun', { body: good, headers: { accept: 'text/html' } });
			expect(noAccept.status).toBe(422);
			expect(noAccept.body.errors?.map((e) => e.field)).toEqual(['accept']);
			expect((await manualRerun({ ...good, scraperId: '9d9d9d9d-9d9d-4d9d-9d9d-9d9d9d9d9d9d' })).status).toBe(404);
			expect((await manualRerun({ ...good, scraperId: OTHER_USER_MANUAL_SCRAPER_ID })).status).toBe(403);
			// Nothing was stored by the refusals.
			expect((await callPlatform(ctx.base, 'GET', '/api/v1/results', { query: LIST })).body.meta?.total).toBe(0);
		});

		it('is rate limited with the other write endpoints', async () => {
			ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { rateLimit: 1, rateTtl: 10 });
			expect((await manualRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/' })).status).toBe(200);
			const limited = await manualRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/' });
			expect(limited.status).toBe(429);
			expect(limited.body).toEqual({ message: 'Too many requests. Please try again later.' });
			expect(limited.headers.get('retry-after')).toEqual(expect.any(String));
		});
	});

	describe('rerunStatus 201 (the vendor docs OpenAPI)', () => {
		it('both reruns answer 201 with the same body; errors keep their statuses', async () => {
			const url = 'https://shop.example.com/c';
			const at200 = [
				await aiRerun({ scraperId: DEMO_AI_SCRAPER_IDS.general, url }),
				await manualRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url }),
			];
			ctx.sim.options.rerunStatus = 201;
			const at201 = [
				await aiRerun({ scraperId: DEMO_AI_SCRAPER_IDS.general, url }),
				await manualRerun({ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url }),
			];
			at201.forEach((res, i) => {
				expect(res.status).toBe(201);
				expect(at200[i].status).toBe(200);
				expect(res.body.message).toBe(at200[i].body.message);
				expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(at200[i].body.data).sort());
				expect(res.body.data.data).toEqual(at200[i].body.data.data);
			});
			expect((await aiRerun({})).status).toBe(422);
			// The bulk starts have their own option.
			const bulk = await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-manual-rerun/bulk', { body: { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: [url] } });
			expect(bulk.status).toBe(200);
		});

		it('is a constructor option too', async () => {
			const created = new PlatformSimulator({ rerunStatus: 201 });
			const url = await created.listen();
			try {
				const res = await callPlatform(url, 'POST', '/api/v1/scrapers-ai-rerun', { body: { scraperId: DEMO_AI_SCRAPER_IDS.map, url: 'https://docs.example.com/' } });
				expect(res.status).toBe(201);
				expect(created.options.rerunStatus).toBe(201);
				expect(created.options.bulkStartStatus).toBe(200);
				expect(created.options.bulkStartAnswer).toBe('both');
			} finally {
				await created.close();
			}
		});
	});
});
