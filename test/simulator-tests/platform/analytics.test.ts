import { callPlatform } from '../../simulator/platform/client';
import {
	DEMO_AI_SCRAPER_IDS,
	DEMO_MANUAL_SCRAPER_IDS,
	PLATFORM_DEMO_REPORTING_TOKEN,
	PLATFORM_DEMO_REPORTING_TOKEN_NAME,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PlatformSimulator,
	type AnalyticsStatusSummary,
	type ProxyBandwidthRow,
} from '../../simulator/platform';

/** `yyyy-MM-dd HH:mm:ss` in UTC. */
function utc(ms: number): string {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

function statusCounts(summary: AnalyticsStatusSummary): Record<string, number | string> {
	return Object.fromEntries(summary.data.map((d) => [d.key, d.value]));
}

describe('platform simulator: analytics and proxy bandwidth', () => {
	let sim: PlatformSimulator;
	let base: string;

	beforeEach(async () => {
		sim = new PlatformSimulator();
		base = await sim.listen();
		const at = (time: string) => `2024-05-01T${time}Z`;
		sim.seedResults(PLATFORM_DEMO_TOKEN, 4, { url: 'https://shop.acme.test/a', status: 'Finished', type: 'Rerun-AI', runtime: 2, tokenUsage: 100, createdAt: at('10:00:00'), stepMs: 60_000 });
		sim.seedResults(PLATFORM_DEMO_TOKEN, 2, { url: 'https://acme.test/b', status: 'Failed', type: 'AI', runtime: 4, tokenUsage: 100, createdAt: at('10:10:00'), apiTokenName: PLATFORM_DEMO_REPORTING_TOKEN_NAME });
		sim.seedResults(PLATFORM_DEMO_TOKEN, 1, { url: 'https://notacme.test/', status: 'Finished', runtime: 2, tokenUsage: 100, createdAt: at('10:05:00') });
		sim.seedResults(PLATFORM_DEMO_TOKEN, 1, { url: 'https://acme.test/c', status: 'Processing', runtime: 6, tokenUsage: 100, createdAt: at('12:00:00') });
		sim.seedResults(PLATFORM_OTHER_USER_TOKEN, 5, { url: 'https://acme.test/x', status: 'Finished', createdAt: at('10:20:00') });
	});
	afterEach(() => sim.close());

	const analytics = (query: Record<string, string>, token = PLATFORM_DEMO_TOKEN) =>
		callPlatform<AnalyticsStatusSummary>(base, 'GET', '/api/v1/analytic/statuses', { query, token });
	const bandwidth = (query: Record<string, string>, token = PLATFORM_DEMO_TOKEN) =>
		callPlatform<ProxyBandwidthRow[]>(base, 'GET', '/api/v1/proxies/user/requests-bandwidth', { query, token });

	describe('status summary', () => {
		it('counts the domain and its subdomains in the UTC window', async () => {
			const res = await analytics({ domain: 'acme.test', startDate: '2024-05-01 10:00:00', endDate: '2024-05-01 10:59:59' });
			expect(res.status).toBe(200);
			expect(res.body.message).toEqual(expect.any(String));
			const s = res.body.data;
			expect(s.countAll).toBe(6);
			expect(s.successRate).toBe(66.67);
			expect(s.avgLatency).toBe(2.67);
			expect(s.reqPerMinute).toBe(0.1);
			expect(s.data.map((d) => d.key)).toEqual(['PENDING', 'RUNNING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED']);
			expect(statusCounts(s)).toEqual({ PENDING: 0, RUNNING: 0, PROCESSING: 0, COMPLETED: '4', FAILED: '2', CANCELLED: 0 });
		});

		it('includes the end second, and widens with the window', async () => {
			const edge = await analytics({ domain: 'acme.test', startDate: '2024-05-01 10:00:00', endDate: '2024-05-01 10:03:00' });
			expect(edge.body.data.countAll).toBe(4);
			const wide = await analytics({ domain: 'https://ACME.test/', startDate: '2024-05-01 00:00:00', endDate: '2024-05-01 23:59:59' });
			expect(wide.body.data.countAll).toBe(7);
			expect(statusCounts(wide.body.data).PROCESSING).toBe('1');
			const sub = await analytics({ domain: 'shop.acme.test', startDate: '2024-05-01 00:00:00', endDate: '2024-05-01 23:59:59' });
			expect(sub.body.data.countAll).toBe(4);
			const none = await analytics({ domain: 'acme.test', startDate: '2023-01-01 00:00:00', endDate: '2023-01-01 00:00:00' });
			expect(none.body.data).toMatchObject({ countAll: 0, successRate: 0, avgLatency: 0, reqPerMinute: 0 });
		});

		it('filters by action (result type) and by API token name', async () => {
			const window = { domain: 'acme.test', startDate: '2024-05-01 00:00:00', endDate: '2024-05-01 23:59:59' };
			expect((await analytics({ ...window, action: 'Rerun-AI' })).body.data.countAll).toBe(5); // 4 on shop.acme.test, 1 Processing
			expect((await analytics({ ...window, action: 'ai' })).body.data.countAll).toBe(2);
			const byToken = await analytics({ ...window, apiTokenName: PLATFORM_DEMO_REPORTING_TOKEN_NAME });
			expect(byToken.body.data.countAll).toBe(2);
			expect(statusCounts(byToken.body.data).FAILED).toBe('2');
			expect((await analytics({ ...window, apiTokenName: 'nobody' })).body.data.countAll).toBe(0);
		});

		it('records the name of the token that made each request, and follows live bulk status', async () => {
			const now = sim.clock.now();
			const rerun = await callPlatform(base, 'POST', '/api/v1/scrapers-ai-rerun', {
				token: PLATFORM_DEMO_REPORTING_TOKEN,
				body: { scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://live.acme.test/' },
			});
			expect(rerun.status).toBe(200);
			sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], ['https://live.acme.test/1', 'https://live.acme.test/2', 'https://live.acme.test/3']);
			const window = { domain: 'live.acme.test', startDate: utc(now - 1000), endDate: utc(now + 60_000) };
			const first = (await analytics(window)).body.data;
			expect(first.countAll).toBe(2);
			expect(statusCounts(first)).toMatchObject({ COMPLETED: '1', RUNNING: '1' });
			expect((await analytics({ ...window, apiTokenName: PLATFORM_DEMO_REPORTING_TOKEN_NAME })).body.data.countAll).toBe(1);
			sim.clock.advance(4000);
			expect(statusCounts((await analytics(window)).body.data)).toMatchObject({ COMPLETED: '2', RUNNING: 0 });
		});

		it("ignores other users' results", async () => {
			const res = await analytics({ domain: 'acme.test', startDate: '2024-05-01 10:20:00', endDate: '2024-05-01 10:30:00' }, PLATFORM_OTHER_USER_TOKEN);
			expect(res.body.data.countAll).toBe(5);
			const mine = await analytics({ domain: 'acme.test', startDate: '2024-05-01 10:20:00', endDate: '2024-05-01 10:30:00' });
			expect(mine.body.data.countAll).toBe(0);
		});

		it.each([
			[{ startDate: '2024-05-01 00:00:00', endDate: '2024-05-02 00:00:00' }, 'domain'],
			[{ domain: 'acme.test', endDate: '2024-05-02 00:00:00' }, 'startDate'],
			[{ domain: 'acme.test', startDate: '2024-05-01 00:00:00' }, 'endDate'],
			[{ domain: 'acme.test', startDate: '2024-05-01T00:00:00Z', endDate: '2024-05-02 00:00:00' }, 'startDate'],
			[{ domain: 'acme.test', startDate: '2024-05-01 00:00:00', endDate: '2024-13-01 00:00:00' }, 'endDate'],
			[{ domain: 'acme.test', startDate: '2024-05-01', endDate: '2024-05-02 00:00:00' }, 'startDate'],
			[{ domain: 'acme.test', startDate: '2024-05-02 00:00:00', endDate: '2024-05-01 00:00:00' }, 'startDate'],
		])('400 for %j naming %s', async (query, field) => {
			const res = await analytics(query);
			expect(res.status).toBe(400);
			expect(res.body.error).toBe('Bad Request');
			expect(res.body.statusCode).toBe(400);
			expect(res.body.message).toContain(field);
			if (field !== 'domain' && !res.body.message?.includes('after')) expect(res.body.message).toContain('yyyy-MM-dd HH:mm:ss');
		});
	});

	describe('proxy bandwidth', () => {
		const day = { startDate: '2024-05-01 00:00:00', endDate: '2024-05-01 23:59:59' };

		it("one row per proxy username of the account, from the window's results", async () => {
			const res = await bandwidth(day);
			expect(res.status).toBe(200);
			expect(res.body.message).toEqual(expect.any(String));
			const rows = res.body.data;
			expect(rows.map((r) => r.username).sort()).toEqual(['demo-datacenter', 'demo-residential']);
			// Bytes per result = runtime * 180,000 + tokenUsage * 64 (see README); the day holds 5 results of 2 s, 2 of 4 s, 1 of 6 s.
			const expected = 5 * (2 * 180_000 + 100 * 64) + 2 * (4 * 180_000 + 100 * 64) + (6 * 180_000 + 100 * 64);
			expect(rows.reduce((sum, r) => sum + r.total_bandwidth_usage, 0)).toBe(expected);
			expect((await bandwidth(day)).body.data).toEqual(rows);
		});

		it('is zero outside the window and grows with new scrapes', async () => {
			const empty = await bandwidth({ startDate: '2023-01-01 00:00:00', endDate: '2023-12-31 23:59:59' });
			expect(empty.body.data.every((r) => r.total_bandwidth_usage === 0)).toBe(true);
			const now = sim.clock.now();
			const window = { startDate: utc(now - 1000), endDate: utc(now + 60_000) };
			const before = (await bandwidth(window)).body.data.reduce((s, r) => s + r.total_bandwidth_usage, 0);
			expect(before).toBe(0);
			await callPlatform(base, 'POST', '/api/v1/scrapers-ai', { body: { url: 'https://shop.acme.test/', prompt: 'Title' } });
			const after = (await bandwidth(window)).body.data.reduce((s, r) => s + r.total_bandwidth_usage, 0);
			expect(after).toBeGreaterThan(0);
		});

		it("reports the caller's usernames only", async () => {
			const rows = (await bandwidth(day, PLATFORM_OTHER_USER_TOKEN)).body.data;
			expect(rows.map((r) => r.username).sort()).toEqual(['other-datacenter', 'other-mobile', 'other-residential']);
		});

		it.each([
			[{ endDate: '2024-05-02 00:00:00' }, 'startDate'],
			[{ startDate: '2024-05-01 00:00:00' }, 'endDate'],
			[{ startDate: '01/05/2024 00:00:00', endDate: '2024-05-02 00:00:00' }, 'startDate'],
			[{ startDate: '2024-05-01 00:00:00', endDate: '2024-05-01 24:00:00' }, 'endDate'],
		])('400 for %j naming %s and the format', async (query, field) => {
			const res = await bandwidth(query);
			expect(res.status).toBe(400);
			expect(res.body.message).toContain(field);
			expect(res.body.message).toContain('yyyy-MM-dd HH:mm:ss');
		});
	});
});
