import {
	MARKETPLACE_DEMO_TOKEN,
	MARKETPLACE_OTHER_USER_TOKEN,
	MARKETPLACE_ROUTES,
	MarketplaceSimulator,
	type CreateAndRunResponse,
	type PdfLink,
	type PortalListing,
	type RunListRecord,
	type ScrapingRunRecord,
	type SearchLead,
	type SocialLead,
} from '../../simulator/marketplace';
import { served } from '../served';

const sim = served(new MarketplaceSimulator({ queuedMs: 1_000, runMs: 3_000 }));

beforeEach(() => {
	Object.assign(sim.options, { queuedMs: 1_000, runMs: 3_000, runStaggerMs: 0 });
});

interface Answer<T> {
	status: number;
	headers: Headers;
	body: T;
}

async function api<T>(method: string, path: string, body?: unknown, token = MARKETPLACE_DEMO_TOKEN): Promise<Answer<T>> {
	const response = await fetch(`${sim.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, headers: response.headers, body: JSON.parse(text) as T };
}

async function create(path: string, body: unknown, token?: string): Promise<CreateAndRunResponse> {
	const answer = await api<CreateAndRunResponse>('POST', path, body, token);
	expect(answer.status).toBe(200);
	return answer.body;
}

async function results(query = '', token?: string): Promise<RunListRecord[]> {
	const answer = await api<{ data: RunListRecord[] }>('GET', `/api/results${query}`, undefined, token);
	expect(answer.status).toBe(200);
	return answer.body.data;
}

async function scrapingRun(id: number): Promise<ScrapingRunRecord> {
	const answer = await api<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/${id}`);
	expect(answer.status).toBe(200);
	return answer.body.data;
}

const PORTAL = '/api/scrapers/real-estate-portal/create-and-run';
const PDF = '/api/scrapers/pdf/create-and-run';
const SEARCH = '/api/scrapers/leads-generator/search/create-and-run';
const SOCIAL = '/api/scrapers/leads-generator/social/create-and-run';

const portalLocations = {
	name: 'Bondi houses',
	options: 'locations',
	locations: ['Bondi', 'Coogee'],
	channel: 'buy',
	property_types: ['house', 'townhouse'],
	including_surrounding_areas: false,
	only_show_properties_with_a_price: true,
	landsize_minimum: '300',
	landsize_maximum: '900',
};
const portalLinks = {
	name: 'Listing pages',
	options: 'links',
	urls: ['https://www.portal.example/rent/list-1', 'https://www.portal.example/rent/list-2'],
	channel: 'rent',
	property_types: ['all'],
};
const pdfBody = {
	name: 'Datasheets',
	keywords: [
		{ keyword: 'solar inverter', prompt: 'Is this a product datasheet?' },
		{ keyword: 'heat pump', prompt: 'Does it state an efficiency rating?' },
	],
};
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The configuration field names of the interface, in its order. */
const CONFIGURATION_FIELDS = 'id, user_id, sharing, share_uuid, name, type, urls, pdf_urls, ai_prompt, ai_scope, headers, cookies, user_agent, disabled_resources, delay, html_wanted, screenshot_wanted, screenshot_type, locale, scheduled, cron, cron_timezone, paginate, pagination_type, infinite_pagination_type, infinite_pagination_seconds, infinite_pagination_text, infinite_pagination_css_selector, infinite_pagination_n_selector, load_more_selector, pagination_query_parameter, pagination_next_page_selector, pagination_limit_type, pagination_max_page, max_next_page, pagination_max_variable, created_at, updated_at, cron_minutes, cron_minutes_n_detail, cron_minutes_x_detail, cron_hours, cron_hours_n_detail, cron_hours_x_detail, cron_day_of_month, cron_day_of_month_x_detail, cron_month, cron_month_x_detail, cron_day_of_week, cron_day_of_week_x_detail, click_action_enabled, click_action_selector, click_action_wait, workflow, version, proxy_type, proxy_host, proxy_port, proxy_username, proxy_password, parsers, deleted_at, external_auth'.split(', ');

