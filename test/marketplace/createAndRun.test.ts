import { sleep } from 'n8n-workflow';
import type { IDataObject } from 'n8n-workflow';

import { BEARER, NO_WAIT, ROUTES, WAIT, jsonOf, runOk, useMarketplace, waitWith } from './helpers';

const ctx = useMarketplace();

const portal = { resource: 'realEstatePortal', operation: 'createAndRun', name: 'Bondi houses' };
const pdf = { resource: 'pdf', operation: 'createAndRun', name: 'Solar guides' };
const search = { resource: 'lead', operation: 'createAndRunSearch', name: 'Agencies' };
const social = { resource: 'lead', operation: 'createAndRunSocial', name: 'CRM talk', keywords: 'crm software' };

function keywordsParam(...pairs: Array<[string, string]>): IDataObject {
	return { keyword: pairs.map(([keyword, prompt]) => ({ keyword, prompt })) };
}

describe('Real Estate Portal: Create and Run', () => {
	it('by locations: sends only what is set (no optional fields) and, Simplify off, outputs the service answer without waiting', async () => {
		const [out] = await runOk(ctx, { ...portal, locations: 'Bondi, NSW 2026\nRichmond, VIC 3121', ...NO_WAIT, simplify: false });
		const requests = ctx.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].route).toBe(ROUTES.portalCreateAndRun);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].headers.authorization).toBe(BEARER);
		// Place names keep their commas: only new lines separate them.
		expect(requests[0].body).toEqual({
			name: 'Bondi houses',
			options: 'locations',
			locations: ['Bondi, NSW 2026', 'Richmond, VIC 3121'],
			channel: 'buy',
			property_types: ['all'],
		});
		expect(out.message).toBe('Scraping queued successfully');
		const scraper = out.scraper as IDataObject;
		expect(scraper.name).toBe('Bondi houses');
		const results = out.results as IDataObject[];
		expect(results).toHaveLength(1);
		expect(results[0]).toMatchObject({ scraped_url: 'Default', status: 'queued', scraper_id: scraper.id });
		expect((results[0].scraper as IDataObject).type).toBe('real_estate_portal');
	});

	it('by links with every field set: all are sent, and Wait for Completion outputs the listings', async () => {
		const urls = ['https://www.portal.example/buy/bondi', 'https://www.portal.example/buy/manly'];
		const [out] = await runOk(ctx, {
			...portal,
			searchBy: 'links',
			urls: urls.join('\n'),
			channel: 'rent',
			propertyTypes: ['house', 'unit apartment'],
			additionalFields: {
				includingSurroundingAreas: true,
				onlyShowPropertiesWithAPrice: false,
				landsizeMinimum: '300',
				landsizeMaximum: '1000',
			},
			...WAIT,
		});
		const [create, ...polls] = ctx.requests();
		expect(create.body).toEqual({
			name: 'Bondi houses',
			options: 'links',
			urls,
			channel: 'rent',
			property_types: ['house', 'unit apartment'],
			including_surrounding_areas: true,
			only_show_properties_with_a_price: false,
			landsize_minimum: '300',
			landsize_maximum: '1000',
		});
		expect(polls.length).toBeGreaterThanOrEqual(1);
		for (const poll of polls) {
			expect(poll.route).toBe(ROUTES.scrapingRun);
			expect(poll.path).toBe(`/api/scraping-runs/${out.scraping_run_id as number}`);
			expect(poll.headers.authorization).toBe(BEARER);
		}
		expect(out).toMatchObject({ status: 'succeeded', completed: true, results_total: 2, results_succeeded: 2, results_failed: 0 });
		const results = out.results as IDataObject[];
		expect(results.map((r) => r.scraped_url)).toEqual(urls);
		for (const result of results) {
			const listings = result.content as IDataObject[];
			expect(listings.length).toBeGreaterThan(0);
			for (const listing of listings) {
				expect(listing.channel).toBe('rent');
				expect(['house', 'unit apartment']).toContain(listing.property_type);
				expect(listing.land_size === null || ((listing.land_size as number) >= 300 && (listing.land_size as number) < 1000)).toBe(true);
			}
		}
	});

	it('One Item per Record outputs one listing per item with the scraper, run and result IDs', async () => {
		const result = await ctx.run({ ...portal, locations: 'Fitzroy', channel: 'sold', ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		const items = jsonOf(result.items);
		expect(items.length).toBeGreaterThanOrEqual(4);
		const runId = items[0].scraping_run_id;
		for (const item of items) {
			expect(item).toMatchObject({ scraping_run_id: runId, scraped_url: 'Default', channel: 'sold' });
			expect(typeof item.scraper_id).toBe('number');
			expect(typeof item.result_id).toBe('number');
			expect(typeof item.listing_id).toBe('string');
			expect(typeof item.address).toBe('string');
		}
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('land size Any is not a bound: Any as minimum with a maximum is accepted', async () => {
		await runOk(ctx, { ...portal, locations: 'Glebe', additionalFields: { landsizeMinimum: 'any', landsizeMaximum: '500' }, ...NO_WAIT });
		expect(ctx.requests()[0].body).toMatchObject({ landsize_minimum: 'any', landsize_maximum: '500' });
	});
});

describe('PDF: Create and Run', () => {
	it('sends the keywords with their prompts, unique and expected PDFs, and splits the PDFs into items', async () => {
		const result = await ctx.run({
			...pdf,
			keywords: keywordsParam(['solar panel guide', 'Is it an installation guide?'], ['inverter manual', 'Is it a manual?']),
			additionalFields: { unique: true, expectedPdf: 7 },
			...WAIT,
			runOutput: 'records',
		});
		expect(result.error).toBeUndefined();
		const [create] = ctx.requests();
		expect(create.route).toBe(ROUTES.pdfCreateAndRun);
		expect(create.headers.authorization).toBe(BEARER);
		expect(create.body).toEqual({
			name: 'Solar guides',
			keywords: [
				{ keyword: 'solar panel guide', prompt: 'Is it an installation guide?' },
				{ keyword: 'inverter manual', prompt: 'Is it a manual?' },
			],
			unique: true,
			expected_pdf: 7,
		});
		const pdfs = jsonOf(result.items);
		expect(pdfs).toHaveLength(7);
		for (const file of pdfs) {
			expect(file.url).toMatch(/\.pdf$/);
			expect(['solar panel guide', 'inverter manual']).toContain(file.keyword);
			expect(file.scraped_url).toBe(file.keyword);
		}
	});

	it('sends neither unique nor expected_pdf when they are not added, and outputs the create answer', async () => {
		const [out] = await runOk(ctx, { ...pdf, keywords: keywordsParam(['budget 2025', 'Is it a budget paper?']), ...NO_WAIT, simplify: false });
		expect(ctx.requests()[0].body).toEqual({ name: 'Solar guides', keywords: [{ keyword: 'budget 2025', prompt: 'Is it a budget paper?' }] });
		const results = out.results as IDataObject[];
		expect(results[0]).toMatchObject({ scraped_url: 'budget 2025', status: 'queued' });
		const configuration = results[0].scraper as IDataObject;
		expect(configuration).toMatchObject({ type: 'pdf', version: 2, proxy_type: 'rotation', cron_timezone: 'UTC' });
	});

	it('sends unique false when it is added and switched off', async () => {
		await runOk(ctx, { ...pdf, keywords: keywordsParam(['a', 'b?']), additionalFields: { unique: false }, ...NO_WAIT });
		expect(ctx.requests()[0].body).toEqual({ name: 'Solar guides', keywords: [{ keyword: 'a', prompt: 'b?' }], unique: false });
	});
});

describe('Lead: Create and Run Search Engine Scraper', () => {
	it('by keywords: sends keywords (no url) and One Item per Record gives one lead per item', async () => {
		const result = await ctx.run({ ...search, keywords: 'marketing agency sydney', limitPages: 2, ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		const [create] = ctx.requests();
		expect(create.route).toBe(ROUTES.searchLeadsCreateAndRun);
		expect(create.body).toEqual({ name: 'Agencies', search_type: 'keywords', limit_pages: 2, keywords: 'marketing agency sydney' });
		const leads = jsonOf(result.items);
		expect(leads.length).toBeGreaterThanOrEqual(2 * 3);
		for (const lead of leads) {
			expect(lead.email).toMatch(/@/);
			expect([1, 2]).toContain(lead.page);
			expect(typeof lead.scraping_run_id).toBe('number');
		}
	});

	it('by URL: sends url (no keywords)', async () => {
		const url = 'https://search.example.com/search?q=plumbers';
		const [out] = await runOk(ctx, { ...search, searchType: 'url', url, limitPages: 1, ...WAIT });
		expect(ctx.requests()[0].body).toEqual({ name: 'Agencies', search_type: 'url', limit_pages: 1, url });
		expect(out).toMatchObject({ status: 'succeeded', completed: true });
		expect((out.results as IDataObject[])[0].scraped_url).toBe(url);
	});
});

describe('Lead: Create and Run Social Scraper', () => {
	it('sends all four fields and returns leads of the chosen sentiment', async () => {
		const result = await ctx.run({ ...social, sentimentType: 'negative', expectedData: 6, ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		const [create] = ctx.requests();
		expect(create.route).toBe(ROUTES.socialLeadsCreateAndRun);
		expect(create.headers.authorization).toBe(BEARER);
		expect(create.body).toEqual({ name: 'CRM talk', keywords: 'crm software', sentiment_type: 'negative', expected_data: 6 });
		const leads = jsonOf(result.items);
		expect(leads).toHaveLength(6);
		expect(leads.every((lead) => lead.sentiment === 'negative' && lead.keyword === 'crm software')).toBe(true);
	});
});

describe('Simplify without waiting (version 3)', () => {
	const STARTED_RUN_KEYS = ['completed', 'created_at', 'message', 'results_total', 'scraper_id', 'scraper_name', 'scraping_run_id', 'status'];

	it('on by default: one flat item per started run, its ids and status instead of the scraper configuration', async () => {
		const out = await runOk(ctx, { ...portal, locations: 'Bondi, NSW 2026', ...NO_WAIT });
		expect(out).toHaveLength(1);
		expect(Object.keys(out[0]).sort()).toEqual(STARTED_RUN_KEYS);
		expect(out[0]).toEqual({
			scraping_run_id: expect.any(Number),
			scraper_id: expect.any(Number),
			scraper_name: 'Bondi houses',
			status: 'queued',
			completed: false,
			results_total: 1,
			created_at: expect.any(String),
			message: 'Scraping queued successfully',
		});
		// The ids are the started run's: reading it by id finds the new scraper's run.
		const read = await runOk(ctx, { resource: 'scrapingRun', operation: 'get', scrapingRunId: out[0].scraping_run_id });
		expect(read[0]).toMatchObject({ id: out[0].scraping_run_id, scraper_id: out[0].scraper_id });
		for (const value of Object.values(out[0])) expect(typeof value === 'object' && value !== null).toBe(false);
	});

	it('a PDF scraper with two keywords: one item per run, each counting its results', async () => {
		const out = await runOk(ctx, { ...pdf, keywords: keywordsParam(['budget 2025', 'Is it a budget paper?'], ['annual report', 'Is it an annual report?']), ...NO_WAIT });
		const runs = new Set(out.map((item) => item.scraping_run_id));
		expect(runs.size).toBe(out.length);
		expect(out.reduce((sum, item) => sum + Number(item.results_total), 0)).toBe(2);
	});

	it('version 2 keeps the service answer as it was', async () => {
		const result = await ctx.run({ ...portal, locations: 'Bondi, NSW 2026', ...NO_WAIT }, { typeVersion: 2 });
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.items[0].json).sort()).toEqual(['message', 'results', 'scraper']);
	});

	it('a Simplify that is not a boolean is refused before anything is sent', async () => {
		const result = await ctx.run({ ...portal, locations: 'Bondi', ...NO_WAIT, simplify: '={{ "yes" }}' });
		expect(result.error?.message).toMatch(/^Invalid 'Simplify'/);
		expect(ctx.requests()).toHaveLength(0);
	});
});

describe('Wait for Completion', () => {
	it('to failed: the run item says failed; One Item per Record gives a status item for the failed result', async () => {
		const [run] = await runOk(ctx, { ...social, name: 'sim-fail leads', expectedData: 3, ...WAIT });
		expect(run).toMatchObject({ status: 'failed', completed: true, results_total: 1, results_succeeded: 0, results_failed: 1 });
		expect((run.results as IDataObject[])[0]).toMatchObject({ status: 'failed', content: null });

		const records = await runOk(ctx, { ...social, name: 'sim-fail leads', expectedData: 3, ...WAIT, runOutput: 'records' });
		expect(records).toHaveLength(1);
		expect(records[0]).toMatchObject({ status: 'failed', scraped_url: 'Default' });
		expect(records[0].message).toMatch(/could not scrape this query/);
	});

	it('a run with one failed and one succeeded result: failed overall, the good records still output', async () => {
		const urls = ['https://www.portal.example/buy/a', 'https://www.portal.example/buy/sim-fail'];
		const result = await ctx.run({ ...portal, searchBy: 'links', urls: urls.join('\n'), ...WAIT, runOutput: 'records' });
		const items = jsonOf(result.items);
		const failed = items.filter((item) => item.status === 'failed');
		expect(failed).toHaveLength(1);
		expect(failed[0].scraped_url).toBe(urls[1]);
		const listings = items.filter((item) => item.listing_id !== undefined);
		expect(listings.length).toBeGreaterThan(0);
		expect(listings.every((item) => item.scraped_url === urls[0])).toBe(true);
	});

	it('on time-out outputs the latest state with a clear status and does not hang', async () => {
		ctx.sim.options.runMs = 3_600_000;
		try {
			const started = Date.now();
			const [out] = await runOk(ctx, { ...social, expectedData: 3, ...waitWith({ maxWaitSeconds: 1 }) });
			expect(Date.now() - started).toBeLessThan(5_000);
			expect(out).toMatchObject({ status: 'running', completed: false, waitTimedOut: true });
			expect(out.waitMessage).toMatch(/^The run is still running after 1 s: 0 of 1 results done/);
			expect((out.results as IDataObject[])[0]).toMatchObject({ status: 'running', content: null });
			expect(ctx.requests(ROUTES.scrapingRun)).toHaveLength(1);

			const records = await runOk(ctx, { ...social, expectedData: 3, ...waitWith({ maxWaitSeconds: 1 }), runOutput: 'records' });
			expect(records).toHaveLength(1);
			expect(records[0]).toMatchObject({ status: 'running' });
			expect(records[0].message).toMatch(/^Still running after 1 s/);
		} finally {
			ctx.sim.options.runMs = 150;
		}
	});

	it('finishes when the simulated clock moves on, without real waiting for the run', async () => {
		ctx.sim.options.runMs = 3_600_000;
		try {
			const pending = ctx.run({ ...social, expectedData: 2, ...waitWith({ maxWaitSeconds: 10 }) });
			// Once the run exists, an hour of simulated time passes before the node's first read (1 s later).
			while (ctx.requests(ROUTES.socialLeadsCreateAndRun)[0]?.status === undefined) await sleep(10);
			ctx.sim.clock.advance(3_600_000);
			const result = await pending;
			expect(jsonOf(result.items)[0]).toMatchObject({ status: 'succeeded', completed: true });
			expect(ctx.requests(ROUTES.scrapingRun)).toHaveLength(1);
		} finally {
			ctx.sim.options.runMs = 150;
		}
	});

	it('several input items wait together and keep their order and pairing', async () => {
		const input = [{ kw: 'alpha' }, { kw: 'beta' }, { kw: 'gamma' }];
		const result = await ctx.run({ ...social, keywords: '={{ $json.kw }}', expectedData: 2, ...WAIT }, { input });
		expect(result.error).toBeUndefined();
		// All three runs were started before the first poll: the items waited together, not one after another.
		expect(ctx.requests().slice(0, 3).map((r) => r.route)).toEqual(Array(3).fill(ROUTES.socialLeadsCreateAndRun));
		expect(result.items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		expect(jsonOf(result.items).map((j) => ((j.results as IDataObject[])[0].content as IDataObject[])[0].keyword)).toEqual(['alpha', 'beta', 'gamma']);
		expect(ctx.requests(ROUTES.socialLeadsCreateAndRun)).toHaveLength(3);
	});

	it('without waiting sends no read at all', async () => {
		await runOk(ctx, { ...social, expectedData: 2, ...NO_WAIT });
		expect(ctx.requests()).toHaveLength(1);
	});

	it('create and run is never repeated after a server error or a dropped connection', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 500, routes: [ROUTES.socialLeadsCreateAndRun], times: 1 });
		const failed = await ctx.run({ ...social, expectedData: 2, ...NO_WAIT });
		expect(failed.error?.message).toBe('Scraper Marketplace answered 500 (An unexpected error occurred): the scraper "CRM talk" and its first run may have been created [item 0]');
		expect(failed.error?.description).toMatch(/Look for it with Scraper > Get Many \(newest first\), then Scraping Run > Get Latest before running the node again/);
		expect(ctx.requests()).toHaveLength(1);

		ctx.sim.server.log.clear();
		ctx.sim.server.faults.add({ kind: 'reset', routes: [ROUTES.socialLeadsCreateAndRun], times: 1 });
		const reset = await ctx.run({ ...social, expectedData: 2, ...NO_WAIT });
		expect(reset.error?.message).toMatch(/^The connection to Scraper Marketplace ended before its answer \(.*\): the scraper "CRM talk" and its first run may have been created \[item 0\]$/);
		expect(reset.error?.description).toMatch(/^The node did not send the request again, so nothing runs twice/);
		expect(ctx.requests()).toHaveLength(1);
	});

	it('a poll that fails once is retried (reads are safe to repeat)', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 503, routes: [ROUTES.scrapingRun], times: 1 });
		const [out] = await runOk(ctx, { ...social, expectedData: 2, ...WAIT });
		expect(out).toMatchObject({ status: 'succeeded', completed: true });
		expect(ctx.requests(ROUTES.scrapingRun).length).toBeGreaterThanOrEqual(2);
	});
});

