import {
	MARKETPLACE_DEMO_TOKEN,
	MARKETPLACE_OTHER_USER_TOKEN,
	MARKETPLACE_ROUTES,
	MarketplaceSimulator,
	type CreateAndRunResponse,
	type RunListRecord,
	type ScraperObject,
	type ScrapingRunRecord,
} from '../../simulator/marketplace';
import { served } from '../served';

/** Section C reads and deletes (public facts): scrapers listed and read, runs and results read and deleted. */

const sim = served(new MarketplaceSimulator({ queuedMs: 1_000, runMs: 3_000 }));

afterEach(() => {
	sim.options.contentType = 'application/json';
});

interface Answer<T> {
	status: number;
	headers: Headers;
	body: T;
}

async function api<T>(method: string, path: string, body?: unknown, token = MARKETPLACE_DEMO_TOKEN): Promise<Answer<T>> {
	const response = await fetch(`${sim.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) as T };
}

async function ok<T>(method: string, path: string, token?: string): Promise<T> {
	const answer = await api<T>(method, path, undefined, token);
	expect(answer.status).toBe(200);
	return answer.body;
}

const NOT_FOUND = { message: 'Resource not found', error: 'Not Found', statusCode: 404 };

const PORTAL = '/api/scrapers/real-estate-portal/create-and-run';
const SOCIAL = '/api/scrapers/leads-generator/social/create-and-run';
const portalLinks = (name: string, urls: string[]) => ({ name, options: 'links', urls, channel: 'rent', property_types: ['all'] });
const social = (name: string) => ({ name, keywords: 'tea', sentiment_type: 'all', expected_data: 2 });

async function create(path: string, body: unknown, token?: string): Promise<CreateAndRunResponse> {
	const answer = await api<CreateAndRunResponse>('POST', path, body, token);
	expect(answer.status).toBe(200);
	return answer.body;
}

const scraperPage = async (query = '', token?: string) => (await ok<{ data: ScraperObject[] }>('GET', `/api/scrapers${query}`, token)).data;

describe('GET /api/scrapers', () => {
	it('the account’s scrapers as scraper objects, newest first, 15 a page by default, pages partition the list', async () => {
		for (let i = 0; i < 20; i++) sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		sim.seedRuns(MARKETPLACE_OTHER_USER_TOKEN, 1);
		const fresh = await create(SOCIAL, social('Fresh'));

		const first = await scraperPage();
		expect(first).toHaveLength(15);
		expect(first[0]).toEqual(fresh.scraper);
		expect(Object.keys(first[0]).sort()).toEqual(['created_at', 'id', 'name', 'schedule', 'scheduled', 'updated_at', 'url', 'urls']);

		const all = await scraperPage('?per_page=100');
		expect(all).toHaveLength(21);
		const created = all.map((s) => Date.parse(s.created_at));
		expect([...created].sort((a, b) => b - a)).toEqual(created);
		// Seeded at one instant: same created_at, the one created last first.
		const seeded = all.slice(1).map((s) => s.id);
		expect(seeded).toEqual([...seeded].sort((a, b) => b - a));

		const pages: ScraperObject[] = [];
		for (let page = 1; page <= 3; page++) pages.push(...(await scraperPage(`?page=${page}&per_page=8`)));
		expect(pages.map((s) => s.id)).toEqual(all.map((s) => s.id));
		expect(await scraperPage('?page=3&per_page=8')).toHaveLength(5);
		expect(await scraperPage('?page=4&per_page=8')).toEqual([]);
		expect(await scraperPage('', MARKETPLACE_OTHER_USER_TOKEN)).toHaveLength(1);
	});

	it('answers {data} alone, as the results list does (no total)', async () => {
		sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		const body = await ok<Record<string, unknown>>('GET', '/api/scrapers');
		expect(Object.keys(body)).toEqual(['data']);
	});

	it('paging is validated as for the results list', async () => {
		const answer = await api<{ errors: Array<{ field: string; rule: string }> }>('GET', '/api/scrapers?page=0&per_page=101');
		expect(answer.status).toBe(422);
		expect(answer.body.errors.map((e) => [e.field, e.rule])).toEqual([
			['page', 'integer'],
			['per_page', 'max'],
		]);
	});

	it('a scraper’s updated_at moves to its latest run; scheduled scrapers show their schedule', async () => {
		const created = await create(SOCIAL, social('Tea talk'));
		sim.clock.advance(60_000);
		await api('POST', `/api/scrapers/${created.scraper.id}/run`, {});
		sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, created.scraper.id, '*/10 * * * *');
		const [listed] = await scraperPage();
		expect(listed.updated_at).not.toBe(created.scraper.updated_at);
		expect(listed).toMatchObject({ id: created.scraper.id, scheduled: true, schedule: { cron: '*/10 * * * *', cron_timezone: 'UTC' } });
	});
});

describe('GET /api/scrapers/{id}', () => {
	it('one scraper object, as the create answer showed it', async () => {
		const created = await create(PORTAL, portalLinks('Listings', ['https://www.portal.example/rent/a']));
		const { data } = await ok<{ data: ScraperObject }>('GET', `/api/scrapers/${created.scraper.id}`);
		expect(data).toEqual(created.scraper);
		expect(data.urls).toEqual(['https://www.portal.example/rent/a']);
	});

	it('unknown or another account’s scraper: 404; a non-integer id: 422 naming id', async () => {
		const theirs = await create(SOCIAL, social('Theirs'), MARKETPLACE_OTHER_USER_TOKEN);
		for (const id of [999_999, theirs.scraper.id]) {
			const answer = await api('GET', `/api/scrapers/${id}`);
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual(NOT_FOUND);
		}
		for (const id of ['abc', '0', '1.5']) {
			const answer = await api<{ errors: Array<{ field: string; rule: string }> }>('GET', `/api/scrapers/${id}`);
			expect(answer.status).toBe(422);
			expect(answer.body.errors).toEqual([{ field: 'id', rule: 'integer', message: 'The id must be a positive integer.' }]);
		}
	});
});

describe('GET /api/scraping-runs/latest/{scraper_id}', () => {
	it('the newest run of the scraper, as GET /api/scraping-runs/{id} shows it', async () => {
		const created = await create(PORTAL, portalLinks('Listings', ['https://www.portal.example/rent/a', 'https://www.portal.example/rent/b']));
		let latest = await ok<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/latest/${created.scraper.id}`);
		expect(latest.data).toMatchObject({ id: created.results[0].scraping_run_id, scraper_id: created.scraper.id, status: 'queued' });
		expect(latest.data.results).toHaveLength(2);

		sim.clock.advance(10_000);
		const again = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${created.scraper.id}/run`, { urls: ['https://www.portal.example/rent/c'] });
		sim.clock.advance(4_000);
		latest = await ok<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/latest/${created.scraper.id}`);
		expect(latest.data.id).toBe(again.body.data[0].scraping_run_id);
		expect(latest.data).toEqual((await ok<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/${latest.data.id}`)).data);
		expect(latest.data.status).toBe('succeeded');
		expect(Array.isArray(latest.data.results[0].content)).toBe(true);
	});

	it('unknown scraper, another account’s, or one without runs left: 404; a bad id: 422 naming scraper_id', async () => {
		const theirs = await create(SOCIAL, social('Theirs'), MARKETPLACE_OTHER_USER_TOKEN);
		const mine = await create(SOCIAL, social('Mine'));
		await ok('DELETE', `/api/scraping-runs/${mine.results[0].scraping_run_id}`);
		for (const id of [999_999, theirs.scraper.id, mine.scraper.id]) {
			const answer = await api('GET', `/api/scraping-runs/latest/${id}`);
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual(NOT_FOUND);
		}
		const bad = await api<{ errors: Array<{ field: string }> }>('GET', '/api/scraping-runs/latest/x1');
		expect(bad.status).toBe(422);
		expect(bad.body.errors[0].field).toBe('scraper_id');
	});
});

describe('GET /api/results/{id}', () => {
	it('one run-list record, the same as the results list shows it', async () => {
		sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		const listed = (await ok<{ data: RunListRecord[] }>('GET', '/api/results')).data;
		const { data } = await ok<{ data: RunListRecord }>('GET', `/api/results/${listed[1].id}`);
		expect(data).toEqual(listed[1]);
		expect(Array.isArray(data.content)).toBe(true);
	});

	it('content is null until the result succeeded', async () => {
		const created = await create(SOCIAL, social('Tea'));
		const id = created.results[0].id;
		expect((await ok<{ data: RunListRecord }>('GET', `/api/results/${id}`)).data).toMatchObject({ id, status: 'queued', content: null });
		sim.clock.advance(4_000);
		expect((await ok<{ data: RunListRecord }>('GET', `/api/results/${id}`)).data).toMatchObject({ id, status: 'succeeded' });
	});

	it('unknown or another account’s result: 404; a bad id: 422 naming id', async () => {
		const theirs = await create(SOCIAL, social('Theirs'), MARKETPLACE_OTHER_USER_TOKEN);
		for (const id of [999_999, theirs.results[0].id]) {
			const answer = await api('GET', `/api/results/${id}`);
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual(NOT_FOUND);
		}
		const bad = await api<{ errors: Array<{ field: string }> }>('GET', '/api/results/abc');
		expect(bad.status).toBe(422);
		expect(bad.body.errors[0].field).toBe('id');
	});
});

describe('DELETE /api/scraping-runs/{id}', () => {
	it('answers {deleted: true}; the run and its results are gone from every read, the scraper stays', async () => {
		const created = await create(PORTAL, portalLinks('Listings', ['https://www.portal.example/rent/a', 'https://www.portal.example/rent/b']));
		const kept = await create(SOCIAL, social('Kept'));
		const runId = created.results[0].scraping_run_id;
		const answer = await api<{ deleted: boolean }>('DELETE', `/api/scraping-runs/${runId}`);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ deleted: true });
		for (const path of [`/api/scraping-runs/${runId}`, `/api/scraping-runs/html/${runId}`, `/api/results/${created.results[0].id}`, `/api/results/${created.results[1].id}`, `/api/results/latest/${created.scraper.id}`]) {
			expect((await api('GET', path)).status).toBe(404);
		}
		const listed = (await ok<{ data: RunListRecord[] }>('GET', '/api/results')).data;
		expect(listed.map((r) => r.id)).toEqual(kept.results.map((r) => r.id));
		expect((await ok<{ data: ScraperObject }>('GET', `/api/scrapers/${created.scraper.id}`)).data.id).toBe(created.scraper.id);
		expect(sim.server.log.for(MARKETPLACE_ROUTES.deleteScrapingRun)).toHaveLength(1);
	});

	it('the latest reads fall back to the run before the deleted one', async () => {
		const created = await create(SOCIAL, social('Tea'));
		sim.clock.advance(10_000);
		const second = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${created.scraper.id}/run`, {});
		await ok('DELETE', `/api/scraping-runs/${second.body.data[0].scraping_run_id}`);
		const latest = await ok<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/latest/${created.scraper.id}`);
		expect(latest.data.id).toBe(created.results[0].scraping_run_id);
		const latestResults = await ok<{ data: RunListRecord[] }>('GET', `/api/results/latest/${created.scraper.id}`);
		expect(latestResults.data.map((r) => r.id)).toEqual(created.results.map((r) => r.id));
	});

	it('deleting twice, an unknown or another account’s run: 404 (nothing deleted); a bad id: 422', async () => {
		const mine = await create(SOCIAL, social('Mine'));
		const theirs = await create(SOCIAL, social('Theirs'), MARKETPLACE_OTHER_USER_TOKEN);
		const runId = mine.results[0].scraping_run_id;
		expect((await api('DELETE', `/api/scraping-runs/${runId}`)).status).toBe(200);
		for (const id of [runId, 424_242, theirs.results[0].scraping_run_id]) {
			const answer = await api('DELETE', `/api/scraping-runs/${id}`);
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual(NOT_FOUND);
		}
		expect((await ok<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/${theirs.results[0].scraping_run_id}`, MARKETPLACE_OTHER_USER_TOKEN)).data.id).toBe(
			theirs.results[0].scraping_run_id,
		);
		const bad = await api<{ errors: Array<{ field: string }> }>('DELETE', '/api/scraping-runs/-3');
		expect(bad.status).toBe(422);
		expect(bad.body.errors[0].field).toBe('id');
	});
});

