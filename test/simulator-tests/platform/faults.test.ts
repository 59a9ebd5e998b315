import { callPlatform } from '../../simulator/platform/client';
import { PLATFORM_DEMO_TOKEN, PLATFORM_ROUTES, PlatformSimulator, type ListedResultRecord } from '../../simulator/platform';
import { freshPerTest } from '../served';

const LIST = { page: 1, pageSize: 10, sortField: 'createdAt', sortOrder: 'DESC' };

describe('platform simulator: fault injection and the request log', () => {
	const ctx = freshPerTest(() => new PlatformSimulator());

	it('connection reset: the request fails without an answer, the next one succeeds', async () => {
		ctx.sim.server.faults.add({ kind: 'reset', routes: [PLATFORM_ROUTES.subscriptionAccount], times: 1 });
		await expect(callPlatform(ctx.base, 'GET', '/api/v1/subscription-accounts')).rejects.toThrow();
		expect((await callPlatform(ctx.base, 'GET', '/api/v1/subscription-accounts')).status).toBe(200);
		expect(ctx.sim.server.log.for(PLATFORM_ROUTES.subscriptionAccount).map((e) => e.status)).toEqual([undefined, 200]);
	});

	it('slow response: answered normally after the delay', async () => {
		ctx.sim.server.faults.add({ kind: 'slow', delayMs: 300, times: 1 });
		const started = performance.now();
		const res = await callPlatform(ctx.base, 'GET', '/api/v1/results', { query: LIST });
		expect(performance.now() - started).toBeGreaterThanOrEqual(290);
		expect(res.status).toBe(200);
	});

	it('malformed body: 200 with truncated JSON', async () => {
		ctx.sim.server.faults.add({ kind: 'malformed', routes: [PLATFORM_ROUTES.result], times: 1 });
		const record = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, ctx.sim.createManualScraper(), ['https://a.example.com/']);
		const res = await fetch(`${ctx.base}/api/v1/results/${record.id}`, { headers: { 'x-api-token': PLATFORM_DEMO_TOKEN } });
		expect(res.status).toBe(200);
		const text = await res.text();
		expect(() => JSON.parse(text)).toThrow();
		expect((await callPlatform(ctx.base, 'GET', `/api/v1/results/${record.id}`)).body.data).toMatchObject({ id: record.id });
	});

	it('a 429 storm at 30%: every refused request has the documented body and Retry-After, and created nothing', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 429, rate: 0.3, retryAfterSeconds: 2, routes: [PLATFORM_ROUTES.createAndRun] });
		const statuses: number[] = [];
		for (let batch = 0; batch < 10; batch++) {
			const responses = await Promise.all(
				Array.from({ length: 10 }, (_, i) =>
					callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { body: { url: `https://shop.example.com/${batch}/${i}`, prompt: 'Title' } }),
				),
			);
			for (const res of responses) {
				statuses.push(res.status);
				if (res.status === 429) {
					expect(res.body).toEqual({ message: 'Too many requests. Please try again later.' });
					expect(res.headers.get('retry-after')).toBe('2');
				} else {
					expect(res.status).toBe(200);
				}
			}
		}
		const refused = statuses.filter((s) => s === 429).length;
		expect(refused).toBeGreaterThanOrEqual(15);
		expect(refused).toBeLessThanOrEqual(45);
		const list = await callPlatform<ListedResultRecord[]>(ctx.base, 'GET', '/api/v1/results', { query: LIST });
		expect(list.body.meta?.total).toBe(100 - refused);
		expect(ctx.sim.server.log.count(PLATFORM_ROUTES.createAndRun)).toBe(100);
		expect(ctx.sim.server.faults.fired()).toBe(refused);
	});

	it('an injected 503 can be limited to a number of firings', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 503, routes: [PLATFORM_ROUTES.results], times: 2 });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push((await callPlatform(ctx.base, 'GET', '/api/v1/results', { query: LIST })).status);
		expect(statuses).toEqual([503, 503, 200]);
		ctx.sim.server.faults.clear();
	});

	it('the request log keeps what each request carried, per route', async () => {
		const body = { url: 'https://shop.example.com/', prompt: 'Title', agent: 'general' };
		await callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai', { body });
		await callPlatform(ctx.base, 'GET', '/api/v1/results', { query: LIST });
		await callPlatform(ctx.base, 'GET', '/api/v1/results', { query: { ...LIST, page: 2 } });
		expect(ctx.sim.server.log.counts()).toEqual({ [PLATFORM_ROUTES.createAndRun]: 1, [PLATFORM_ROUTES.results]: 2 });
		const created = ctx.sim.server.log.last(PLATFORM_ROUTES.createAndRun);
		expect(created?.body).toEqual(body);
		expect(created?.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(created?.status).toBe(200);
		expect(ctx.sim.server.log.last(PLATFORM_ROUTES.results)?.query).toEqual({ ...LIST, page: '2', pageSize: '10' });
	});
});
