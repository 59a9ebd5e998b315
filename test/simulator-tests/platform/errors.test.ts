import { callPlatform } from '../../simulator/platform/client';
import {
	DEMO_AI_SCRAPER_IDS,
	DEMO_MANUAL_SCRAPER_IDS,
	OTHER_USER_AI_SCRAPER_ID,
	OTHER_USER_MANUAL_SCRAPER_ID,
	PLATFORM_DEMO_TOKEN,
	PLATFORM_EXPIRED_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PLATFORM_RESTRICTED_TOKEN,
	PLATFORM_ROUTES,
	PlatformSimError,
	PlatformSimulator,
	type ValidationIssue,
} from '../../simulator/platform';

const UNKNOWN_ID = '9d9d9d9d-9d9d-4d9d-9d9d-9d9d9d9d9d9d';
const WINDOW = { startDate: '2020-01-01 00:00:00', endDate: '2099-01-01 00:00:00' };
const LIST = { page: 1, pageSize: 10, sortField: 'createdAt', sortOrder: 'DESC' };

interface Endpoint {
	method: string;
	path: string;
	body?: unknown;
	query?: Record<string, string | number>;
	/** Under the account rate limit. */
	limited?: boolean;
	/** Refused (403) to an account without the AI or bulk permission. */
	permission?: boolean;
}

