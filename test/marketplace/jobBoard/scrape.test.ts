import { allText } from '../../harness';
import { EXAMPLE_SCHEMA, jobBoardDeadlineMs } from '../../../nodes/ScraperMarketplace/actions/jobBoard/scrape';
import { FEW_JOBS_AVAILABLE, MARKETPLACE_DEMO_TOKEN, availableJobs } from '../../simulator/marketplace';
import { BEARER, ROUTES, jsonOf, runOk, useMarketplace } from '../helpers';

const ctx = useMarketplace();
const A = 'https://jobs.example.com/search?q=engineer';
const B = 'https://careers.example.org/openings';
const scrape = { resource: 'jobBoard', operation: 'scrape' };

describe('Job Board: Scrape', () => {
	it('sends the URLs and the example schema, leaving min, max and timeout to the service (10/20/180), and outputs the result', async () => {
		const [out] = await runOk(ctx, { ...scrape, urls: `${A}\n${B}` });
		const [request] = ctx.requests();
		expect(request.route).toBe(ROUTES.jobBoardScrape);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/api/job-board-scrape');
		expect(request.headers.authorization).toBe(BEARER);
		expect(request.body).toEqual({ urls: [A, B], schema: EXAMPLE_SCHEMA });
		expect(ctx.requests()).toHaveLength(1);

		const jobs = (out.result as { jobs: Array<Record<string, unknown>> }).jobs;
		expect(jobs).toHaveLength(Math.min(availableJobs(A), 20) + Math.min(availableJobs(B), 20));
		expect(Object.keys(jobs[0]).sort()).toEqual(Object.keys(EXAMPLE_SCHEMA.properties.jobs.items.properties).sort());
		expect(jobs[0].url).toMatch(/^https:\/\/jobs\.example\.com\/jobs\//);
		expect(out.totalDone).toBe(2);
		expect(out.tokenUsage).toBeGreaterThan(0);
		expect(out.incomplete).toBeUndefined();
	});

	it('caps each URL at Max Items per URL and sends min, max and timeout as set', async () => {
		const [out] = await runOk(ctx, { ...scrape, urls: `${A}, ${B}`, options: { min: 2, max: 5, timeout: 60 } });
		expect(ctx.requests()[0].body).toMatchObject({ urls: [A, B], min: 2, max: 5, timeout: 60 });
		expect((out.result as { jobs: unknown[] }).jobs).toHaveLength(10);
	});

	it('returns fewer than Min Items per URL when the page has fewer jobs', async () => {
		const few = 'https://jobs.example.com/few-jobs';
		const [out] = await runOk(ctx, { ...scrape, urls: few, options: { min: 10 } });
		expect((out.result as { jobs: unknown[] }).jobs).toHaveLength(FEW_JOBS_AVAILABLE);
		expect(out.totalDone).toBe(1);
	});

	it('on timeout returns what was collected and says the result is incomplete', async () => {
		const slow = 'https://jobs.example.com/slow-jobs';
		const [out] = await runOk(ctx, { ...scrape, urls: `${A}\n${slow}`, options: { timeout: 60 } });
		expect(ctx.requests()[0].body).toMatchObject({ timeout: 60 });
		expect(out.totalDone).toBe(1);
		expect(out.incomplete).toBe(true);
		expect(out.note).toMatch(/^1 of 2 URLs were scraped completely/);
		// The first URL completely, the slow one only in part.
		const jobs = (out.result as { jobs: unknown[] }).jobs;
		expect(jobs.length).toBeGreaterThanOrEqual(Math.min(availableJobs(A), 20));
		expect(jobs.length).toBeLessThan(Math.min(availableJobs(A), 20) + Math.min(availableJobs(slow), 20));
	});

	it('Split Into Items outputs one item per job', async () => {
		const result = await ctx.run({ ...scrape, urls: A, options: { min: 1, max: 7, split: true } });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(7);
		expect(result.items.every((item) => typeof item.json.title === 'string' && item.pairedItem !== undefined)).toBe(true);
		expect(jsonOf(result.items)[0]).not.toHaveProperty('tokenUsage');
	});

	it('a top-level array schema gives a list of records, split into items', async () => {
		const schema = { type: 'array', items: { type: 'object', properties: { title: { type: 'string' }, company: { type: 'string' } } } };
		const result = await ctx.run({ ...scrape, urls: A, schema: JSON.stringify(schema), options: { min: 1, max: 3, split: true } });
		expect(ctx.requests()[0].body).toMatchObject({ schema });
		expect(jsonOf(result.items).map((j) => Object.keys(j).sort())).toEqual([['company', 'title'], ['company', 'title'], ['company', 'title']]);
	});

	it('gives the HTTP request a deadline beyond the chosen timeout', () => {
		for (const timeout of [60, 180, 600]) expect(jobBoardDeadlineMs(timeout)).toBeGreaterThanOrEqual((timeout + 60) * 1000);
	});

	it('waits for a slow answer instead of giving up early', async () => {
		ctx.sim.options.jobBoardRealDelayMs = 1_500;
		try {
			const started = Date.now();
			const [out] = await runOk(ctx, { ...scrape, urls: A, options: { min: 1, max: 2, timeout: 60 } });
			expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
			expect((out.result as { jobs: unknown[] }).jobs).toHaveLength(2);
		} finally {
			ctx.sim.options.jobBoardRealDelayMs = 0;
		}
	});

	it('is not retried after a server error (a scrape costs tokens)', async () => {
		ctx.sim.server.faults.add({ kind: 'status', status: 502, routes: [ROUTES.jobBoardScrape], times: 1 });
		const result = await ctx.run({ ...scrape, urls: A });
		expect(result.error?.message).toBe('Scraper Marketplace answered 502 (Bad Gateway): the scrape may have run and used tokens [item 0]');
		expect(ctx.requests()).toHaveLength(1);
	});

	it('a schema the service rejects is reported with the parameter name', async () => {
		// Accepted by the node (the interface has no rule on the top-level type); the service wants object or array.
		const result = await ctx.run({ ...scrape, urls: A, schema: '{"type": "string"}' });
		expect(result.error?.httpCode).toBe('422');
		expect(result.error?.message).toContain("'Schema' (schema.type)");
		expect(allText(result.error)).not.toContain(MARKETPLACE_DEMO_TOKEN);
	});
});

describe('Job Board: Scrape validation (nothing is sent)', () => {
	const cases: Array<[string, Record<string, unknown>, RegExp]> = [
		['no URL', { urls: '={{ "" }}' }, /^Invalid 'URLs': at least one URL is required/],
		['a URL that is not http', { urls: 'ftp://jobs.example.com/' }, /^Invalid 'URLs': only http and https/],
		['a URL that is not a URL', { urls: `${A}\nnot a url` }, /^Invalid 'URLs \(entry 2\)'/],
		['schema not JSON', { schema: '{"type": "object",' }, /^Invalid 'Schema': it is not valid JSON/],
		['schema empty', { schema: '' }, /^Invalid 'Schema': it is required/],
		['schema a list', { schema: '[1, 2]' }, /^Invalid 'Schema': it must be a JSON object/],
		['object without properties', { schema: '{"type": "object"}' }, /^Invalid 'Schema': schema has type "object" but no "properties"/],
		[
			'nested array without items',
			{ schema: '{"type": "object", "properties": {"jobs": {"type": "array"}}}' },
			/^Invalid 'Schema': schema\.properties\.jobs has type "array" but no "items"/,
		],
		['min 0', { options: { min: 0 } }, /^Invalid 'Min Items per URL': 0 is out of range of at least 1/],
		['min not whole', { options: { min: 2.5 } }, /^Invalid 'Min Items per URL': it must be a whole number/],
		['max 0', { options: { max: 0 } }, /^Invalid 'Max Items per URL': 0 is out of range/],
		['min above max', { options: { min: 30, max: 20 } }, /^Invalid 'Min Items per URL': 30 is more than 'Max Items per URL' \(20\)/],
		['min above the default max', { options: { min: 30 } }, /^Invalid 'Min Items per URL': 30 is more than 'Max Items per URL' \(20, its default\)/],
		['timeout below 60', { options: { timeout: 59 } }, /^Invalid 'Timeout \(Seconds\)': 59 is out of range from 60 to 600/],
		['timeout above 600', { options: { timeout: 601 } }, /^Invalid 'Timeout \(Seconds\)': 601 is out of range from 60 to 600/],
	];
	it.each(cases)('%s', async (_name, parameters, message) => {
		const result = await ctx.run({ ...scrape, urls: A, ...parameters });
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toBeTruthy();
		expect(ctx.requests()).toHaveLength(0);
	});
});
