import { MARKETPLACE_DEMO_TOKEN, MarketplaceSimulator, type FieldError } from '../../simulator/marketplace';
import { served } from '../served';

const sim = served(new MarketplaceSimulator());

interface Answer {
	status: number;
	body: { message: string; error?: string; statusCode?: number; errors?: FieldError[] };
}

async function send(method: string, path: string, body?: unknown): Promise<Answer> {
	const response = await fetch(`${sim.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: (await response.json()) as Answer['body'] };
}

async function resultCount(): Promise<number> {
	const answer = (await (await fetch(`${sim.url}/api/results?per_page=100`, { headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } })).json()) as { data: unknown[] };
	return answer.data.length;
}

/** Sends the body, expects 422 naming exactly these fields, and checks nothing was created. */
async function expectInvalid(path: string, body: unknown, fields: string[]): Promise<FieldError[]> {
	const answer = await send('POST', path, body);
	expect(answer.status).toBe(422);
	expect(answer.body.message).toBe('Validation failed');
	expect(answer.body.error).toBe('Unprocessable Entity');
	expect(answer.body.statusCode).toBe(422);
	const errors = answer.body.errors ?? [];
	// Each invalid field exactly once.
	expect(errors.map((e) => e.field).sort()).toEqual([...fields].sort());
	for (const e of errors) {
		expect(typeof e.rule).toBe('string');
		expect(e.message.length).toBeGreaterThan(0);
	}
	expect(await resultCount()).toBe(0);
	return errors;
}

const PORTAL = '/api/scrapers/real-estate-portal/create-and-run';
const PDF = '/api/scrapers/pdf/create-and-run';
const SEARCH = '/api/scrapers/leads-generator/search/create-and-run';
const SOCIAL = '/api/scrapers/leads-generator/social/create-and-run';
const JOBS = '/api/job-board-scrape';

const portal = { name: 'Bondi houses', options: 'locations', locations: ['Bondi, NSW 2026'], channel: 'buy', property_types: ['house'] };
const pdf = { name: 'Datasheets', keywords: [{ keyword: 'solar inverter', prompt: 'Is this a datasheet?' }] };
const search = { name: 'Agencies', search_type: 'keywords', keywords: 'marketing agency sydney', limit_pages: 2 };
const social = { name: 'Coffee fans', keywords: 'cold brew', sentiment_type: 'positive', expected_data: 10 };
const jobs = { urls: ['https://jobs.example.com/board'], schema: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } } } } };

describe('valid bodies are accepted (the baselines the cases below break)', () => {
	it.each([
		[PORTAL, portal],
		[PORTAL, { ...portal, options: 'links', locations: undefined, urls: ['https://www.portal.example/buy/list-1'] }],
		[PORTAL, { ...portal, property_types: ['all', 'unit apartment'], landsize_minimum: 'any', landsize_maximum: '500', including_surrounding_areas: true, only_show_properties_with_a_price: false }],
		[PDF, pdf],
		[PDF, { ...pdf, unique: true, expected_pdf: 3 }],
		[SEARCH, search],
		[SEARCH, { name: 'From a page', search_type: 'url', url: 'https://search.example.com/?q=plumbers', limit_pages: 1 }],
		[SOCIAL, social],
	])('POST %s', async (path, body) => {
		const answer = await send('POST', path, body);
		expect(answer.status).toBe(200);
		expect(answer.body.message).toBe('Scraping queued successfully');
	});

	it('POST /api/job-board-scrape', async () => {
		expect((await send('POST', JOBS, jobs)).status).toBe(200);
	});
});

describe('real-estate portal create-and-run validation', () => {
	it.each<[string, Record<string, unknown>, string[]]>([
		['empty body names every required field', {}, ['name', 'options', 'channel', 'property_types']],
		['name missing', { ...portal, name: undefined }, ['name']],
		['name blank', { ...portal, name: '   ' }, ['name']],
		['name not a string', { ...portal, name: 42 }, ['name']],
		['options unknown', { ...portal, options: 'suburbs' }, ['options']],
		['locations required for options=locations', { ...portal, locations: undefined }, ['locations']],
		['locations empty', { ...portal, locations: [] }, ['locations']],
		['locations not an array', { ...portal, locations: 'Bondi' }, ['locations']],
		['a location not a string', { ...portal, locations: ['Bondi', 7] }, ['locations[1]']],
		['urls required for options=links', { ...portal, options: 'links', locations: undefined }, ['urls']],
		['urls empty for options=links', { ...portal, options: 'links', urls: [] }, ['urls']],
		['a url not http(s)', { ...portal, options: 'links', urls: ['https://ok.example/a', 'ftp://files.example/b'] }, ['urls[1]']],
		['a url not a URL at all', { ...portal, options: 'links', urls: ['not a url'] }, ['urls[0]']],
		['channel missing', { ...portal, channel: undefined }, ['channel']],
		['channel unknown', { ...portal, channel: 'lease' }, ['channel']],
		['property_types missing', { ...portal, property_types: undefined }, ['property_types']],
		['property_types empty', { ...portal, property_types: [] }, ['property_types']],
		['property_types not an array', { ...portal, property_types: 'house' }, ['property_types']],
		['a property type not listed', { ...portal, property_types: ['house', 'castle'] }, ['property_types[1]']],
		['including_surrounding_areas not boolean', { ...portal, including_surrounding_areas: 'yes' }, ['including_surrounding_areas']],
		['only_show_properties_with_a_price not boolean', { ...portal, only_show_properties_with_a_price: 1 }, ['only_show_properties_with_a_price']],
		['landsize_minimum not listed', { ...portal, landsize_minimum: '250' }, ['landsize_minimum']],
		['landsize_maximum not listed', { ...portal, landsize_maximum: 'huge' }, ['landsize_maximum']],
		['land size sent as a number', { ...portal, landsize_maximum: 500 }, ['landsize_maximum']],
		['minimum equal to maximum', { ...portal, landsize_minimum: '500', landsize_maximum: '500' }, ['landsize_minimum', 'landsize_maximum']],
		['minimum larger than maximum', { ...portal, landsize_minimum: '1000', landsize_maximum: '900' }, ['landsize_minimum', 'landsize_maximum']],
		['several fields at once', { ...portal, channel: 'x', property_types: ['moon'], landsize_minimum: '1' }, ['channel', 'property_types[0]', 'landsize_minimum']],
	])('%s', async (_label, body, fields) => {
		await expectInvalid(PORTAL, body, fields);
	});

	it('`any` is unbounded on either side', async () => {
		expect((await send('POST', PORTAL, { ...portal, landsize_minimum: '800', landsize_maximum: 'any' })).status).toBe(200);
		expect((await send('POST', PORTAL, { ...portal, landsize_minimum: 'any', landsize_maximum: 'any' })).status).toBe(200);
	});
});

describe('PDF create-and-run validation', () => {
	it.each<[string, Record<string, unknown>, string[]]>([
		['empty body', {}, ['name', 'keywords']],
		['keywords not an array', { ...pdf, keywords: 'solar' }, ['keywords']],
		['keywords empty', { ...pdf, keywords: [] }, ['keywords']],
		['a keyword entry not an object', { ...pdf, keywords: ['solar'] }, ['keywords[0]']],
		['keyword missing', { ...pdf, keywords: [{ prompt: 'Is it?' }] }, ['keywords[0].keyword']],
		['prompt missing', { ...pdf, keywords: [{ keyword: 'solar' }] }, ['keywords[0].prompt']],
		['keyword blank and prompt not a string', { ...pdf, keywords: [pdf.keywords[0], { keyword: ' ', prompt: 3 }] }, ['keywords[1].keyword', 'keywords[1].prompt']],
		['unique not boolean', { ...pdf, unique: 'true' }, ['unique']],
		['expected_pdf zero', { ...pdf, expected_pdf: 0 }, ['expected_pdf']],
		['expected_pdf negative', { ...pdf, expected_pdf: -2 }, ['expected_pdf']],
		['expected_pdf not a number', { ...pdf, expected_pdf: '10' }, ['expected_pdf']],
	])('%s', async (_label, body, fields) => {
		await expectInvalid(PDF, body, fields);
	});
});

describe('search-engine leads create-and-run validation', () => {
	it.each<[string, Record<string, unknown>, string[]]>([
		['empty body', {}, ['name', 'search_type', 'limit_pages']],
		['search_type unknown', { ...search, search_type: 'maps' }, ['search_type']],
		['keywords required for search_type=keywords', { ...search, keywords: undefined }, ['keywords']],
		['keywords blank', { ...search, keywords: '' }, ['keywords']],
		['url required for search_type=url', { name: 'x', search_type: 'url', limit_pages: 1 }, ['url']],
		['url not http(s)', { name: 'x', search_type: 'url', url: 'mailto:a@b.c', limit_pages: 1 }, ['url']],
		['limit_pages missing', { ...search, limit_pages: undefined }, ['limit_pages']],
		['limit_pages zero', { ...search, limit_pages: 0 }, ['limit_pages']],
		['limit_pages fractional', { ...search, limit_pages: 1.5 }, ['limit_pages']],
		['limit_pages a string', { ...search, limit_pages: '2' }, ['limit_pages']],
	])('%s', async (_label, body, fields) => {
		await expectInvalid(SEARCH, body, fields);
	});
});

describe('social leads create-and-run validation', () => {
	it.each<[string, Record<string, unknown>, string[]]>([
		['empty body names all four fields', {}, ['name', 'keywords', 'sentiment_type', 'expected_data']],
		['sentiment_type unknown', { ...social, sentiment_type: 'angry' }, ['sentiment_type']],
		['expected_data zero', { ...social, expected_data: 0 }, ['expected_data']],
		['expected_data fractional', { ...social, expected_data: 2.5 }, ['expected_data']],
		['keywords not a string', { ...social, keywords: ['a'] }, ['keywords']],
	])('%s', async (_label, body, fields) => {
		await expectInvalid(SOCIAL, body, fields);
	});
});

describe('job-board validation', () => {
	const item = { type: 'object', properties: { title: { type: 'string' } } };
	it.each<[string, Record<string, unknown>, string[]]>([
		['empty body', {}, ['urls', 'schema']],
		['urls empty', { ...jobs, urls: [] }, ['urls']],
		['a url not http(s)', { ...jobs, urls: ['https://a.example', 'javascript:alert(1)'] }, ['urls[1]']],
		['schema not an object', { ...jobs, schema: '{"type":"array"}' }, ['schema']],
		['schema without a type', { ...jobs, schema: { items: item } }, ['schema.type']],
		['schema top-level type string', { ...jobs, schema: { type: 'string' } }, ['schema.type']],
		['schema type unknown', { ...jobs, schema: { type: 'list', items: item } }, ['schema.type']],
		['object without properties', { ...jobs, schema: { type: 'object' } }, ['schema.properties']],
		['array without items', { ...jobs, schema: { type: 'array' } }, ['schema.items']],
		['nested object without properties', { ...jobs, schema: { type: 'array', items: { type: 'object', properties: { company: { type: 'object' } } } } }, ['schema.items.properties.company.properties']],
		['nested array without items', { ...jobs, schema: { type: 'object', properties: { jobs: { type: 'array' } } } }, ['schema.properties.jobs.items']],
		['nested unknown type', { ...jobs, schema: { type: 'array', items: { type: 'object', properties: { pay: { type: 'money' } } } } }, ['schema.items.properties.pay.type']],
		['empty enum', { ...jobs, schema: { type: 'array', items: { type: 'string', enum: [] } } }, ['schema.items.enum']],
		['min zero', { ...jobs, min: 0 }, ['min']],
		['max zero', { ...jobs, max: 0 }, ['max']],
		['min not an integer', { ...jobs, min: 2.5 }, ['min']],
		['max a string', { ...jobs, max: '20' }, ['max']],
		['min greater than max', { ...jobs, min: 30, max: 5 }, ['min', 'max']],
		['timeout below 60', { ...jobs, timeout: 59 }, ['timeout']],
		['timeout above 600', { ...jobs, timeout: 601 }, ['timeout']],
		['timeout fractional', { ...jobs, timeout: 90.5 }, ['timeout']],
	])('%s', async (_label, body, fields) => {
		await expectInvalid(JOBS, body, fields);
	});

	it('a default yields to a sent value: max 5 alone or min 25 alone is fine', async () => {
		expect((await send('POST', JOBS, { ...jobs, max: 5 })).status).toBe(200);
		expect((await send('POST', JOBS, { ...jobs, min: 25 })).status).toBe(200);
	});

	it('accepts the bounds: timeout 60 and 600, min = max = 1', async () => {
		expect((await send('POST', JOBS, { ...jobs, timeout: 60, min: 1, max: 1 })).status).toBe(200);
		expect((await send('POST', JOBS, { ...jobs, timeout: 600 })).status).toBe(200);
	});
});

describe('run, results and path-id validation', () => {
	it('run: a non-integer scraper_id and a bad urls list are named', async () => {
		const answer = await send('POST', '/api/scrapers/abc/run', { urls: ['nope'] });
		expect(answer.status).toBe(422);
		expect(answer.body.errors?.map((e) => e.field).sort()).toEqual(['scraper_id', 'urls[0]']);
	});

	it('run: urls must be an array', async () => {
		const answer = await send('POST', '/api/scrapers/101/run', { urls: 'https://a.example' });
		expect(answer.status).toBe(422);
		expect(answer.body.errors?.map((e) => e.field)).toEqual(['urls']);
	});

	it.each([
		['page=0', ['page']],
		['page=-1', ['page']],
		['page=two', ['page']],
		['per_page=0', ['per_page']],
		['per_page=1.5', ['per_page']],
		['per_page=101', ['per_page']],
		['page=0&per_page=500', ['page', 'per_page']],
	])('results: %s is refused', async (query, fields) => {
		const answer = await send('GET', `/api/results?${query}`);
		expect(answer.status).toBe(422);
		expect(answer.body.errors?.map((e) => e.field)).toEqual(fields);
	});

	it.each([
		['/api/scraping-runs/html/x1', 'scraping_run_id'],
		['/api/scraping-runs/0', 'id'],
		['/api/results/latest/1e3', 'scraper_id'],
	])('GET %s names %s', async (path, field) => {
		const answer = await send('GET', path);
		expect(answer.status).toBe(422);
		expect(answer.body.errors?.map((e) => e.field)).toEqual([field]);
	});
});