/** One valid request per endpoint: with a good token each of these answers 200 (`BULK`: a bulk job id, `SCRAPER`: its scraper). */
const ENDPOINTS: Endpoint[] = [
	{ method: 'GET', path: '/api/v1/subscription-accounts' },
	{ method: 'POST', path: '/api/v1/scrapers-ai', body: { url: 'https://shop.example.com/', prompt: 'Extract the title' }, limited: true, permission: true },
	{
		method: 'POST',
		path: '/api/v1/scrapers-ai-rerun',
		body: { scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/a' },
		limited: true,
		permission: true,
	},
	{
		method: 'POST',
		path: '/api/v1/scrapers-manual-rerun/bulk',
		body: { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: ['https://shop.example.com/p/1'] },
		limited: true,
		permission: true,
	},
	{
		method: 'POST',
		path: '/api/v1/scrapers-ai-rerun/bulk',
		body: { scraperId: DEMO_AI_SCRAPER_IDS.listing, urls: ['https://shop.example.com/p/2'] },
		limited: true,
		permission: true,
	},
	{
		method: 'POST',
		path: '/api/v1/scrapers-manual-rerun',
		body: { scraperId: DEMO_MANUAL_SCRAPER_IDS[2], url: 'https://shop.example.com/p/3' },
		limited: true,
		permission: true,
	},
	{ method: 'PATCH', path: '/api/v1/scrapers-bulks/SCRAPER/cancel', limited: true },
	{ method: 'PATCH', path: '/api/v1/scrapers-bulks/result/BULK/cancel', limited: true },
	{ method: 'GET', path: '/api/v1/analytic/statuses', query: { domain: 'example.com', ...WINDOW } },
	{ method: 'GET', path: '/api/v1/results', query: LIST },
	{ method: 'GET', path: '/api/v1/results/BULK' },
	{ method: 'GET', path: '/api/v1/proxies/user/requests-bandwidth', query: WINDOW },
];
const LIMITED = ENDPOINTS.filter((e) => e.limited);
const NEEDS_PERMISSION = ENDPOINTS.filter((e) => e.permission);

function fields(errors: ValidationIssue[] | undefined): string[] {
	return (errors ?? []).map((e) => `${e.field}:${e.rule}`).sort();
}

describe('platform simulator: documented errors', () => {
	let sim: PlatformSimulator;
	let base: string;
	let bulkId: string;

	beforeEach(async () => {
		sim = new PlatformSimulator();
		base = await sim.listen();
		bulkId = sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[1], ['https://shop.example.com/p/9']).id;
	});
	afterEach(() => sim.close());

	const path = (p: string) => p.replace('BULK', bulkId).replace('SCRAPER', DEMO_MANUAL_SCRAPER_IDS[1]);

	describe('401 on every endpoint', () => {
		it.each(ENDPOINTS)('$method $path: 200 with the demo token, 401 without, with a wrong and with an expired token', async (e) => {
			const good = await callPlatform(base, e.method, path(e.path), { body: e.body, query: e.query });
			expect(good.status).toBe(200);

			const missing = await callPlatform(base, e.method, path(e.path), { token: null, body: e.body, query: e.query });
			expect(missing.status).toBe(401);
			expect(missing.body).toEqual({ message: 'Invalid or missing API token', error: 'Unauthorized', statusCode: 401 });

			const wrong = await callPlatform(base, e.method, path(e.path), { token: 'not-a-token', body: e.body, query: e.query });
			expect(wrong.status).toBe(401);
			expect(wrong.body).toEqual({ message: 'Invalid or missing API token', error: 'Unauthorized', statusCode: 401 });

			const expired = await callPlatform(base, e.method, path(e.path), { token: PLATFORM_EXPIRED_TOKEN, body: e.body, query: e.query });
			expect(expired.status).toBe(401);
			expect(expired.body).toEqual({ message: 'Unauthorized access', error: 'Unauthorized' });
		});

		it('an unauthenticated request changes nothing', async () => {
			const before = sim.server.log.count();
			await callPlatform(base, 'POST', '/api/v1/scrapers-ai', { token: null, body: ENDPOINTS[1].body });
			const list = await callPlatform<unknown[]>(base, 'GET', '/api/v1/results', { query: LIST });
			expect(list.body.meta?.total).toBe(1); // only the bulk job from beforeEach
			expect(sim.server.log.count()).toBe(before + 2);
		});
	});

	describe('403', () => {
		const forbidden = { message: 'You do not have permission to access this resource', error: 'Forbidden', statusCode: 403 };

		it.each(NEEDS_PERMISSION)('$path with a token lacking permission', async (e) => {
			const res = await callPlatform(base, e.method, e.path, { token: PLATFORM_RESTRICTED_TOKEN, body: e.body });
			expect(res.status).toBe(403);
			expect(res.body).toEqual(forbidden);
		});

		it('the restricted token still reads its account and results', async () => {
			expect((await callPlatform(base, 'GET', '/api/v1/subscription-accounts', { token: PLATFORM_RESTRICTED_TOKEN })).status).toBe(200);
			const list = await callPlatform(base, 'GET', '/api/v1/results', { token: PLATFORM_RESTRICTED_TOKEN, query: LIST });
			expect(list.status).toBe(200);
			expect(list.body.meta?.total).toBe(0);
		});

		it("reruns and bulks on another user's scraper", async () => {
			const refused: Array<[string, Record<string, unknown>]> = [
				['/api/v1/scrapers-ai-rerun', { scraperId: OTHER_USER_AI_SCRAPER_ID, url: 'https://a.example.com/' }],
				['/api/v1/scrapers-manual-rerun', { scraperId: OTHER_USER_MANUAL_SCRAPER_ID, url: 'https://a.example.com/' }],
				['/api/v1/scrapers-manual-rerun/bulk', { scraperId: OTHER_USER_MANUAL_SCRAPER_ID, urls: ['https://a.example.com/'] }],
				['/api/v1/scrapers-ai-rerun/bulk', { scraperId: OTHER_USER_AI_SCRAPER_ID, urls: ['https://a.example.com/'] }],
			];
			for (const [p, body] of refused) {
				const res = await callPlatform(base, 'POST', p, { body });
				expect(res.status).toBe(403);
				expect(res.body).toEqual(forbidden);
			}
			// The owner can use them.
			const own = await callPlatform(base, 'POST', '/api/v1/scrapers-manual-rerun/bulk', {
				token: PLATFORM_OTHER_USER_TOKEN,
				body: { scraperId: OTHER_USER_MANUAL_SCRAPER_ID, urls: ['https://a.example.com/'] },
			});
			expect(own.status).toBe(200);
		});

		it('startBulk throws the same refusals', () => {
			expect(() => sim.startBulk(PLATFORM_RESTRICTED_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], ['https://a.example.com/'])).toThrow(PlatformSimError);
			expect(() => sim.startBulk(PLATFORM_DEMO_TOKEN, OTHER_USER_MANUAL_SCRAPER_ID, ['https://a.example.com/'])).toThrow('403');
			expect(() => sim.startBulk(PLATFORM_DEMO_TOKEN, UNKNOWN_ID, ['https://a.example.com/'])).toThrow('404');
			expect(() => sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], [])).toThrow('422');
			expect(() => sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[0], ['https://a.example.com/'], 'ai')).toThrow('422');
			expect(() => sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_AI_SCRAPER_IDS.general, ['https://a.example.com/'])).toThrow('422');
			expect(() => sim.startBulk(PLATFORM_RESTRICTED_TOKEN, DEMO_AI_SCRAPER_IDS.general, ['https://a.example.com/'], 'ai')).toThrow('403');
		});
	});

	describe('404', () => {
		const notFound = { message: 'Resource not found', error: 'Not Found', statusCode: 404 };

		it.each([
			['POST', '/api/v1/scrapers-ai-rerun', { scraperId: UNKNOWN_ID, url: 'https://a.example.com/' }],
			['POST', '/api/v1/scrapers-manual-rerun', { scraperId: UNKNOWN_ID, url: 'https://a.example.com/' }],
			['POST', '/api/v1/scrapers-manual-rerun/bulk', { scraperId: UNKNOWN_ID, urls: ['https://a.example.com/'] }],
			['POST', '/api/v1/scrapers-ai-rerun/bulk', { scraperId: UNKNOWN_ID, urls: ['https://a.example.com/'] }],
			['PATCH', `/api/v1/scrapers-bulks/${UNKNOWN_ID}/cancel`, undefined],
			['PATCH', `/api/v1/scrapers-bulks/result/${UNKNOWN_ID}/cancel`, undefined],
			['GET', `/api/v1/results/${UNKNOWN_ID}`, undefined],
			['GET', '/api/v1/results/not-a-uuid', undefined],
			['GET', '/api/v1/no-such-endpoint', undefined],
		])('%s %s', async (method, p, body) => {
			const res = await callPlatform(base, method, p, { body });
			expect(res.status).toBe(404);
			expect(res.body).toEqual(notFound);
		});

		it("another user's scraper, bulk job and result are not found (403 is not documented for cancel)", async () => {
			const other = { token: PLATFORM_OTHER_USER_TOKEN };
			const byResult = await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/result/${bulkId}/cancel`, other);
			expect(byResult.status).toBe(404);
			expect(byResult.body).toEqual(notFound);
			const byScraper = await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/${DEMO_MANUAL_SCRAPER_IDS[1]}/cancel`, other);
			expect(byScraper.status).toBe(404);
			expect(byScraper.body).toEqual(notFound);
			const mine = await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/${OTHER_USER_MANUAL_SCRAPER_ID}/cancel`);
			expect(mine.status).toBe(404);
			const get = await callPlatform(base, 'GET', `/api/v1/results/${bulkId}`, other);
			expect(get.status).toBe(404);
			// Nothing was canceled by those refusals.
			expect(sim.getRecord(bulkId)?.status).toBe('Running');
		});

		it('each cancel takes its own kind of id', async () => {
			// A bulk job id is no scraper; a scraper id is no result; a result that is not a bulk job cannot be canceled.
			expect((await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/${bulkId}/cancel`)).status).toBe(404);
			expect((await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/result/${DEMO_MANUAL_SCRAPER_IDS[1]}/cancel`)).status).toBe(404);
			const rerun = await callPlatform<{ id: string }>(base, 'POST', '/api/v1/scrapers-ai-rerun', { body: ENDPOINTS[2].body });
			expect((await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/result/${rerun.body.data.id}/cancel`)).status).toBe(404);
		});
	});

	describe('422 Validation failed, naming each field and rule', () => {
		async function expect422(method: string, p: string, body: unknown, expected: string[], rawBody?: string): Promise<void> {
			const res = await callPlatform(base, method, p, { body, rawBody });
			expect(res.status).toBe(422);
			expect(res.body.message).toBe('Validation failed');
			expect(res.body.error).toBe('Unprocessable Entity');
			expect(res.body.statusCode).toBe(422);
			expect(fields(res.body.errors)).toEqual([...expected].sort());
			for (const issue of res.body.errors ?? []) expect(issue.message).toContain(issue.field.replace(/\[\d+\]$/, ''));
		}

		it('scrapers-ai', async () => {
			await expect422('POST', '/api/v1/scrapers-ai', {}, ['url:required', 'prompt:required']);
			await expect422('POST', '/api/v1/scrapers-ai', { url: 'ftp://a.example.com/', prompt: '  ' }, ['url:isUrl', 'prompt:required']);
			await expect422('POST', '/api/v1/scrapers-ai', { url: 'not a url', prompt: 5 }, ['url:isUrl', 'prompt:isString']);
			await expect422(
				'POST',
				'/api/v1/scrapers-ai',
				{ url: 'https://a.example.com/', prompt: 'x', agent: 'robot', proxyCountry: 'usa' },
				['agent:isIn', 'proxyCountry:matches'],
			);
			await expect422('POST', '/api/v1/scrapers-ai', undefined, ['body:isJson'], '{"url": "https://a.example.com/",');
			await expect422('POST', '/api/v1/scrapers-ai', [1, 2], ['body:isObject']);
		});

		it('scrapers-ai-rerun', async () => {
			await expect422('POST', '/api/v1/scrapers-ai-rerun', {}, ['scraperId:required', 'url:required']);
			await expect422(
				'POST',
				'/api/v1/scrapers-ai-rerun',
				{ scraperId: 'abc', url: 'https://a.example.com/', maxDepth: 6, maxPages: 1.5, limit: '10', includePatterns: '([', excludePatterns: '*' },
				['scraperId:isUuid', 'maxDepth:isIntInRange', 'maxPages:isIntInRange', 'limit:isIntInRange', 'includePatterns:isRegex', 'excludePatterns:isRegex'],
			);
			await expect422('POST', '/api/v1/scrapers-ai-rerun', undefined, ['body:isJson'], 'scraperId=1');
			// A manual scraper cannot be rerun as an AI scraper.
			await expect422('POST', '/api/v1/scrapers-ai-rerun', { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://a.example.com/' }, ['scraperId:isAiScraper']);
		});

		it('bulk rerun', async () => {
			const p = '/api/v1/scrapers-manual-rerun/bulk';
			await expect422('POST', p, {}, ['scraperId:required', 'urls:required']);
			await expect422('POST', p, { scraperId: 'x', urls: 'https://a.example.com/' }, ['scraperId:isUuid', 'urls:isArray']);
			await expect422('POST', p, { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: [] }, ['urls:arrayNotEmpty']);
			await expect422(
				'POST',
				p,
				{ scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: ['https://a.example.com/', 'nope', 5, 'javascript:alert(1)'] },
				['urls[1]:isUrl', 'urls[2]:isUrl', 'urls[3]:isUrl'],
			);
			await expect422('POST', p, undefined, ['body:isJson'], '{');
			// Only a manual scraper can be bulk-rerun.
			await expect422('POST', p, { scraperId: DEMO_AI_SCRAPER_IDS.general, urls: ['https://a.example.com/'] }, ['scraperId:isManualScraper']);
		});

		it('manual rerun', async () => {
			const p = '/api/v1/scrapers-manual-rerun';
			await expect422('POST', p, {}, ['scraperId:required', 'url:required']);
			await expect422('POST', p, { scraperId: 'abc', url: 'mailto:a@example.com' }, ['scraperId:isUuid', 'url:isUrl']);
			await expect422('POST', p, undefined, ['body:isJson'], '{');
			// An AI scraper cannot be rerun as a manual scraper.
			await expect422('POST', p, { scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://a.example.com/' }, ['scraperId:isManualScraper']);
		});

		it('AI bulk rerun', async () => {
			const p = '/api/v1/scrapers-ai-rerun/bulk';
			await expect422('POST', p, {}, ['scraperId:required', 'urls:required']);
			await expect422('POST', p, { scraperId: DEMO_AI_SCRAPER_IDS.map, urls: [] }, ['urls:arrayNotEmpty']);
			await expect422('POST', p, { scraperId: DEMO_AI_SCRAPER_IDS.map, urls: ['https://a.example.com/', 'x'] }, ['urls[1]:isUrl']);
			await expect422('POST', p, undefined, ['body:isJson'], '[');
			// Only an AI scraper can be bulk-rerun here: the mirror of the manual endpoint's isManualScraper.
			await expect422('POST', p, { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: ['https://a.example.com/'] }, ['scraperId:isAiScraper']);
		});

		it('cancel bulk with a malformed id', async () => {
			await expect422('PATCH', '/api/v1/scrapers-bulks/not-a-uuid/cancel', undefined, ['scraperId:isUuid']);
			await expect422('PATCH', '/api/v1/scrapers-bulks/result/not-a-uuid/cancel', undefined, ['resultId:isUuid']);
		});

		it('results list query', async () => {
			const p = '/api/v1/results';
			const get = async (query: Record<string, string | number>, expected: string[]) => {
				const res = await callPlatform(base, 'GET', p, { query });
				expect(res.status).toBe(422);
				expect(fields(res.body.errors)).toEqual([...expected].sort());
			};
			await get({}, ['page:required', 'pageSize:required', 'sortField:required', 'sortOrder:required']);
			await get({ ...LIST, page: 0, pageSize: 0 }, ['page:isInt', 'pageSize:isInt']);
			await get({ ...LIST, page: 'one', pageSize: 2.5 }, ['page:isInt', 'pageSize:isInt']);
			await get({ ...LIST, sortField: 'name', sortOrder: 'asc' }, ['sortField:isIn', 'sortOrder:isIn']);
			await get({ ...LIST, dateRangeColumn: 'deletedAt' }, ['dateRangeColumn:isIn']);
			await get({ ...LIST, dateRangeColumn: 'createdAt', startAt: 'yesterday', endAt: '2024-02-30' }, ['startAt:isDateString', 'endAt:isDateString']);
			await get({ ...LIST, startAt: '2024-01-01T00:00:00Z' }, ['dateRangeColumn:required']);
		});
	});

	describe('rerun accept header (public facts: without it the rerun answers 422)', () => {
		const reruns: Array<[string, Record<string, string>]> = [
			['/api/v1/scrapers-ai-rerun', { scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/' }],
			['/api/v1/scrapers-manual-rerun', { scraperId: DEMO_MANUAL_SCRAPER_IDS[0], url: 'https://shop.example.com/' }],
		];
		const acceptIssue = { field: 'accept', rule: 'equals', message: 'accept header must be application/json' };

		it.each(reruns)('%s: 422 naming accept unless it asks for application/json', async (p, body) => {
			for (const accept of ['*/*', 'text/html', 'application/jsonp', '']) {
				const res = await callPlatform(base, 'POST', p, { body, headers: { accept } });
				expect(res.status).toBe(422);
				expect(res.body).toEqual({ message: 'Validation failed', error: 'Unprocessable Entity', statusCode: 422, errors: [acceptIssue] });
			}
			const ok = await callPlatform(base, 'POST', p, { body, headers: { accept: 'text/plain, application/json;q=0.9' } });
			expect(ok.status).toBe(200);
			// Nothing was created by the refusals: the ok one is the only rerun.
			const list = await callPlatform<unknown[]>(base, 'GET', '/api/v1/results', { query: { ...LIST, search: 'Rerun-' } });
			expect(list.body.meta?.total).toBe(1);
		});

		it.each(reruns)('%s: the header is listed with the body problems in one 422', async (p) => {
			const res = await callPlatform(base, 'POST', p, { body: { url: 'nope' }, headers: { accept: '*/*' } });
			expect(res.status).toBe(422);
			expect(fields(res.body.errors)).toEqual(['accept:equals', 'scraperId:required', 'url:isUrl']);
			const bad = await callPlatform(base, 'POST', p, { rawBody: '{', headers: { accept: 'text/html' } });
			expect(fields(bad.body.errors)).toEqual(['accept:equals', 'body:isJson']);
		});

		it('comes after the permission check: a restricted account gets 403 whatever it accepts', async () => {
			const res = await callPlatform(base, 'POST', reruns[0][0], { token: PLATFORM_RESTRICTED_TOKEN, body: reruns[0][1], headers: { accept: '*/*' } });
			expect(res.status).toBe(403);
		});
	});

	describe('429 from the account rate limit', () => {
		const tooMany = { message: 'Too many requests. Please try again later.' };

		it('limits the documented endpoints (and the public-facts ones) per account, with Retry-After, and recovers after the window', async () => {
			sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { rateLimit: LIMITED.length, rateTtl: 30 });
			for (const e of LIMITED) expect((await callPlatform(base, e.method, path(e.path), { body: e.body })).status).toBe(200);
			for (const e of LIMITED) {
				const res = await callPlatform(base, e.method, path(e.path), { body: e.body });
				expect(res.status).toBe(429);
				expect(res.body).toEqual(tooMany);
				expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
				expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(30);
			}
			// Reads are not rate limited.
			expect((await callPlatform(base, 'GET', '/api/v1/results', { query: LIST })).status).toBe(200);
			expect((await callPlatform(base, 'GET', '/api/v1/subscription-accounts')).status).toBe(200);
			// Another account has its own budget.
			const other = await callPlatform(base, 'POST', '/api/v1/scrapers-ai', { token: PLATFORM_OTHER_USER_TOKEN, body: ENDPOINTS[1].body });
			expect(other.status).toBe(200);

			sim.clock.advance(20_000);
			const still = await callPlatform(base, 'POST', '/api/v1/scrapers-ai', { body: ENDPOINTS[1].body });
			expect(still.status).toBe(429);
			expect(Number(still.headers.get('retry-after'))).toBeLessThanOrEqual(10);
			sim.clock.advance(10_000);
			expect((await callPlatform(base, 'POST', '/api/v1/scrapers-ai', { body: ENDPOINTS[1].body })).status).toBe(200);
		});

		it('a 429 does not create anything', async () => {
			sim.setAccountLimits(PLATFORM_DEMO_TOKEN, { rateLimit: 1 });
			await callPlatform(base, 'POST', '/api/v1/scrapers-ai', { body: ENDPOINTS[1].body });
			const res = await callPlatform(base, 'POST', '/api/v1/scrapers-ai', { body: ENDPOINTS[1].body });
			expect(res.status).toBe(429);
			const list = await callPlatform(base, 'GET', '/api/v1/results', { query: LIST });
			expect(list.body.meta?.total).toBe(2); // the bulk from beforeEach and one AI result
			const account = await callPlatform<{ rateLimit: number; rateTtl: number }>(base, 'GET', '/api/v1/subscription-accounts');
			expect(account.body.data).toMatchObject({ rateLimit: 1, rateTtl: 60 });
		});

		it('the simulator option sets the default limit', async () => {
			const strict = new PlatformSimulator({ rateLimit: 2, rateTtl: 5 });
			const url = await strict.listen();
			try {
				const statuses: number[] = [];
				for (let i = 0; i < 3; i++) statuses.push((await callPlatform(url, 'POST', '/api/v1/scrapers-ai', { body: ENDPOINTS[1].body })).status);
				expect(statuses).toEqual([200, 200, 429]);
			} finally {
				await strict.close();
			}
		});
	});

	describe('500 injected', () => {
		it('answers the documented body on the faulted route only', async () => {
			sim.server.faults.add({ kind: 'status', status: 500, routes: [PLATFORM_ROUTES.cancelBulk], times: 1 });
			const byScraper = `/api/v1/scrapers-bulks/${DEMO_MANUAL_SCRAPER_IDS[1]}/cancel`;
			const res = await callPlatform(base, 'PATCH', byScraper);
			expect(res.status).toBe(500);
			expect(res.body).toEqual({ message: 'An unexpected error occurred', error: 'Internal Server Error', statusCode: 500 });
			expect((await callPlatform(base, 'GET', '/api/v1/subscription-accounts')).status).toBe(200);
			// The other cancel is its own route.
			expect((await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/result/${bulkId}/cancel`)).status).toBe(200);
			// Spent after one firing.
			expect((await callPlatform(base, 'PATCH', byScraper)).status).toBe(200);
			sim.server.faults.add({ kind: 'status', status: 500, routes: [PLATFORM_ROUTES.cancelBulkResult], times: 1 });
			expect((await callPlatform(base, 'PATCH', `/api/v1/scrapers-bulks/result/${bulkId}/cancel`)).status).toBe(500);
			expect(sim.server.log.count(PLATFORM_ROUTES.cancelBulkResult)).toBe(2);
			expect(sim.server.log.count(PLATFORM_ROUTES.cancelBulk)).toBe(2);
		});

		it.each([401, 403, 404, 422, 429])('an injected %i looks like the real one', async (status) => {
			sim.server.faults.add({ kind: 'status', status, routes: [PLATFORM_ROUTES.subscriptionAccount] });
			const res = await callPlatform(base, 'GET', '/api/v1/subscription-accounts');
			expect(res.status).toBe(status);
			if (status === 429) expect(res.body).toEqual({ message: 'Too many requests. Please try again later.' });
			else expect(res.body.statusCode).toBe(status);
			if (status === 422) expect(res.body.message).toBe('Validation failed');
			if (status === 403) expect(res.body.message).toBe('You do not have permission to access this resource');
		});
	});
});