function expectScraperObject(created: CreateAndRunResponse, name: string, urls: string[]): void {
	expect(Object.keys(created.scraper).sort()).toEqual(['created_at', 'id', 'name', 'schedule', 'scheduled', 'updated_at', 'url', 'urls']);
	expect(Number.isInteger(created.scraper.id)).toBe(true);
	expect(created.scraper).toMatchObject({ name, url: urls, urls, scheduled: false, schedule: null });
	expect(created.scraper.created_at).toMatch(ISO);
	expect(created.scraper.updated_at).toMatch(ISO);
}

function expectRunResults(created: CreateAndRunResponse, scrapedUrls: string[], withConfiguration: boolean): void {
	expect(created.results.map((r) => r.scraped_url)).toEqual(scrapedUrls);
	const runIds = new Set(created.results.map((r) => r.scraping_run_id));
	expect(runIds.size).toBe(1);
	for (const r of created.results) {
		expect(Object.keys(r).sort()).toEqual(
			['created_at', 'id', 'scraped_url', 'scraper_id', 'scraper_name', 'scraping_run_id', 'scrapped_url', 'status', 'updated_at', 'user_id', ...(withConfiguration ? ['scraper'] : [])].sort(),
		);
		for (const id of [r.id, r.scraping_run_id, r.scraper_id, r.user_id]) expect(Number.isInteger(id)).toBe(true);
		expect(r.scrapped_url).toBe(r.scraped_url);
		expect(r).toMatchObject({ scraper_id: created.scraper.id, scraper_name: created.scraper.name, status: 'queued', user_id: 1 });
		expect(r.created_at).toMatch(ISO);
	}
	expect(new Set(created.results.map((r) => r.id)).size).toBe(created.results.length);
}

