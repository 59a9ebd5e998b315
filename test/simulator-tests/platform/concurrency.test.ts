import { sleep } from 'n8n-workflow';

import { callPlatform, type PlatformCallResult } from '../../simulator/platform/client';
import {
	CONCURRENCY_BY_PLAN,
	DEMO_AI_SCRAPER_IDS,
	PLATFORM_DEMO_REPORTING_TOKEN,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PLATFORM_RESTRICTED_TOKEN,
	PLATFORM_ROUTES,
	PlatformSimulator,
	type ListedResultRecord,
} from '../../simulator/platform';
import { freshPerTest } from '../served';

const LIST = { page: 1, pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC' };
const TOO_MANY = { message: 'Too many requests. Please try again later.' };

function statuses(responses: Array<PlatformCallResult<unknown>>): number[] {
	return responses.map((r) => r.status).sort((a, b) => a - b);
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
	const started = Date.now();
	while (!condition()) {
		if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
		await sleep(10);
	}
}

describe('platform simulator: per-account concurrency limit and latency (public facts: 429, "per account concurrency")', () => {
	const ctx = freshPerTest(() => new PlatformSimulator());

	const list = (token = PLATFORM_DEMO_TOKEN) => callPlatform<ListedResultRecord[]>(ctx.base, 'GET', '/api/v1/results', { query: LIST, token });
	const parallelLists = (n: number, token = PLATFORM_DEMO_TOKEN) => Promise.all(Array.from({ length: n }, () => list(token)));
	const aiRerun = (url: string) =>
		callPlatform(ctx.base, 'POST', '/api/v1/scrapers-ai-rerun', { body: { scraperId: DEMO_AI_SCRAPER_IDS.general, url } });

	it('limit 3, latency 300 ms: 5 parallel reads give 3 x 200 and 2 x 429 with the documented body and Retry-After', async () => {
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { concurrency: 3 });
		ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 300;
		const responses = await parallelLists(5);
		expect(statuses(responses)).toEqual([200, 200, 200, 429, 429]);
		for (const res of responses.filter((r) => r.status === 429)) {
			expect(res.body).toEqual(TOO_MANY);
			expect(res.headers.get('retry-after')).toBe('1');
		}
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toEqual({ peak: 3, refused: 2, inFlight: 0, limit: 3 });
		expect(ctx.sim.server.log.for(PLATFORM_ROUTES.results).map((e) => e.status).sort()).toEqual([200, 200, 200, 429, 429]);

		// Once the first ones are answered, new requests are admitted again.
		const again = await parallelLists(3);
		expect(statuses(again)).toEqual([200, 200, 200]);
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toMatchObject({ peak: 3, refused: 2, inFlight: 0 });
	});

	it('every token of one account shares its slots; other accounts are not affected', async () => {
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { concurrency: 1 });
		ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 300;
		const responses = await Promise.all([list(PLATFORM_DEMO_TOKEN), list(PLATFORM_DEMO_REPORTING_TOKEN), list(PLATFORM_OTHER_USER_TOKEN)]);
		expect(statuses(responses.slice(0, 2))).toEqual([200, 429]);
		expect(responses[2].status).toBe(200);
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_REPORTING_TOKEN)).toMatchObject({ peak: 1, refused: 1 });
		expect(ctx.sim.concurrencyStats(PLATFORM_OTHER_USER_TOKEN)).toMatchObject({ peak: 1, refused: 0 });
	});

	it('a refused rerun creates nothing and is not counted by the rate window', async () => {
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { concurrency: 1, rateLimit: 2, rateTtl: 60 });
		ctx.sim.options.latencyMs[PLATFORM_ROUTES.rerun] = 300;
		const [a, b] = await Promise.all([aiRerun('https://shop.example.com/a'), aiRerun('https://shop.example.com/b')]);
		expect(statuses([a, b])).toEqual([200, 429]);
		const refused = a.status === 429 ? a : b;
		expect(refused.body).toEqual(TOO_MANY);
		expect(refused.headers.get('retry-after')).toBe('1');

		const listed = (await list()).body.data;
		expect(listed).toHaveLength(1);
		expect(listed[0].url).toBe(a.status === 200 ? 'https://shop.example.com/a' : 'https://shop.example.com/b');

		// The rate window (2 per 60 s) counted only the admitted rerun: one more is accepted, the next is rate limited.
		ctx.sim.options.latencyMs = {};
		expect((await aiRerun('https://shop.example.com/c')).status).toBe(200);
		const limited = await aiRerun('https://shop.example.com/d');
		expect(limited.status).toBe(429);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(1);
		expect((await list()).body.data).toHaveLength(2);
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN).refused).toBe(1);
	});

	it.each(Object.entries(PLATFORM_ROUTES))('applies to every authenticated endpoint, reads too: %s', async (_name, route) => {
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { concurrency: 0 });
		const [method, pattern] = route.split(' ');
		const path = pattern.replace(/:[A-Za-z]+/g, '0f5e8a4c-1d2b-4c3e-9f8a-7b6c5d4e3f01');
		const res = await callPlatform(ctx.base, method, path, { body: method === 'GET' ? undefined : {} });
		expect(res.status).toBe(429);
		expect(res.body).toEqual(TOO_MANY);
		expect(res.headers.get('retry-after')).toBe('1');
		// Checked right after authentication: a bad token is still 401.
		expect((await callPlatform(ctx.base, method, path, { token: 'nope', body: method === 'GET' ? undefined : {} })).status).toBe(401);
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toEqual({ peak: 0, refused: 1, inFlight: 0, limit: 0 });
	});

	describe('defaults by plan (free 10, pro 100)', () => {
		it('fixture accounts: demo pro 100, restricted free 10, other (enterprise) 100', () => {
			expect(CONCURRENCY_BY_PLAN).toEqual({ free: 10, pro: 100, enterprise: 100 });
			expect(ctx.sim.planOf(PLATFORM_DEMO_TOKEN)).toBe('pro');
			expect(ctx.sim.planOf(PLATFORM_RESTRICTED_TOKEN)).toBe('free');
			expect(ctx.sim.planOf(PLATFORM_OTHER_USER_TOKEN)).toBe('enterprise');
			expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN).limit).toBe(100);
			expect(ctx.sim.concurrencyStats(PLATFORM_RESTRICTED_TOKEN).limit).toBe(10);
			expect(ctx.sim.concurrencyStats(PLATFORM_OTHER_USER_TOKEN).limit).toBe(100);
		});

		it('a free account: 11 parallel requests with latency give 10 x 200 and 1 x 429', async () => {
			ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 300;
			const responses = await parallelLists(11, PLATFORM_RESTRICTED_TOKEN);
			expect(statuses(responses)).toEqual([...Array(10).fill(200), 429]);
			expect(ctx.sim.concurrencyStats(PLATFORM_RESTRICTED_TOKEN)).toMatchObject({ peak: 10, refused: 1, inFlight: 0 });
		});

		it('a pro account takes 11 (and more) at once', async () => {
			ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 300;
			const responses = await parallelLists(11);
			expect(statuses(responses)).toEqual(Array(11).fill(200));
			expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toMatchObject({ peak: 11, refused: 0 });
		});

		it('option concurrencyLimit overrides every plan default; setAccountLimits wins over it; null restores', async () => {
			const capped = new PlatformSimulator({ concurrencyLimit: 2, latencyMs: { [PLATFORM_ROUTES.results]: 300 } });
			const cappedBase = await capped.listen();
			try {
				expect(capped.concurrencyStats(PLATFORM_DEMO_TOKEN).limit).toBe(2);
				expect(capped.concurrencyStats(PLATFORM_RESTRICTED_TOKEN).limit).toBe(2);
				const responses = await Promise.all(Array.from({ length: 3 }, () => callPlatform(cappedBase, 'GET', '/api/v1/results', { query: LIST })));
				expect(statuses(responses)).toEqual([200, 200, 429]);
				capped.setAccountLimits(PLATFORM_DEMO_TOKEN, { concurrency: 5 });
				expect(capped.concurrencyStats(PLATFORM_DEMO_TOKEN).limit).toBe(5);
				capped.setAccountLimits(PLATFORM_DEMO_TOKEN, { concurrency: null });
				expect(capped.concurrencyStats(PLATFORM_DEMO_TOKEN).limit).toBe(2);
				capped.options.concurrencyLimit = undefined;
				expect(capped.concurrencyStats(PLATFORM_DEMO_TOKEN).limit).toBe(100);
			} finally {
				await capped.close();
			}
		});
	});

	it('resetConcurrencyStats restarts peak and refusals', async () => {
		ctx.sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { concurrency: 1 });
		ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 200;
		await parallelLists(2);
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toMatchObject({ peak: 1, refused: 1 });
		ctx.sim.resetConcurrencyStats(PLATFORM_DEMO_TOKEN);
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toEqual({ peak: 0, refused: 0, inFlight: 0, limit: 1 });
		await parallelLists(2);
		ctx.sim.resetConcurrencyStats();
		expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toMatchObject({ peak: 0, refused: 0 });
	});

	describe('latency per endpoint (real time)', () => {
		it('delays that endpoint, set at run time; 401s of the route wait it too; none by default', async () => {
			let started = performance.now();
			expect((await list()).status).toBe(200);
			const undelayed = performance.now() - started;

			ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 300;
			started = performance.now();
			expect((await list()).status).toBe(200);
			expect(performance.now() - started).toBeGreaterThanOrEqual(250);
			started = performance.now();
			expect((await list('not-a-token')).status).toBe(401);
			expect(performance.now() - started).toBeGreaterThanOrEqual(250);
			expect(undelayed).toBeLessThan(5_000);
		});

		it('from the constructor option too', async () => {
			const slow = new PlatformSimulator({ latencyMs: { [PLATFORM_ROUTES.subscriptionAccount]: 300 } });
			const slowBase = await slow.listen();
			try {
				const started = performance.now();
				expect((await callPlatform(slowBase, 'GET', '/api/v1/subscription-accounts')).status).toBe(200);
				expect(performance.now() - started).toBeGreaterThanOrEqual(250);
			} finally {
				await slow.close();
			}
		});

		it('only that endpoint: another one answers while the delayed requests are still in flight', async () => {
			ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 2_000;
			const pending = list().then((r) => r.status);
			let settled = false;
			void pending.then(() => (settled = true));
			await until(() => ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN).inFlight === 1);
			const account = await callPlatform(ctx.base, 'GET', '/api/v1/subscription-accounts');
			expect(account.status).toBe(200);
			expect(settled).toBe(false);
			expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN)).toMatchObject({ peak: 2, inFlight: 1 });
			expect(await pending).toBe(200);
		}, 15_000);

		it('close() with requests waiting their latency returns promptly; those requests are dropped', async () => {
			ctx.sim.options.latencyMs[PLATFORM_ROUTES.results] = 30_000;
			ctx.sim.options.latencyMs[PLATFORM_ROUTES.rerun] = 30_000;
			const pending = [list(), list(), aiRerun('https://shop.example.com/late')].map((p) => p.then(() => 'answered', () => 'dropped'));
			await until(() => ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN).inFlight === 3);
			const started = performance.now();
			await ctx.sim.close();
			expect(performance.now() - started).toBeLessThan(5_000);
			expect(await Promise.all(pending)).toEqual(['dropped', 'dropped', 'dropped']);
			expect(ctx.sim.concurrencyStats(PLATFORM_DEMO_TOKEN).inFlight).toBe(0);
			expect(ctx.sim.server.log.for(PLATFORM_ROUTES.rerun).map((e) => e.status)).toEqual([undefined]);
			// The dropped rerun never ran; the simulator listens again normally.
			ctx.sim.options.latencyMs = {};
			ctx.base = await ctx.sim.listen();
			expect((await list()).body.data).toEqual([]);
		}, 15_000);
	});
});