describe('DELETE /api/results/{id}', () => {
	it('answers {deleted: true}; the run keeps its other results', async () => {
		const created = await create(PORTAL, portalLinks('Listings', ['https://www.portal.example/rent/a', 'https://www.portal.example/rent/b']));
		const [gone, kept] = created.results;
		expect((await ok<{ deleted: boolean }>('DELETE', `/api/results/${gone.id}`))).toEqual({ deleted: true });
		expect((await api('GET', `/api/results/${gone.id}`)).status).toBe(404);
		const run = (await ok<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/${gone.scraping_run_id}`)).data;
		expect(run.results.map((r) => r.id)).toEqual([kept.id]);
		expect((await ok<{ data: RunListRecord[] }>('GET', '/api/results')).data.map((r) => r.id)).toEqual([kept.id]);
	});

	it('the last result of a run takes the run with it', async () => {
		const created = await create(SOCIAL, social('Tea'));
		await ok('DELETE', `/api/results/${created.results[0].id}`);
		expect((await api('GET', `/api/scraping-runs/${created.results[0].scraping_run_id}`)).status).toBe(404);
		expect((await api('GET', `/api/scraping-runs/latest/${created.scraper.id}`)).status).toBe(404);
	});

	it('deleting twice, an unknown or another account’s result: 404; a bad id: 422', async () => {
		const mine = await create(SOCIAL, social('Mine'));
		const theirs = await create(SOCIAL, social('Theirs'), MARKETPLACE_OTHER_USER_TOKEN);
		const id = mine.results[0].id;
		expect((await api('DELETE', `/api/results/${id}`)).status).toBe(200);
		for (const other of [id, 999_999, theirs.results[0].id]) {
			const answer = await api('DELETE', `/api/results/${other}`);
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual(NOT_FOUND);
		}
		expect((await api('GET', `/api/results/${theirs.results[0].id}`, undefined, MARKETPLACE_OTHER_USER_TOKEN)).status).toBe(200);
		expect((await api('DELETE', '/api/results/1e3')).status).toBe(422);
	});
});

describe('the new routes as every section C route', () => {
	it('need the Bearer token', async () => {
		for (const [method, path] of [['GET', '/api/scrapers'], ['GET', '/api/scrapers/101'], ['DELETE', '/api/results/90001'], ['DELETE', '/api/scraping-runs/5001'], ['GET', '/api/scraping-runs/latest/101']]) {
			const response = await fetch(`${sim.url}${path}`, { method });
			expect(response.status).toBe(401);
		}
	});

	it('answer text/plain JSON when the content type option says so', async () => {
		const created = await create(SOCIAL, social('Tea'));
		sim.options.contentType = 'text/plain';
		for (const [method, path] of [
			['GET', '/api/scrapers'],
			['GET', `/api/scrapers/${created.scraper.id}`],
			['GET', `/api/results/${created.results[0].id}`],
			['GET', `/api/scraping-runs/latest/${created.scraper.id}`],
			['DELETE', `/api/results/${created.results[0].id}`],
		]) {
			const response = await fetch(`${sim.url}${path}`, { method, headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } });
			expect(response.status).toBe(200);
			expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
			expect(JSON.parse(await response.text())).toBeTruthy();
		}
	});

	it('are named in MARKETPLACE_ROUTES as the log records them', async () => {
		const created = await create(SOCIAL, social('Tea'));
		const runId = created.results[0].scraping_run_id;
		await api('GET', '/api/scrapers');
		await api('GET', `/api/scrapers/${created.scraper.id}`);
		await api('GET', `/api/scraping-runs/latest/${created.scraper.id}`);
		await api('GET', `/api/results/${created.results[0].id}`);
		await api('DELETE', `/api/results/${created.results[0].id}`);
		await api('DELETE', `/api/scraping-runs/${runId}`);
		const routes = sim.server.log.for().map((r) => r.route);
		expect(routes.slice(1)).toEqual([
			MARKETPLACE_ROUTES.listScrapers,
			MARKETPLACE_ROUTES.scraper,
			MARKETPLACE_ROUTES.latestScrapingRun,
			MARKETPLACE_ROUTES.result,
			MARKETPLACE_ROUTES.deleteResult,
			MARKETPLACE_ROUTES.deleteScrapingRun,
		]);
	});
});