describe('create-and-run answers', () => {
	it('real-estate portal by locations: one Default result, full configuration, query workflow', async () => {
		const created = await create(PORTAL, portalLocations);
		expect(created.message).toBe('Scraping queued successfully');
		expectScraperObject(created, 'Bondi houses', []);
		expectRunResults(created, ['Default'], true);

		const configuration = created.results[0].scraper;
		if (!configuration) throw new Error('no configuration');
		expect(Object.keys(configuration).sort()).toEqual([...CONFIGURATION_FIELDS].sort());
		expect(configuration).toMatchObject({
			id: created.scraper.id,
			user_id: 1,
			name: 'Bondi houses',
			type: 'real_estate_portal',
			delay: 0,
			cron_timezone: 'UTC',
			paginate: 0,
			cron_minutes: '*',
			cron_hours: '*',
			cron_day_of_month: '*',
			cron_month: '*',
			cron_day_of_week: '*',
			click_action_wait: 'no',
			version: 2,
			proxy_type: 'rotation',
			sharing: false,
			html_wanted: false,
			screenshot_wanted: false,
			scheduled: false,
			click_action_enabled: false,
			cron: null,
			ai_prompt: null,
			proxy_host: null,
		});
		expect(configuration.workflow).toEqual([
			{
				type: 'query',
				data: {
					channel: 'buy',
					localities: [{ searchLocation: 'Bondi' }, { searchLocation: 'Coogee' }],
					filters: {
						propertyTypes: ['house', 'townhouse'],
						surroundingSuburbs: false,
						excludeNoDisplayPrice: true,
						landSize: { minimum: '300', maximum: '900' },
					},
				},
			},
		]);
	});

	it('real-estate portal by links: one result per URL, the URLs on the scraper, landSize maximum only', async () => {
		const created = await create(PORTAL, portalLinks);
		expectScraperObject(created, 'Listing pages', portalLinks.urls);
		expectRunResults(created, portalLinks.urls, true);
		const configuration = created.results[1].scraper;
		expect(configuration?.urls).toEqual(portalLinks.urls);
		expect(configuration?.workflow).toEqual([
			{
				type: 'query',
				data: {
					channel: 'rent',
					localities: [],
					filters: { propertyTypes: ['all'], surroundingSuburbs: false, excludeNoDisplayPrice: false, landSize: { maximum: 'any' } },
				},
			},
		]);
	});

	it('PDF: one result per keyword with the keyword as scraped_url, options workflow', async () => {
		const created = await create(PDF, pdfBody);
		expectScraperObject(created, 'Datasheets', []);
		expectRunResults(created, ['solar inverter', 'heat pump'], true);
		const configuration = created.results[0].scraper;
		expect(configuration?.type).toBe('pdf');
		expect(configuration?.workflow).toEqual([
			{
				type: 'options',
				data: {
					keywords: [
						{ type: 'keyword', data: { keyword: 'solar inverter', prompt: 'Is this a product datasheet?' } },
						{ type: 'keyword', data: { keyword: 'heat pump', prompt: 'Does it state an efficiency rating?' } },
					],
				},
			},
		]);
	});

	it('search leads: Default for keywords, the URL for a url search, no nested configuration', async () => {
		const byKeywords = await create(SEARCH, { name: 'Agencies', search_type: 'keywords', keywords: 'marketing agency', limit_pages: 2 });
		expectScraperObject(byKeywords, 'Agencies', []);
		expectRunResults(byKeywords, ['Default'], false);

		const url = 'https://search.example.com/results?q=plumbers';
		const byUrl = await create(SEARCH, { name: 'Plumbers', search_type: 'url', url, limit_pages: 1 });
		expectScraperObject(byUrl, 'Plumbers', [url]);
		expectRunResults(byUrl, [url], false);
	});

	it('social leads: one Default result', async () => {
		const created = await create(SOCIAL, { name: 'Coffee', keywords: 'cold brew', sentiment_type: 'all', expected_data: 8 });
		expectScraperObject(created, 'Coffee', []);
		expectRunResults(created, ['Default'], false);
	});

	it('ids grow and differ between scrapers, scraping runs and results', async () => {
		const a = await create(SOCIAL, { name: 'A', keywords: 'a', sentiment_type: 'all', expected_data: 1 });
		const b = await create(SOCIAL, { name: 'B', keywords: 'b', sentiment_type: 'all', expected_data: 1 });
		expect(b.scraper.id).toBeGreaterThan(a.scraper.id);
		expect(b.results[0].scraping_run_id).toBeGreaterThan(a.results[0].scraping_run_id);
		expect(b.results[0].id).toBeGreaterThan(a.results[0].id);
		expect(a.results[0].id).not.toBe(a.results[0].scraping_run_id);
	});
});

