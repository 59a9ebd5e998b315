import { callPlatform } from '../../simulator/platform/client';
import {
	DEMO_AI_SCRAPER_IDS,
	DEMO_MANUAL_SCRAPER_IDS,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PlatformSimulator,
	type AiExampleData,
	type BulkData,
	type CreateAndRunRecord,
	type ResultRecord,
	type SubscriptionAccount,
} from '../../simulator/platform';
import { freshPerTest } from '../served';

describe('platform simulator: scrapers and account', () => {
	const ctx = freshPerTest(() => new PlatformSimulator());

	const create = (body: Record<string, unknown>, token = PLATFORM_DEMO_TOKEN) =>
		callPlatform<CreateAndRunRecord>(ctx.base, 'POST', '/api/v1/scrapers-ai', { body, token });
	const rerun = (body: Record<string, unknown>) => callPlatform<ResultRecord>(ctx.base, 'POST', '/api/v1/scrapers-ai-rerun', { body });

	describe('create and run (scrapers-ai)', () => {
		it('stores a scraper and an AI result with example code and example output only', async () => {
			const res = await create({ url: 'https://shop.example.com/catalog', prompt: 'Extract products', agent: 'listing', proxyCountry: 'de' });
			expect(res.status).toBe(200);
			expect(typeof res.body.message).toBe('string');
			const record = res.body.data;
			expect(record.type).toBe('AI');
			expect(record.status).toBe('Finished');
			expect(record.url).toBe('https://shop.example.com/catalog');
			expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
			expect(record.scraperId).toMatch(/^[0-9a-f-]{36}$/);
			expect(record.scraperId).not.toBe(record.id);
			expect(record.runtime).toMatch(/^\d+\.\d{3}$/);
			expect(record.tokenUsage).toBeGreaterThan(0);
			expect(record.error).toBeNull();
			// The interface: no screenshotPath in this response; curl, page contents and audit fields are there.
			expect(record).not.toHaveProperty('screenshotPath');
			expect(record.htmlPath).toContain(record.id);
			expect(record.recordingPath).toContain(record.id);
			expect(record.dataPath).toContain(record.id);
			expect(record.html).toMatch(/^<!DOCTYPE html>/);
			expect(record.markdown).toMatch(/^# /);
			expect(Buffer.from(record.screenshot, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
			expect(record.curl).toContain('https://shop.example.com/catalog');
			expect(record.curl).not.toContain(PLATFORM_DEMO_TOKEN);
			expect(record.createdById).toBe(record.userId);
			expect(record.updatedById).toBe(record.userId);
			expect(record.deletedAt).toBeNull();
			expect(record.deletedById).toBeNull();
			expect(Date.parse(record.updatedAt)).toBe(Date.parse(record.createdAt));
			const data = record.data;
			expect(data.agent).toBe('listing');
			expect(data.exampleCode).toContain('Extract products');
			expect(Array.isArray(data.exampleOutput)).toBe(true);
			expect((data.exampleOutput as unknown[]).length).toBe(2);
		});

		it('defaults the agent to general and is deterministic per URL', async () => {
			const a = await create({ url: 'https://news.example.org/today', prompt: 'Headline' });
			const b = await create({ url: 'https://news.example.org/today', prompt: 'Headline' });
			const c = await create({ url: 'https://news.example.org/yesterday', prompt: 'Headline' });
			expect(a.body.data.data.agent).toBe('general');
			expect(a.body.data.data.exampleOutput).toEqual(b.body.data.data.exampleOutput);
			expect(a.body.data.html).toBe(b.body.data.html);
			expect(a.body.data.tokenUsage).toBe(b.body.data.tokenUsage);
			expect(c.body.data.data.exampleOutput).not.toEqual(a.body.data.data.exampleOutput);
			expect(a.body.data.scraperId).not.toBe(b.body.data.scraperId);
		});

		it('the stored result reads back in detail with data as an object and htmlContent', async () => {
			const created = (await create({ url: 'https://shop.example.com/', prompt: 'Title' })).body.data;
			const res = await callPlatform<ResultRecord<AiExampleData>>(ctx.base, 'GET', `/api/v1/results/${created.id}`);
			expect(res.status).toBe(200);
			expect(res.body.data.data).toEqual(created.data);
			expect(res.body.data.htmlContent).toBe(created.html);
			expect(res.body.data.runtime).toBe(Number(created.runtime));
			expect(res.body.data.screenshotPath).toContain(created.id);
			expect(ctx.sim.getRecord(created.id)).toEqual(res.body.data);
		});
	});

	describe('rerun (scrapers-ai-rerun)', () => {
		it('general agent: an object of extracted fields, with the page HTML', async () => {
			const res = await rerun({ scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/about' });
			expect(res.status).toBe(200);
			const record = res.body.data;
			expect(record.type).toBe('Rerun-AI');
			expect(record.status).toBe('Finished');
			expect(record.scraperId).toBe(DEMO_AI_SCRAPER_IDS.general);
			expect(typeof record.runtime).toBe('number');
			expect(record.htmlContent).toMatch(/^<!DOCTYPE html>/);
			const data = record.data as Record<string, unknown>;
			expect(data).toMatchObject({ url: 'https://shop.example.com/about' });
			expect(record.htmlContent).toContain(`<title>${String(data.title)}</title>`);
			expect(typeof data.wordCount).toBe('number');
		});

		it('listing agent: an array of items, the ones on the page', async () => {
			const res = await rerun({ scraperId: DEMO_AI_SCRAPER_IDS.listing, url: 'https://shop.example.com/chairs' });
			const items = res.body.data.data as Array<{ position: number; title: string; price: number; url: string }>;
			expect(items.length).toBeGreaterThanOrEqual(3);
			expect(items.length).toBeLessThanOrEqual(10);
			items.forEach((item, i) => {
				expect(item.position).toBe(i + 1);
				expect(res.body.data.htmlContent).toContain(`href="${item.url}">${item.title}</a>`);
			});
		});

		it('the agent is the one the scraper was created with', async () => {
			const created = (await create({ url: 'https://shop.example.com/', prompt: 'Products', agent: 'listing' })).body.data;
			const res = await rerun({ scraperId: created.scraperId, url: 'https://shop.example.com/lamps' });
			expect(Array.isArray(res.body.data.data)).toBe(true);
		});

		describe('map agent', () => {
			const start = 'https://docs.example.com/';
			const map = async (options: Record<string, unknown> = {}) => {
				const res = await rerun({ scraperId: DEMO_AI_SCRAPER_IDS.map, url: start, ...options });
				expect(res.status).toBe(200);
				return res.body.data.data as string[];
			};
			const depth = (url: string) => new URL(url).pathname.split('/').filter(Boolean).length;

			it('lists same-site pages up to maxDepth 2 by default, deterministically', async () => {
				const urls = await map();
				expect(urls[0]).toBe(start);
				expect(new Set(urls).size).toBe(urls.length);
				for (const url of urls) expect(new URL(url).origin).toBe('https://docs.example.com');
				expect(Math.max(...urls.map(depth))).toBe(2);
				expect(await map()).toEqual(urls);
				expect(await map({ maxDepth: 2, maxPages: 50, limit: 1000 })).toEqual(urls);
			});

			it('the pages are the links on the fake site', async () => {
				const page = await rerun({ scraperId: DEMO_AI_SCRAPER_IDS.general, url: start });
				const firstLevel = (await map({ maxDepth: 1 })).slice(1);
				expect(firstLevel.length).toBeGreaterThanOrEqual(2);
				for (const url of firstLevel) expect(page.body.data.htmlContent).toContain(`href="${url}"`);
			});

			it('honours maxDepth, maxPages, limit and the patterns', async () => {
				const all = await map();
				const shallow = await map({ maxDepth: 1 });
				expect(shallow.every((u) => depth(u) <= 1)).toBe(true);
				expect(shallow.length).toBeLessThan(all.length);
				const deep = await map({ maxDepth: 3 });
				expect(deep.length).toBeGreaterThan(all.length);
				expect(Math.max(...deep.map(depth))).toBe(3);
				expect(await map({ maxDepth: 5, maxPages: 7 })).toHaveLength(7);
				expect(await map({ maxDepth: 5, limit: 4 })).toEqual((await map({ maxDepth: 5 })).slice(0, 4));

				const included = await map({ includePatterns: '-1$' });
				expect(included.length).toBeGreaterThan(0);
				expect(included.every((u) => /-1$/.test(u))).toBe(true);
				expect(included).toEqual(all.filter((u) => /-1$/.test(u)));
				const excluded = await map({ excludePatterns: '-2' });
				expect(excluded).toEqual(all.filter((u) => !u.includes('-2')));
			});
		});

		it('a repeated rerun of the same URL reuses the cache: fewer tokens, less time', async () => {
			const body = { scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/pricing' };
			const first = (await rerun(body)).body.data;
			const second = (await rerun(body)).body.data;
			expect(second.data).toEqual(first.data);
			expect(second.tokenUsage).toBeLessThan(first.tokenUsage);
			expect(second.runtime).toBeLessThan(first.runtime);
			expect(second.id).not.toBe(first.id);
		});

		it('a URL marked sim-fail comes back Failed with an error', async () => {
			const res = await rerun({ scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/sim-fail' });
			expect(res.status).toBe(200);
			expect(res.body.data.status).toBe('Failed');
			expect(res.body.data.error).toEqual(expect.any(String));
			expect(res.body.data.data).toBeNull();
			expect(res.body.data.tokenUsage).toBe(0);
		});
	});

	describe('subscription account (verify token)', () => {
		const account = async (token = PLATFORM_DEMO_TOKEN) =>
			(await callPlatform<SubscriptionAccount>(ctx.base, 'GET', '/api/v1/subscription-accounts', { token })).body;

		it('has the interface fields and masks the token', async () => {
			const body = await account();
			expect(body.message).toEqual(expect.any(String));
			const data = body.data;
			expect(Object.keys(data).sort()).toEqual(
				[
					'id',
					'userId',
					'tokenLimit',
					'tokenUsage',
					'quantity',
					'rateLimit',
					'rateTtl',
					'billingSubscriptionId',
					'billingStatus',
					'endsAt',
					'isEnterprise',
					'isAutoRenew',
					'user',
				].sort(),
			);
			expect(data).toMatchObject({ tokenUsage: 0, rateLimit: 600, rateTtl: 60, isEnterprise: false, isAutoRenew: true });
			expect(Object.keys(data.user).sort()).toEqual(['email', 'id', 'isVerified', 'latestApiToken', 'name']);
			expect(data.user.id).toBe(data.userId);
			expect(data.user.latestApiToken).toBe(`${PLATFORM_DEMO_TOKEN.slice(0, 4)}…`);
			expect(JSON.stringify(body)).not.toContain(PLATFORM_DEMO_TOKEN);
			expect(Number.isNaN(Date.parse(data.endsAt))).toBe(false);
		});

		it('tokenUsage grows with every scrape, per account', async () => {
			const created = (await create({ url: 'https://shop.example.com/', prompt: 'Title' })).body.data;
			expect((await account()).data.tokenUsage).toBe(created.tokenUsage);
			const rerunRecord = (await rerun({ scraperId: created.scraperId, url: 'https://shop.example.com/x' })).body.data;
			expect((await account()).data.tokenUsage).toBe(created.tokenUsage + rerunRecord.tokenUsage);

			// A bulk job adds its tokens as its URLs finish.
			const bulk = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], ['https://shop.example.com/p/1', 'https://shop.example.com/p/2']);
			expect((await account()).data.tokenUsage).toBe(created.tokenUsage + rerunRecord.tokenUsage);
			ctx.sim.clock.advance(2_000);
			const done = ctx.sim.getRecord<BulkData>(bulk.id);
			expect(done?.status).toBe('Finished');
			expect(done?.tokenUsage).toBeGreaterThan(0);
			expect((await account()).data.tokenUsage).toBe(created.tokenUsage + rerunRecord.tokenUsage + (done?.tokenUsage ?? 0));

			expect((await account(PLATFORM_OTHER_USER_TOKEN)).data.tokenUsage).toBe(0);
		});

		it('latestApiToken follows a newly created token', async () => {
			const token = ctx.sim.addApiToken(PLATFORM_DEMO_TOKEN, 'automation');
			const data = (await account(token)).data;
			expect(data.user.latestApiToken).toBe(`${token.slice(0, 4)}…`);
			expect((await account()).data.userId).toBe(data.userId);
		});
	});
});