describe('create-and-run validation (nothing is sent)', () => {
	const keywords = keywordsParam(['k', 'p?']);
	const cases: Array<[string, IDataObject, string]> = [
		['portal name', { ...portal, name: '={{ "" }}', locations: 'Bondi' }, "Invalid 'Name': it is required"],
		['portal locations', { ...portal, locations: '={{ "  \\n " }}' }, "Invalid 'Locations': at least one place name is required"],
		['portal listing URLs', { ...portal, searchBy: 'links', urls: '={{ "" }}' }, "Invalid 'Listing URLs': at least one URL is required"],
		['portal listing URL syntax', { ...portal, searchBy: 'links', urls: 'www.portal.example/buy' }, 'Invalid \'Listing URLs\': "www.portal.example/buy" is not a valid URL'],
		['portal search by', { ...portal, searchBy: '={{ "suburbs" }}', locations: 'Bondi', urls: 'https://www.portal.example/buy' }, 'Invalid \'Search By\': "suburbs" is not one of locations, links'],
		['portal channel', { ...portal, locations: 'Bondi', channel: '={{ "lease" }}' }, 'Invalid \'Channel\': "lease" is not one of buy, rent, sold'],
		['portal property types empty', { ...portal, locations: 'Bondi', propertyTypes: '={{ [] }}' }, "Invalid 'Property Types': choose at least one property type"],
		['portal property type value', { ...portal, locations: 'Bondi', propertyTypes: '={{ ["house", "castle"] }}' }, 'Invalid \'Property Types\': "castle" is not one of'],
		['land size min above max', { ...portal, locations: 'Bondi', additionalFields: { landsizeMinimum: '1000', landsizeMaximum: '500' } }, "Invalid 'Land Size Minimum': 1000 m² must be smaller than 'Land Size Maximum' (500 m²)"],
		['land size min equal max', { ...portal, locations: 'Bondi', additionalFields: { landsizeMinimum: '600', landsizeMaximum: '600' } }, "Invalid 'Land Size Minimum': 600 m² must be smaller"],
		['land size value', { ...portal, locations: 'Bondi', additionalFields: { landsizeMaximum: '={{ "250" }}' } }, 'Invalid \'Land Size Maximum\': "250" is not one of any, 200'],
		['pdf name', { ...pdf, name: ' ', keywords }, "Invalid 'Name': it is required"],
		['pdf no keyword', { ...pdf, keywords: {} }, "Invalid 'Keywords': add at least one keyword with its prompt"],
		['pdf keyword empty', { ...pdf, keywords: keywordsParam(['ok', 'fine?'], [' ', 'p?']) }, 'Invalid \'Keyword (keyword 2)\': it is required'],
		['pdf prompt empty', { ...pdf, keywords: keywordsParam(['solar', '={{ "" }}']) }, "Invalid 'Prompt': it is required"],
		['pdf expected 0', { ...pdf, keywords, additionalFields: { expectedPdf: 0 } }, "Invalid 'Expected PDFs': 0 is out of range of at least 1"],
		['pdf expected fraction', { ...pdf, keywords, additionalFields: { expectedPdf: 2.5 } }, "Invalid 'Expected PDFs': it must be a whole number"],
		['search keywords', { ...search, keywords: '={{ "" }}' }, "Invalid 'Keywords': it is required"],
		['search url', { ...search, searchType: 'url', url: 'search.example.com' }, 'Invalid \'URL\': "search.example.com" is not a valid URL'],
		['search url scheme', { ...search, searchType: 'url', url: 'mailto:a@example.com' }, "Invalid 'URL': only http and https URLs are allowed"],
		['search pages 0', { ...search, keywords: 'x', limitPages: 0 }, "Invalid 'Max Result Pages': 0 is out of range of at least 1"],
		['search pages fraction', { ...search, keywords: 'x', limitPages: 1.5 }, "Invalid 'Max Result Pages': it must be a whole number"],
		['search type', { ...search, keywords: 'x', url: 'https://search.example.com/', searchType: '={{ "images" }}' }, 'Invalid \'Search By\': "images" is not one of url, keywords'],
		['social name', { ...social, name: '={{ "" }}' }, "Invalid 'Name': it is required"],
		['social keywords', { ...social, keywords: '   ' }, "Invalid 'Keywords': it is required"],
		['social sentiment', { ...social, sentimentType: '={{ "angry" }}' }, 'Invalid \'Sentiment\': "angry" is not one of all, positive, neutral, negative'],
		['social expected 0', { ...social, expectedData: 0 }, "Invalid 'Expected Leads': 0 is out of range of at least 1"],
		['social expected fraction', { ...social, expectedData: 2.5 }, "Invalid 'Expected Leads': it must be a whole number"],
		['max wait', { ...social, ...waitWith({ maxWaitSeconds: 0 }) }, "Invalid 'Max Wait (Seconds)': 0 is out of range from 1 to 86400"],
		['poll interval', { ...social, ...waitWith({ pollIntervalSeconds: 0.5 }) }, "Invalid 'Poll Interval (Seconds)': it must be a whole number"],
	];
	it.each(cases)('%s', async (_name, parameters, message) => {
		const result = await ctx.run(parameters);
		expect(result.error?.message).toContain(message);
		expect(result.error?.message.startsWith("Invalid '")).toBe(true);
		expect(result.error?.description).toBeTruthy();
		expect(ctx.requests()).toHaveLength(0);
	});
});