describe('run lifecycle over simulated time', () => {
	it('queued -> running -> succeeded, content null until done, then the listings', async () => {
		const created = await create(PORTAL, portalLocations);
		const runId = created.results[0].scraping_run_id;

		let [record] = await results();
		expect(record).toMatchObject({ id: created.results[0].id, scraping_run_id: runId, scraper_id: created.scraper.id, status: 'queued', content: null, scraped_url: 'Default', scraper_name: 'Bondi houses' });
		expect(Object.keys(record).sort()).toEqual(['content', 'created_at', 'id', 'scraped_url', 'scraper_id', 'scraper_name', 'scraping_run_id', 'status', 'updated_at']);
		expect((await scrapingRun(runId)).status).toBe('queued');

		// The simulated clock also follows real time, so the checks keep a margin around each transition.
		sim.clock.advance(500);
		expect((await results())[0].status).toBe('queued');
		sim.clock.advance(700);
		[record] = await results();
		expect(record.status).toBe('running');
		expect(record.content).toBeNull();
		expect(Date.parse(record.updated_at)).toBeGreaterThan(Date.parse(record.created_at));
		expect((await scrapingRun(runId)).status).toBe('running');

		sim.clock.advance(2_800);
		[record] = await results();
		expect(record.status).toBe('succeeded');
		const listings = record.content as PortalListing[];
		expect(Array.isArray(listings)).toBe(true);
		expect(listings.length).toBeGreaterThanOrEqual(8);
		for (const listing of listings) {
			expect(['house', 'townhouse']).toContain(listing.property_type);
			expect(['Bondi', 'Coogee']).toContain(listing.suburb);
			expect(listing.land_size).toBeGreaterThanOrEqual(300);
			expect(listing.land_size).toBeLessThan(900);
			expect(listing.price_value).not.toBeNull();
			expect(listing.price).toMatch(/^\$[\d,]+$/);
			expect(listing.url).toMatch(/^https:\/\//);
			expect(listing.agent.name).toMatch(/\w+ \w+/);
			expect(listing.channel).toBe('buy');
		}
		const run = await scrapingRun(runId);
		expect(run.status).toBe('succeeded');
		expect(run.results[0].content).toEqual(listings);
	});

	it('the sim-fail marker in a URL fails that result only; the run is failed once all are done', async () => {
		const created = await create(PORTAL, { ...portalLinks, urls: ['https://www.portal.example/ok', 'https://www.portal.example/sim-fail'] });
		sim.clock.advance(4_000);
		const run = await scrapingRun(created.results[0].scraping_run_id);
		expect(run.results.map((r) => [r.scraped_url, r.status])).toEqual([
			['https://www.portal.example/ok', 'succeeded'],
			['https://www.portal.example/sim-fail', 'failed'],
		]);
		expect(run.results[1].content).toBeNull();
		expect(run.status).toBe('failed');
	});

	it.each<[string, string, unknown]>([
		['a scraper name', SOCIAL, { name: 'My SIM-FAIL scraper', keywords: 'tea', sentiment_type: 'all', expected_data: 3 }],
		['a location', PORTAL, { ...portalLocations, locations: ['Bondi', 'sim-fail town'] }],
		['a search keyword', SEARCH, { name: 'x', search_type: 'keywords', keywords: 'sim-fail plumbers', limit_pages: 1 }],
		['a PDF keyword', PDF, { name: 'x', keywords: [{ keyword: 'sim-fail', prompt: 'any?' }] }],
	])('the sim-fail marker in %s makes the run fail after running', async (_label, path, body) => {
		const created = await create(path, body);
		sim.clock.advance(1_500);
		expect((await results())[0].status).toBe('running');
		sim.clock.advance(2_500);
		const [record] = await results();
		expect(record.status).toBe('failed');
		expect(record.content).toBeNull();
		expect((await scrapingRun(created.results[0].scraping_run_id)).status).toBe('failed');
	});

	it('timings are options: runStaggerMs lets results of one run finish one by one', async () => {
		Object.assign(sim.options, { queuedMs: 0, runMs: 500, runStaggerMs: 1_000 });
		const created = await create(PORTAL, portalLinks);
		const runId = created.results[0].scraping_run_id;
		expect((await scrapingRun(runId)).results.map((r) => r.status)).toEqual(['running', 'running']);
		sim.clock.advance(600);
		let run = await scrapingRun(runId);
		expect(run.results.map((r) => r.status)).toEqual(['succeeded', 'running']);
		expect(run.status).toBe('running');
		sim.clock.advance(1_000);
		run = await scrapingRun(runId);
		expect(run.status).toBe('succeeded');
	});

	it('a simulator built with zero timings finishes at once', async () => {
		const quick = new MarketplaceSimulator({ queuedMs: 0, runMs: 0, clock: sim.clock });
		await quick.listen();
		try {
			const response = await fetch(`${quick.url}/api/scrapers/leads-generator/social/create-and-run`, {
				method: 'POST',
				headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'Now', keywords: 'tea', sentiment_type: 'neutral', expected_data: 2 }),
			});
			const created = (await response.json()) as CreateAndRunResponse;
			expect(created.results[0].status).toBe('succeeded');
		} finally {
			await quick.close();
		}
	});
});

