import {
	MARKETPLACE_CONTENT_TYPES,
	MARKETPLACE_DEMO_TOKEN,
	MARKETPLACE_OTHER_USER_TOKEN,
	MARKETPLACE_ROUTES,
	MarketplaceSimulator,
	type CreateAndRunResponse,
	type MarketplaceAccount,
	type RunListRecord,
} from '../../simulator/marketplace';
import { served } from '../served';

const sim = served(new MarketplaceSimulator({ queuedMs: 1_000, runMs: 3_000 }));

beforeEach(() => {
	sim.options.contentType = 'application/json';
});

interface Raw {
	status: number;
	contentType: string | null;
	text: string;
}

async function call(method: string, path: string, body?: unknown, token = MARKETPLACE_DEMO_TOKEN): Promise<Raw> {
	const response = await fetch(`${sim.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

const PORTAL = {
	name: 'Rentals',
	options: 'locations',
	locations: ['Surry Hills NSW 2010'],
	channel: 'rent',
	property_types: ['house'],
};
const JOB_BOARD = { urls: ['https://jobs.example.com/few-jobs'], schema: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } } } } };

describe('section C: GET /api/account (public facts: the cheapest credential test)', () => {
	it('returns the account behind the token', async () => {
		const answer = await call('GET', '/api/account');
		expect(answer.status).toBe(200);
		const body = JSON.parse(answer.text) as { data: MarketplaceAccount };
		expect(body).toEqual({ data: { id: 1, name: 'Demo User', email: 'demo@example.com', plan: 'pro', created_at: '2024-01-15T09:30:00.000Z' } });
		const other = JSON.parse((await call('GET', '/api/account', undefined, MARKETPLACE_OTHER_USER_TOKEN)).text) as { data: MarketplaceAccount };
		expect(other.data).toMatchObject({ id: 2, plan: 'free' });
		expect(JSON.stringify(body)).not.toContain(MARKETPLACE_DEMO_TOKEN);
	});

	it('an added token gets a generated account for its user id', async () => {
		sim.addToken('mkt_example_account_seven', 7);
		const body = JSON.parse((await call('GET', '/api/account', undefined, 'mkt_example_account_seven')).text) as { data: MarketplaceAccount };
		expect(body.data).toEqual({ id: 7, name: 'User 7', email: 'user7@example.com', plan: 'free', created_at: expect.any(String) });
	});

	it('answers 401 for a missing or unknown token, like every section C endpoint', async () => {
		const wrong = await fetch(`${sim.url}/api/account`, { headers: { authorization: 'Bearer not-a-known-token' } });
		expect(wrong.status).toBe(401);
		expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
		expect(await wrong.json()).toEqual({ message: 'Invalid or missing API token', error: 'Unauthorized', statusCode: 401 });
		const missing = await fetch(`${sim.url}/api/account`);
		expect(missing.status).toBe(401);
		expect(sim.server.log.for(MARKETPLACE_ROUTES.account).map((e) => e.status)).toEqual([401, 401]);
	});

	it('counts against the rate limit as every authenticated request does', async () => {
		sim.setRateLimit(1, 60);
		try {
			expect((await call('GET', '/api/account')).status).toBe(200);
			expect((await call('GET', '/api/account')).status).toBe(429);
		} finally {
			sim.setRateLimit(600, 60);
		}
	});
});

describe('section C: contentType text/plain (the 2024 OpenAPI declares the answers text/plain)', () => {
	/** Every JSON answer of section C, after one portal create (scraper 101, scraping run 5001). */
	// Every row has four entries: jest reads a test function with more parameters than the row as one taking `done`.
	const ANSWERS: Array<[string, string, string, unknown]> = [
		['create-and-run', 'POST', '/api/scrapers/real-estate-portal/create-and-run', PORTAL],
		['PDF create-and-run', 'POST', '/api/scrapers/pdf/create-and-run', { name: 'Reports', keywords: [{ keyword: 'annual report', prompt: 'Is it one?' }] }],
		[
			'search leads create-and-run',
			'POST',
			'/api/scrapers/leads-generator/search/create-and-run',
			{ name: 'Leads', search_type: 'keywords', keywords: 'plumbers', limit_pages: 1 },
		],
		[
			'social leads create-and-run',
			'POST',
			'/api/scrapers/leads-generator/social/create-and-run',
			{ name: 'Social', keywords: 'coffee', sentiment_type: 'all', expected_data: 5 },
		],
		['run', 'POST', '/api/scrapers/101/run', {}],
		['results', 'GET', '/api/results', undefined],
		['latest', 'GET', '/api/results/latest/101', undefined],
		['scraping run', 'GET', '/api/scraping-runs/5001', undefined],
		['job board', 'POST', '/api/job-board-scrape', JOB_BOARD],
		['account', 'GET', '/api/account', undefined],
	];

	it('is application/json by default and lists both values', async () => {
		expect(MARKETPLACE_CONTENT_TYPES).toEqual(['application/json', 'text/plain']);
		expect(sim.options.contentType).toBe('application/json');
		expect((await call('GET', '/api/account')).contentType).toBe('application/json; charset=utf-8');
	});

	it.each(ANSWERS)('%s: labelled text/plain, the same JSON body', async (_label, method, path, body) => {
		if (path !== '/api/scrapers/real-estate-portal/create-and-run') await call('POST', '/api/scrapers/real-estate-portal/create-and-run', PORTAL);
		sim.clock.advance(10_000);
		const asJson = await call(method, path, body);
		expect(asJson.status).toBe(200);
		expect(asJson.contentType).toBe('application/json; charset=utf-8');

		sim.options.contentType = 'text/plain';
		const asText = await call(method, path, body);
		expect(asText.status).toBe(200);
		expect(asText.contentType).toBe('text/plain; charset=utf-8');
		const parsed = JSON.parse(asText.text) as Record<string, unknown>;
		const expected = JSON.parse(asJson.text) as Record<string, unknown>;
		// Creates and runs make new records (new ids, times); reads answer the same thing twice.
		if (method === 'GET' || path === '/api/job-board-scrape') expect(parsed).toEqual(expected);
		else expect(Object.keys(parsed).sort()).toEqual(Object.keys(expected).sort());
	});

	it('the HTML endpoint stays text/plain JSON text whatever the option', async () => {
		await call('POST', '/api/scrapers/real-estate-portal/create-and-run', PORTAL);
		for (const contentType of MARKETPLACE_CONTENT_TYPES) {
			sim.options.contentType = contentType;
			const answer = await call('GET', '/api/scraping-runs/html/5001');
			expect(answer.contentType).toBe('text/plain; charset=utf-8');
			expect((JSON.parse(answer.text) as { data: { id: number } }).data.id).toBe(5001);
		}
	});

	it('errors stay application/json', async () => {
		sim.options.contentType = 'text/plain';
		const invalid = await call('POST', '/api/scrapers/real-estate-portal/create-and-run', {});
		expect(invalid.status).toBe(422);
		expect(invalid.contentType).toBe('application/json; charset=utf-8');
		const missing = await call('GET', '/api/scraping-runs/9999');
		expect(missing.status).toBe(404);
		expect(missing.contentType).toBe('application/json; charset=utf-8');
	});

	it('is a constructor option too', async () => {
		const plain = new MarketplaceSimulator({ contentType: 'text/plain' });
		const url = await plain.listen();
		try {
			const response = await fetch(`${url}/api/results`, { headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } });
			expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
			expect(JSON.parse(await response.text())).toEqual({ data: [] });
		} finally {
			await plain.close();
		}
	});
});

describe('section C: demo data (seedDemo, used by the standalone simulator)', () => {
	it('gives the demo account finished runs of several scrapers, and nothing to the other account', async () => {
		const seededAt = sim.clock.now();
		sim.seedDemo();
		sim.seedDemo(); // adds nothing the second time
		const all = JSON.parse((await call('GET', '/api/results?per_page=100')).text) as { data: RunListRecord[] };
		// `Inner-city rentals` is scheduled every 10 minutes from seeding on (schedule.test.ts): a firing may fall
		// between seeding and this read; the history is what was created before.
		const list = { data: all.data.filter((r) => Date.parse(r.created_at) <= seededAt) };
		for (const record of all.data.filter((r) => Date.parse(r.created_at) > seededAt)) expect(record.scraper_name).toBe('Inner-city rentals');
		const byScraper = new Map<number, RunListRecord[]>();
		for (const record of list.data) byScraper.set(record.scraper_id, [...(byScraper.get(record.scraper_id) ?? []), record]);
		expect(byScraper.size).toBe(3);
		expect(new Set(list.data.map((r) => r.scraper_name))).toEqual(new Set(['Inner-city rentals', 'Annual reports', 'Plumbers in Austin']));
		expect(new Set(list.data.map((r) => r.scraping_run_id)).size).toBe(4);
		for (const record of list.data) {
			expect(record.status).toBe('succeeded');
			expect(record.content).not.toBeNull();
			expect(Date.parse(record.created_at)).toBeLessThan(sim.clock.now() - 86_400_000 + 4 * 3_600_000);
		}
		// The latest-results read works for each seeded scraper.
		for (const scraperId of byScraper.keys()) expect((await call('GET', `/api/results/latest/${scraperId}`)).status).toBe(200);
		const other = JSON.parse((await call('GET', '/api/results', undefined, MARKETPLACE_OTHER_USER_TOKEN)).text) as { data: unknown[] };
		expect(other.data).toEqual([]);
		// New scrapers still get ids after the seeded ones.
		const created = JSON.parse((await call('POST', '/api/scrapers/real-estate-portal/create-and-run', PORTAL)).text) as CreateAndRunResponse;
		expect(byScraper.has(created.scraper.id)).toBe(false);
	});
});
