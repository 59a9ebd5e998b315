import {
	MARKETPLACE_DEMO_TOKEN,
	MARKETPLACE_OTHER_USER_TOKEN,
	MARKETPLACE_ROUTES,
	MarketplaceSimulator,
} from '../../simulator/marketplace';
import { served } from '../served';

const sim = served(new MarketplaceSimulator());

beforeEach(() => {
	sim.setRateLimit(600, 60);
});

async function get(path: string, authorization?: string): Promise<Response> {
	return fetch(`${sim.url}${path}`, { headers: authorization === undefined ? {} : { authorization } });
}

describe('section C: Bearer authentication (RFC 6750)', () => {
	const endpoints: Array<[string, string]> = [
		['POST', '/api/job-board-scrape'],
		['POST', '/api/scrapers/real-estate-portal/create-and-run'],
		['POST', '/api/scrapers/pdf/create-and-run'],
		['POST', '/api/scrapers/leads-generator/search/create-and-run'],
		['POST', '/api/scrapers/leads-generator/social/create-and-run'],
		['POST', '/api/scrapers/101/run'],
		['GET', '/api/results'],
		['GET', '/api/results/latest/101'],
		['GET', '/api/scraping-runs/html/5001'],
		['GET', '/api/scraping-runs/5001'],
		['GET', '/api/account'],
	];

	it.each(endpoints)('%s %s without a token answers 401 with a Bearer challenge', async (method, path) => {
		const response = await fetch(`${sim.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
		expect(response.status).toBe(401);
		expect(response.headers.get('www-authenticate')).toBe('Bearer realm="marketplace"');
		expect(await response.json()).toEqual({ message: 'Invalid or missing API token', error: 'Unauthorized', statusCode: 401 });
	});

	it('a wrong token answers 401 with error="invalid_token" in the challenge', async () => {
		const response = await get('/api/results', 'Bearer not-a-known-token');
		expect(response.status).toBe(401);
		expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
		expect(await response.json()).toEqual({ message: 'Invalid or missing API token', error: 'Unauthorized', statusCode: 401 });
	});

	it.each([
		['Basic scheme', `Basic ${MARKETPLACE_DEMO_TOKEN}`],
		['token without scheme', MARKETPLACE_DEMO_TOKEN],
		['x-api-token style value', `Token ${MARKETPLACE_DEMO_TOKEN}`],
		['Bearer without token', 'Bearer '],
		['token with spaces', `Bearer ${MARKETPLACE_DEMO_TOKEN} extra`],
	])('a malformed Authorization header (%s) answers 401', async (_label, header) => {
		const response = await get('/api/results', header);
		expect(response.status).toBe(401);
		expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
	});

	it('the token in the x-api-token header (section B style) is not accepted', async () => {
		const response = await fetch(`${sim.url}/api/results`, { headers: { 'x-api-token': MARKETPLACE_DEMO_TOKEN } });
		expect(response.status).toBe(401);
	});

	it('the Bearer scheme name is case-insensitive and both accounts are accepted', async () => {
		expect((await get('/api/results', `bearer ${MARKETPLACE_DEMO_TOKEN}`)).status).toBe(200);
		expect((await get('/api/results', `Bearer ${MARKETPLACE_OTHER_USER_TOKEN}`)).status).toBe(200);
	});

	it('a token added at run time works', async () => {
		sim.addToken('mkt_example_third_account', 3);
		const response = await get('/api/results', 'Bearer mkt_example_third_account');
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ data: [] });
	});
});

describe('section C: other errors', () => {
	it('an unknown path answers 404 Resource not found', async () => {
		const response = await get('/api/nothing-here', `Bearer ${MARKETPLACE_DEMO_TOKEN}`);
		expect(response.status).toBe(404);
		expect(await response.json()).toEqual({ message: 'Resource not found', error: 'Not Found', statusCode: 404 });
	});

	it('a body that is not JSON answers 400', async () => {
		const response = await fetch(`${sim.url}/api/scrapers/pdf/create-and-run`, {
			method: 'POST',
			headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
			body: '{"name": "broken',
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: 'Malformed JSON body', error: 'Bad Request', statusCode: 400 });
	});

	it('an injected 500 fault answers with the section C body and is logged', async () => {
		sim.server.faults.add({ kind: 'status', status: 500, routes: [MARKETPLACE_ROUTES.listResults], times: 1 });
		const first = await get('/api/results', `Bearer ${MARKETPLACE_DEMO_TOKEN}`);
		expect(first.status).toBe(500);
		expect(await first.json()).toEqual({ message: 'An unexpected error occurred', error: 'Internal Server Error', statusCode: 500 });
		expect((await get('/api/results', `Bearer ${MARKETPLACE_DEMO_TOKEN}`)).status).toBe(200);
		expect(sim.server.log.for(MARKETPLACE_ROUTES.listResults).map((e) => e.status)).toEqual([500, 200]);
	});
});

describe('section C: per-token rate limit', () => {
	it('answers 429 with Retry-After past the limit, per token, until the window passes', async () => {
		sim.setRateLimit(3, 30);
		const auth = `Bearer ${MARKETPLACE_DEMO_TOKEN}`;
		for (let i = 0; i < 3; i++) expect((await get('/api/results', auth)).status).toBe(200);

		const limited = await get('/api/results', auth);
		expect(limited.status).toBe(429);
		expect(await limited.json()).toEqual({ message: 'Too many requests. Please try again later.' });
		const retryAfter = Number(limited.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThanOrEqual(29);
		expect(retryAfter).toBeLessThanOrEqual(30);

		// Another account has its own window.
		expect((await get('/api/results', `Bearer ${MARKETPLACE_OTHER_USER_TOKEN}`)).status).toBe(200);

		sim.clock.advance(10_000);
		const later = await get('/api/results', auth);
		expect(later.status).toBe(429);
		expect(Number(later.headers.get('retry-after'))).toBeLessThanOrEqual(20);

		sim.clock.advance(20_000);
		expect((await get('/api/results', auth)).status).toBe(200);
	});

	it('counts POSTs too, and a 429 creates nothing', async () => {
		sim.setRateLimit(1, 60);
		const post = () =>
			fetch(`${sim.url}/api/scrapers/leads-generator/social/create-and-run`, {
				method: 'POST',
				headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'Social', keywords: 'coffee', sentiment_type: 'all', expected_data: 5 }),
			});
		expect((await post()).status).toBe(200);
		expect((await post()).status).toBe(429);
		sim.setRateLimit(100, 60);
		const list = (await (await get('/api/results', `Bearer ${MARKETPLACE_DEMO_TOKEN}`)).json()) as { data: unknown[] };
		expect(list.data).toHaveLength(1);
	});

	it('requests without a valid token are refused before counting', async () => {
		sim.setRateLimit(1, 60);
		for (let i = 0; i < 3; i++) expect((await get('/api/results', 'Bearer wrong')).status).toBe(401);
		expect((await get('/api/results', `Bearer ${MARKETPLACE_DEMO_TOKEN}`)).status).toBe(200);
	});
});