describe('extracted content', () => {
	async function finished(path: string, body: unknown): Promise<ScrapingRunRecord> {
		const created = await create(path, body);
		sim.clock.advance(4_000);
		return scrapingRun(created.results[0].scraping_run_id);
	}

	it('portal rent listings: weekly prices, any property type for `all`, a contact-agent price when prices are not required', async () => {
		const run = await finished(PORTAL, portalLinks);
		const listings = run.results.flatMap((r) => r.content as PortalListing[]);
		expect(listings.length).toBeGreaterThanOrEqual(8);
		expect(listings.every((l) => l.price_value === null || /per week$/.test(l.price))).toBe(true);
		expect(new Set(listings.map((l) => l.property_type)).size).toBeGreaterThan(1);
		expect(listings.every((l) => l.url.startsWith('https://www.portal.example/'))).toBe(true);
	});

	it('the same input yields the same content (deterministic)', async () => {
		const first = await finished(PORTAL, portalLocations);
		const second = await finished(PORTAL, portalLocations);
		expect(second.results[0].content).toEqual(first.results[0].content);
		const other = await finished(PORTAL, { ...portalLocations, locations: ['Manly'] });
		expect(other.results[0].content).not.toEqual(first.results[0].content);
	});

	it('PDF links: .pdf URLs for the keyword, a true/false answer per prompt, 5 per keyword by default', async () => {
		const run = await finished(PDF, pdfBody);
		for (const [i, result] of run.results.entries()) {
			const links = result.content as PdfLink[];
			expect(links).toHaveLength(5);
			for (const link of links) {
				expect(link.url).toMatch(/^https:\/\/.+\.pdf$/);
				expect(link.keyword).toBe(pdfBody.keywords[i].keyword);
				expect(link.prompt).toBe(pdfBody.keywords[i].prompt);
				expect(typeof link.matched).toBe('boolean');
				expect(link.title.length).toBeGreaterThan(0);
			}
		}
	});

	it('expected_pdf is the total, shared over the keywords', async () => {
		const run = await finished(PDF, { ...pdfBody, expected_pdf: 7 });
		expect(run.results.map((r) => (r.content as PdfLink[]).length)).toEqual([4, 3]);
	});

	it('expected_pdf beyond what the keywords find adds alternative keyword results', async () => {
		const created = await create(PDF, { name: 'Many', keywords: [pdfBody.keywords[0]], expected_pdf: 40 });
		expect(created.results.length).toBeGreaterThan(1);
		expect(created.results[0].scraped_url).toBe('solar inverter');
		for (const r of created.results.slice(1)) expect(r.scraped_url).toMatch(/^solar inverter \w+$/);
		sim.clock.advance(4_000);
		const run = await scrapingRun(created.results[0].scraping_run_id);
		const urls = run.results.flatMap((r) => (r.content as PdfLink[]).map((l) => l.url));
		expect(urls).toHaveLength(40);
		expect(new Set(urls).size).toBe(40);
	});

	it('unique: a second PDF scraper does not return PDFs already returned to this user; without unique it may', async () => {
		const body = { name: 'Unique', keywords: [pdfBody.keywords[0]], unique: true, expected_pdf: 4 };
		const first = await finished(PDF, body);
		const second = await finished(PDF, body);
		const firstUrls = (first.results[0].content as PdfLink[]).map((l) => l.url);
		const secondUrls = (second.results[0].content as PdfLink[]).map((l) => l.url);
		expect(firstUrls).toHaveLength(4);
		expect(secondUrls).toHaveLength(4);
		expect(secondUrls.filter((u) => firstUrls.includes(u))).toEqual([]);

		const repeat = await finished(PDF, { ...body, unique: false });
		expect((repeat.results[0].content as PdfLink[]).map((l) => l.url)).toEqual(firstUrls);

		// Another account has its own history.
		const created = await create(PDF, body, MARKETPLACE_OTHER_USER_TOKEN);
		sim.clock.advance(4_000);
		const other = await api<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/${created.results[0].scraping_run_id}`, undefined, MARKETPLACE_OTHER_USER_TOKEN);
		expect((other.body.data.results[0].content as PdfLink[]).map((l) => l.url)).toEqual(firstUrls);
	});

	it('search leads: contact fields, at most limit_pages result pages', async () => {
		const one = await finished(SEARCH, { name: 'Agencies', search_type: 'keywords', keywords: 'marketing agency', limit_pages: 1 });
		const three = await finished(SEARCH, { name: 'Agencies', search_type: 'keywords', keywords: 'marketing agency', limit_pages: 3 });
		const leadsOne = one.results[0].content as SearchLead[];
		const leadsThree = three.results[0].content as SearchLead[];
		expect(leadsOne.every((l) => l.page === 1)).toBe(true);
		expect(Math.max(...leadsThree.map((l) => l.page))).toBe(3);
		expect(leadsThree.length).toBeGreaterThan(leadsOne.length);
		for (const lead of leadsThree) {
			expect(lead.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
			expect(lead.website).toMatch(/^https:\/\//);
			expect(lead.phone).toMatch(/^\+\d/);
			expect(lead.source_url).toContain('marketing%20agency');
			expect(lead.name).toMatch(/\w+ \w+/);
			expect(lead.company.length).toBeGreaterThan(0);
		}
	});

	it('search leads by url take their source from that URL', async () => {
		const url = 'https://search.example.com/results?q=plumbers';
		const run = await finished(SEARCH, { name: 'Plumbers', search_type: 'url', url, limit_pages: 2 });
		const leads = run.results[0].content as SearchLead[];
		expect(leads.every((l) => l.source_url.startsWith(`${url}&page=`))).toBe(true);
	});

	it.each(['positive', 'neutral', 'negative'] as const)('social leads with sentiment %s: that sentiment only, expected_data of them', async (sentiment) => {
		const run = await finished(SOCIAL, { name: 'Coffee', keywords: 'cold brew', sentiment_type: sentiment, expected_data: 12 });
		const leads = run.results[0].content as SocialLead[];
		expect(leads).toHaveLength(12);
		for (const lead of leads) {
			expect(lead.sentiment).toBe(sentiment);
			expect(lead.post_text).toContain('cold brew');
			expect(lead.profile_url).toBe(`https://social.example.com/@${lead.username}`);
			expect(Number.isInteger(lead.followers)).toBe(true);
		}
	});

	it('social leads with sentiment all mix sentiments; a huge expected_data gets what exists', async () => {
		const run = await finished(SOCIAL, { name: 'Coffee', keywords: 'cold brew', sentiment_type: 'all', expected_data: 100_000 });
		const leads = run.results[0].content as SocialLead[];
		expect(leads.length).toBeGreaterThanOrEqual(40);
		expect(leads.length).toBeLessThanOrEqual(150);
		expect(new Set(leads.map((l) => l.sentiment)).size).toBe(3);
	});
});

