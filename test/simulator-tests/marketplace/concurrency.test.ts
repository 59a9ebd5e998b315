import { sleep } from 'n8n-workflow';

import {
	CONCURRENCY_BY_PLAN,
	MARKETPLACE_DEMO_TOKEN,
	MARKETPLACE_OTHER_USER_TOKEN,
	MARKETPLACE_ROUTES,
	MarketplaceSimulator,
	type RunListRecord,
} from '../../simulator/marketplace';

const TOO_MANY = { message: 'Too many requests. Please try again later.' };
const PDF = '/api/scrapers/pdf/create-and-run';

interface Answer {
	status: number;
	headers: Headers;
	body: unknown;
}

let sim: MarketplaceSimulator;

beforeEach(async () => {
	sim = new MarketplaceSimulator();
	await sim.listen();
});

afterEach(() => sim.close());

async function api(method: string, path: string, body?: unknown, token = MARKETPLACE_DEMO_TOKEN): Promise<Answer> {
	const response = await fetch(`${sim.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const list = (token = MARKETPLACE_DEMO_TOKEN) => api('GET', '/api/results', undefined, token);
const parallelLists = (n: number, token = MARKETPLACE_DEMO_TOKEN) => Promise.all(Array.from({ length: n }, () => list(token)));
const pdf = (name: string) => api('POST', PDF, { name, keywords: [{ keyword: 'solar inverter', prompt: 'Is this a datasheet?' }] });

function statuses(answers: Answer[]): number[] {
	return answers.map((a) => a.status).sort((a, b) => a - b);
}

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
	const started = Date.now();
	while (!condition()) {
		if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
		await sleep(10);
	}
}

describe('section C: per-account concurrency limit and latency (public facts: 429, "per account concurrency")', () => {
	it('limit 3, latency 300 ms: 5 parallel reads give 3 x 200 and 2 x 429 with the documented body and Retry-After', async () => {
		sim.setAccountLimits(MARKETPLACE_DEMO_TOKEN, { concurrency: 3 });
		sim.options.latencyMs[MARKETPLACE_ROUTES.listResults] = 300;
		const answers = await parallelLists(5);
		expect(statuses(answers)).toEqual([200, 200, 200, 429, 429]);
		for (const answer of answers.filter((a) => a.status === 429)) {
			expect(answer.body).toEqual(TOO_MANY);
			expect(answer.headers.get('retry-after')).toBe('1');
		}
		expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN)).toEqual({ peak: 3, refused: 2, inFlight: 0, limit: 3 });

		const again = await parallelLists(3);
		expect(statuses(again)).toEqual([200, 200, 200]);
		expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN)).toMatchObject({ peak: 3, refused: 2, inFlight: 0 });
	});

	it('a refused create-and-run creates nothing, and does not count in the rate window', async () => {
		sim.setAccountLimits(MARKETPLACE_DEMO_TOKEN, { concurrency: 1 });
		sim.setRateLimit(2, 60);
		sim.options.latencyMs[MARKETPLACE_ROUTES.pdfCreateAndRun] = 300;
		const [a, b] = await Promise.all([pdf('First'), pdf('Second')]);
		expect(statuses([a, b])).toEqual([200, 429]);
		const refused = a.status === 429 ? a : b;
		expect(refused.body).toEqual(TOO_MANY);
		expect(refused.headers.get('retry-after')).toBe('1');
		const records = (await list()).body as { data: RunListRecord[] };
		expect(new Set(records.data.map((r) => r.scraper_name))).toEqual(new Set([a.status === 200 ? 'First' : 'Second']));
		// The window (2 per 60 s) counted the create-and-run and the listing only: the next request is rate limited.
		const limited = await list();
		expect(limited.status).toBe(429);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(1);
		expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN).refused).toBe(1);
	});

	it.each(Object.entries(MARKETPLACE_ROUTES))('applies to every endpoint, reads too: %s', async (_name, route) => {
		sim.setAccountLimits(MARKETPLACE_DEMO_TOKEN, { concurrency: 0 });
		const [method, pattern] = route.split(' ');
		const path = pattern.replace(/:[a-z_]+/g, '101');
		const answer = await api(method, path, method === 'POST' ? {} : undefined);
		expect(answer.status).toBe(429);
		expect(answer.body).toEqual(TOO_MANY);
		expect(answer.headers.get('retry-after')).toBe('1');
		// Checked right after authentication: a bad token is still 401.
		expect((await api(method, path, method === 'POST' ? {} : undefined, 'unknown-token')).status).toBe(401);
		expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN)).toEqual({ peak: 0, refused: 1, inFlight: 0, limit: 0 });
	});

	describe('defaults by plan (free 10, pro 100)', () => {
		it('fixture accounts: demo pro 100, other free 10; an added token is free', async () => {
			expect(CONCURRENCY_BY_PLAN).toEqual({ free: 10, pro: 100, enterprise: 100 });
			expect((await api('GET', '/api/account')).body).toMatchObject({ data: { plan: 'pro' } });
			expect((await api('GET', '/api/account', undefined, MARKETPLACE_OTHER_USER_TOKEN)).body).toMatchObject({ data: { plan: 'free' } });
			expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN).limit).toBe(100);
			expect(sim.concurrencyStats(MARKETPLACE_OTHER_USER_TOKEN).limit).toBe(10);
			sim.addToken('mkt_third_account_token', 3);
			expect(sim.concurrencyStats('mkt_third_account_token').limit).toBe(10);
		});

		it('a free account: 11 parallel requests with latency give 10 x 200 and 1 x 429', async () => {
			sim.options.latencyMs[MARKETPLACE_ROUTES.listResults] = 300;
			const answers = await parallelLists(11, MARKETPLACE_OTHER_USER_TOKEN);
			expect(statuses(answers)).toEqual([...Array(10).fill(200), 429]);
			expect(sim.concurrencyStats(MARKETPLACE_OTHER_USER_TOKEN)).toMatchObject({ peak: 10, refused: 1, inFlight: 0 });
		});

		it('a pro account takes 11 at once; tokens of one account share its slots', async () => {
			sim.options.latencyMs[MARKETPLACE_ROUTES.listResults] = 300;
			sim.addToken('mkt_demo_second_token', 1);
			const answers = await Promise.all([...Array.from({ length: 10 }, () => list()), list('mkt_demo_second_token')]);
			expect(statuses(answers)).toEqual(Array(11).fill(200));
			expect(sim.concurrencyStats('mkt_demo_second_token')).toMatchObject({ peak: 11, refused: 0 });
		});

		it('option concurrencyLimit overrides the plan defaults; setAccountLimits wins; null and reset() restore', async () => {
			const capped = new MarketplaceSimulator({ concurrencyLimit: 2, latencyMs: { [MARKETPLACE_ROUTES.account]: 300 } });
			await capped.listen();
			try {
				expect(capped.concurrencyStats(MARKETPLACE_DEMO_TOKEN).limit).toBe(2);
				expect(capped.concurrencyStats(MARKETPLACE_OTHER_USER_TOKEN).limit).toBe(2);
				const answers = await Promise.all(
					Array.from({ length: 3 }, () => fetch(`${capped.url}/api/account`, { headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } })),
				);
				expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
				capped.setAccountLimits(MARKETPLACE_DEMO_TOKEN, { concurrency: 7 });
				expect(capped.concurrencyStats(MARKETPLACE_DEMO_TOKEN).limit).toBe(7);
				capped.setAccountLimits(MARKETPLACE_DEMO_TOKEN, { concurrency: null });
				expect(capped.concurrencyStats(MARKETPLACE_DEMO_TOKEN).limit).toBe(2);
				capped.setAccountLimits(MARKETPLACE_DEMO_TOKEN, { concurrency: 7 });
				capped.reset();
				expect(capped.concurrencyStats(MARKETPLACE_DEMO_TOKEN)).toEqual({ peak: 0, refused: 0, inFlight: 0, limit: 2 });
				capped.options.concurrencyLimit = undefined;
				expect(capped.concurrencyStats(MARKETPLACE_DEMO_TOKEN).limit).toBe(100);
			} finally {
				await capped.close();
			}
		});
	});

	it('resetConcurrencyStats restarts peak and refusals', async () => {
		sim.setAccountLimits(MARKETPLACE_DEMO_TOKEN, { concurrency: 1 });
		sim.options.latencyMs[MARKETPLACE_ROUTES.listResults] = 200;
		await parallelLists(2);
		expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN)).toMatchObject({ peak: 1, refused: 1 });
		sim.resetConcurrencyStats(MARKETPLACE_DEMO_TOKEN);
		expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN)).toEqual({ peak: 0, refused: 0, inFlight: 0, limit: 1 });
	});

	describe('latency per endpoint (real time)', () => {
		it('delays that endpoint only; another answers while the delayed request is in flight', async () => {
			sim.options.latencyMs[MARKETPLACE_ROUTES.listResults] = 300;
			const started = performance.now();
			expect((await list()).status).toBe(200);
			expect(performance.now() - started).toBeGreaterThanOrEqual(250);

			sim.options.latencyMs[MARKETPLACE_ROUTES.listResults] = 2_000;
			let settled = false;
			const pending = list().then((a) => {
				settled = true;
				return a.status;
			});
			await until(() => sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN).inFlight === 1);
			expect((await api('GET', '/api/account')).status).toBe(200);
			expect(settled).toBe(false);
			expect(await pending).toBe(200);
		}, 15_000);

		it('close() with requests waiting their latency returns promptly; those requests are dropped', async () => {
			sim.options.latencyMs[MARKETPLACE_ROUTES.listResults] = 30_000;
			sim.options.latencyMs[MARKETPLACE_ROUTES.pdfCreateAndRun] = 30_000;
			const pending = [list(), list(), pdf('Late')].map((p) => p.then(() => 'answered', () => 'dropped'));
			await until(() => sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN).inFlight === 3);
			const started = performance.now();
			await sim.close();
			expect(performance.now() - started).toBeLessThan(5_000);
			expect(await Promise.all(pending)).toEqual(['dropped', 'dropped', 'dropped']);
			expect(sim.concurrencyStats(MARKETPLACE_DEMO_TOKEN).inFlight).toBe(0);
			// The dropped create-and-run never ran.
			sim.options.latencyMs = {};
			await sim.listen();
			expect(((await list()).body as { data: unknown[] }).data).toEqual([]);
		}, 15_000);
	});
});