describe('POST /api/scrapers/{scraper_id}/run', () => {
	it('starts a new run with the default targets, newest first in the results list', async () => {
		const created = await create(PORTAL, portalLinks);
		sim.clock.advance(5_000);
		const answer = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${created.scraper.id}/run`);
		expect(answer.status).toBe(200);
		expect(answer.body.data.map((r) => r.scraped_url)).toEqual(portalLinks.urls);
		const runId = answer.body.data[0].scraping_run_id;
		expect(runId).not.toBe(created.results[0].scraping_run_id);
		for (const r of answer.body.data) expect(r).toMatchObject({ scraper_id: created.scraper.id, status: 'queued', content: null, scraping_run_id: runId });

		const list = await results();
		expect(list.map((r) => [r.scraping_run_id, r.status])).toEqual([
			[runId, 'queued'],
			[runId, 'queued'],
			[created.results[0].scraping_run_id, 'succeeded'],
			[created.results[0].scraping_run_id, 'succeeded'],
		]);
		expect(sim.server.log.last(MARKETPLACE_ROUTES.runScraper)?.path).toBe(`/api/scrapers/${created.scraper.id}/run`);
	});

	it('urls override the default targets, also for a locations scraper', async () => {
		const created = await create(PORTAL, portalLocations);
		const urls = ['https://www.portal.example/buy/a', 'https://www.portal.example/buy/b', 'https://www.portal.example/buy/c'];
		const answer = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${created.scraper.id}/run`, { urls });
		expect(answer.body.data.map((r) => r.scraped_url)).toEqual(urls);
		sim.clock.advance(4_000);
		const run = await scrapingRun(answer.body.data[0].scraping_run_id);
		const listings = run.results.flatMap((r) => r.content as PortalListing[]);
		expect(listings.every((l) => l.url.startsWith('https://www.portal.example/'))).toBe(true);
	});

	it('an empty urls list means the default targets', async () => {
		const created = await create(PDF, pdfBody);
		const answer = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${created.scraper.id}/run`, { urls: [] });
		expect(answer.body.data.map((r) => r.scraped_url)).toEqual(['solar inverter', 'heat pump']);
	});

	it('runs lead scrapers on given pages', async () => {
		const search = await create(SEARCH, { name: 'x', search_type: 'keywords', keywords: 'roofers', limit_pages: 1 });
		const social = await create(SOCIAL, { name: 'y', keywords: 'tea', sentiment_type: 'negative', expected_data: 3 });
		const a = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${search.scraper.id}/run`, { urls: ['https://dir.example.com/roofers'] });
		const b = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${social.scraper.id}/run`, { urls: ['https://social.example.com/tag/tea'] });
		sim.clock.advance(4_000);
		const leads = (await scrapingRun(a.body.data[0].scraping_run_id)).results[0].content as SearchLead[];
		expect(leads.every((l) => l.source_url.startsWith('https://dir.example.com/roofers?page='))).toBe(true);
		const posts = (await scrapingRun(b.body.data[0].scraping_run_id)).results[0].content as SocialLead[];
		expect(posts).toHaveLength(3);
		expect(posts.every((p) => p.sentiment === 'negative')).toBe(true);
	});

	it('an unknown scraper and another account’s scraper are both 404', async () => {
		const theirs = await create(SOCIAL, { name: 'Theirs', keywords: 'tea', sentiment_type: 'all', expected_data: 1 }, MARKETPLACE_OTHER_USER_TOKEN);
		for (const id of [999_999, theirs.scraper.id]) {
			const answer = await api<{ message: string }>('POST', `/api/scrapers/${id}/run`, {});
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual({ message: 'Resource not found', error: 'Not Found', statusCode: 404 });
		}
		expect(await results()).toEqual([]);
	});
});

describe('GET /api/results paging', () => {
	it('15 per page by default, newest first, pages partition the list', async () => {
		sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 40);
		const page1 = await results();
		expect(page1).toHaveLength(15);
		const all = await results('?per_page=100');
		expect(all).toHaveLength(40);
		const created = all.map((r) => Date.parse(r.created_at));
		expect([...created].sort((a, b) => b - a)).toEqual(created);
		expect(all.every((r) => r.status === 'succeeded' && Array.isArray(r.content))).toBe(true);

		const pages: RunListRecord[] = [];
		for (let page = 1; page <= 3; page++) pages.push(...(await results(`?page=${page}&per_page=15`)));
		expect(pages.map((r) => r.id)).toEqual(all.map((r) => r.id));
		expect(await results('?page=3&per_page=15')).toHaveLength(10);
		expect(await results('?page=4&per_page=15')).toEqual([]);
		expect(await results('?page=2&per_page=7')).toEqual(all.slice(7, 14));
	});

	it('new runs come before seeded ones; each account sees only its own', async () => {
		sim.seedRuns(MARKETPLACE_DEMO_TOKEN, 3);
		sim.seedRuns(MARKETPLACE_OTHER_USER_TOKEN, 2);
		const created = await create(SOCIAL, { name: 'Fresh', keywords: 'tea', sentiment_type: 'all', expected_data: 1 });
		const mine = await results();
		expect(mine).toHaveLength(4);
		expect(mine[0].id).toBe(created.results[0].id);
		expect(await results('', MARKETPLACE_OTHER_USER_TOKEN)).toHaveLength(2);
	});

	it('seedRuns refuses an unknown token', () => {
		expect(() => sim.seedRuns('nobody', 1)).toThrow(/unknown token/);
	});
});

describe('run reads', () => {
	it('GET /api/scraping-runs/html/{id}: text/plain JSON, content = page HTML once succeeded', async () => {
		const created = await create(PORTAL, portalLinks);
		const runId = created.results[0].scraping_run_id;
		const read = async () => {
			const response = await fetch(`${sim.url}/api/scraping-runs/html/${runId}`, { headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } });
			expect(response.status).toBe(200);
			expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
			return (JSON.parse(await response.text()) as { data: ScrapingRunRecord }).data;
		};
		let data = await read();
		expect(Object.keys(data).sort()).toEqual(['created_at', 'id', 'results', 'scraper_id', 'status']);
		expect(data).toMatchObject({ id: runId, scraper_id: created.scraper.id, status: 'queued' });
		expect(data.results.map((r) => r.content)).toEqual([null, null]);

		sim.clock.advance(4_000);
		data = await read();
		expect(data.status).toBe('succeeded');
		const json = await scrapingRun(runId);
		for (const [i, result] of data.results.entries()) {
			const html = result.content as string;
			expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
			expect(html).toContain(`<link rel="canonical" href="${portalLinks.urls[i]}">`);
			// The page shows what was extracted from it.
			for (const listing of json.results[i].content as PortalListing[]) expect(html).toContain(listing.address);
		}
	});

	it('the HTML endpoint and run reads answer 404 for unknown and other accounts’ runs', async () => {
		const theirs = await create(SOCIAL, { name: 'Theirs', keywords: 'tea', sentiment_type: 'all', expected_data: 1 }, MARKETPLACE_OTHER_USER_TOKEN);
		for (const path of [`/api/scraping-runs/html/${theirs.results[0].scraping_run_id}`, '/api/scraping-runs/html/424242', `/api/scraping-runs/${theirs.results[0].scraping_run_id}`, '/api/scraping-runs/424242']) {
			const answer = await api<{ message: string }>('GET', path);
			expect(answer.status).toBe(404);
			expect(answer.body.message).toBe('Resource not found');
		}
	});

	it('GET /api/results/latest/{scraper_id}: the records of the newest run of that scraper', async () => {
		const created = await create(PORTAL, portalLinks);
		let latest = await api<{ data: RunListRecord[] }>('GET', `/api/results/latest/${created.scraper.id}`);
		expect(latest.body.data.map((r) => r.id)).toEqual(created.results.map((r) => r.id));

		const again = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${created.scraper.id}/run`, { urls: ['https://www.portal.example/x'] });
		sim.clock.advance(4_000);
		latest = await api<{ data: RunListRecord[] }>('GET', `/api/results/latest/${created.scraper.id}`);
		expect(latest.body.data.map((r) => r.id)).toEqual(again.body.data.map((r) => r.id));
		expect(latest.body.data[0].status).toBe('succeeded');
		expect(Array.isArray(latest.body.data[0].content)).toBe(true);

		expect((await api('GET', '/api/results/latest/999999')).status).toBe(404);
		expect((await api('GET', `/api/results/latest/${created.scraper.id}`, undefined, MARKETPLACE_OTHER_USER_TOKEN)).status).toBe(404);
	});
});
