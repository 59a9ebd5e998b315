import {
	FEW_JOBS_AVAILABLE,
	MARKETPLACE_DEFAULT_TIMINGS,
	MARKETPLACE_DEMO_TOKEN,
	MARKETPLACE_ROUTES,
	MarketplaceSimulator,
	availableJobs,
	type JobBoardResponse,
} from '../../simulator/marketplace';
import { served } from '../served';

const sim = served(new MarketplaceSimulator());

beforeEach(() => {
	Object.assign(sim.options, MARKETPLACE_DEFAULT_TIMINGS);
});

async function scrape(body: Record<string, unknown>): Promise<JobBoardResponse> {
	const response = await fetch(`${sim.url}/api/job-board-scrape`, {
		method: 'POST',
		headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(200);
	const answer = (await response.json()) as JobBoardResponse;
	expect(Object.keys(answer).sort()).toEqual(['result', 'tokenUsage', 'totalDone']);
	expect(Number.isInteger(answer.tokenUsage)).toBe(true);
	expect(Number.isInteger(answer.totalDone)).toBe(true);
	return answer;
}

type Schema = Record<string, unknown>;

/** An independent check that a value fits a JSON Schema (the subset the job board accepts). */
function conformity(schema: Schema, value: unknown, path = '$'): string[] {
	if ('const' in schema) return value === schema.const ? [] : [`${path}: not the const`];
	if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return [`${path}: ${String(value)} not in enum`];
	const type = schema.type as string | undefined;
	switch (type) {
		case 'object': {
			if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: not an object`];
			const properties = (schema.properties ?? {}) as Record<string, Schema>;
			const record = value as Record<string, unknown>;
			const problems = Object.entries(properties).flatMap(([key, child]) => (key in record ? conformity(child, record[key], `${path}.${key}`) : [`${path}.${key}: missing`]));
			return problems;
		}
		case 'array':
			if (!Array.isArray(value)) return [`${path}: not an array`];
			return value.flatMap((item, i) => conformity(schema.items as Schema, item, `${path}[${i}]`));
		case 'string': {
			if (typeof value !== 'string') return [`${path}: not a string`];
			const format = schema.format;
			if (format === 'uri' && !/^https?:\/\/\S+$/.test(value)) return [`${path}: not a uri`];
			if (format === 'email' && !/^[^@\s]+@[^@\s]+$/.test(value)) return [`${path}: not an email`];
			if (format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return [`${path}: not a date`];
			if (format === 'date-time' && Number.isNaN(Date.parse(value))) return [`${path}: not a date-time`];
			if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return [`${path}: too long`];
			return [];
		}
		case 'integer':
			return Number.isInteger(value) ? [] : [`${path}: not an integer`];
		case 'number': {
			if (typeof value !== 'number') return [`${path}: not a number`];
			if (typeof schema.minimum === 'number' && value < schema.minimum) return [`${path}: below minimum`];
			if (typeof schema.maximum === 'number' && value > schema.maximum) return [`${path}: above maximum`];
			return [];
		}
		case 'boolean':
			return typeof value === 'boolean' ? [] : [`${path}: not a boolean`];
		default:
			return [];
	}
}

const jobItem: Schema = {
	type: 'object',
	properties: {
		title: { type: 'string' },
		company: { type: 'string' },
		location: { type: 'string' },
		url: { type: 'string', format: 'uri' },
		contact: { type: 'string', format: 'email' },
		posted: { type: 'string', format: 'date' },
		seen_at: { type: 'string', format: 'date-time' },
		salary_min: { type: 'integer' },
		rating: { type: 'number', minimum: 1, maximum: 5 },
		remote: { type: 'boolean' },
		employment_type: { type: 'string', enum: ['Full-time', 'Part-time', 'Contract'] },
		source: { const: 'job-board' },
		short: { type: 'string', maxLength: 4 },
		hiring_manager: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } } },
		skills: { type: 'array', items: { type: 'string' } },
	},
};
const listSchema: Schema = { type: 'array', items: jobItem };
const BOARD = 'https://jobs.example.com/search?q=engineer';
const BOARD_2 = 'https://careers.example.org/openings';

describe('POST /api/job-board-scrape', () => {
	it('defaults: min 10, max 20 items per URL, shaped by the schema', async () => {
		const answer = await scrape({ urls: [BOARD], schema: listSchema });
		const jobs = answer.result as Array<Record<string, unknown>>;
		expect(availableJobs(BOARD)).toBeGreaterThan(20);
		expect(jobs).toHaveLength(20);
		expect(jobs.flatMap((job) => conformity(jobItem, job))).toEqual([]);
		expect(jobs.every((job) => (job.url as string).startsWith('https://jobs.example.com/jobs/'))).toBe(true);
		expect(new Set(jobs.map((job) => job.url)).size).toBe(20);
		expect(answer.totalDone).toBe(1);
		expect(answer.tokenUsage).toBeGreaterThan(0);
		expect(sim.server.log.last(MARKETPLACE_ROUTES.jobBoardScrape)?.body).toEqual({ urls: [BOARD], schema: listSchema });
	});

	it('max caps the items per URL; results of several URLs are concatenated', async () => {
		const answer = await scrape({ urls: [BOARD, BOARD_2], schema: listSchema, min: 2, max: 5 });
		const jobs = answer.result as Array<{ url: string }>;
		expect(jobs).toHaveLength(10);
		expect(jobs.slice(0, 5).every((j) => j.url.startsWith('https://jobs.example.com/'))).toBe(true);
		expect(jobs.slice(5).every((j) => j.url.startsWith('https://careers.example.org/'))).toBe(true);
		expect(answer.totalDone).toBe(2);
	});

	it('a large max returns everything the page lists (at least min)', async () => {
		const answer = await scrape({ urls: [BOARD], schema: listSchema, min: 10, max: 500 });
		expect((answer.result as unknown[]).length).toBe(availableJobs(BOARD));
	});

	it('a page with fewer jobs than min returns what exists', async () => {
		const few = 'https://jobs.example.com/few-jobs/board';
		const answer = await scrape({ urls: [few, BOARD], schema: listSchema, min: 10, max: 12 });
		expect((answer.result as unknown[]).length).toBe(FEW_JOBS_AVAILABLE + 12);
		expect(answer.totalDone).toBe(2);
	});

	it('an object schema with an array property gets the records in that array', async () => {
		const schema = {
			type: 'object',
			properties: {
				board: { type: 'string' },
				page_url: { type: 'string', format: 'uri' },
				jobs: { type: 'array', items: jobItem },
			},
		};
		const answer = await scrape({ urls: [BOARD, BOARD_2], schema, max: 3 });
		expect(conformity(schema, answer.result)).toEqual([]);
		expect((answer.result as { jobs: unknown[] }).jobs).toHaveLength(6);
	});

	it('an object schema without an array property is the record: the result is the list of records', async () => {
		const answer = await scrape({ urls: [BOARD], schema: jobItem, max: 4 });
		const jobs = answer.result as unknown[];
		expect(jobs).toHaveLength(4);
		expect(jobs.flatMap((job) => conformity(jobItem, job))).toEqual([]);
	});

	it('a sim-fail URL yields nothing and does not count as done', async () => {
		const answer = await scrape({ urls: [BOARD, 'https://jobs.example.com/sim-fail'], schema: listSchema, max: 5 });
		expect((answer.result as unknown[]).length).toBe(5);
		expect(answer.totalDone).toBe(1);
	});

	it('the same request gives the same result', async () => {
		const body = { urls: [BOARD], schema: listSchema, max: 6 };
		expect((await scrape(body)).result).toEqual((await scrape(body)).result);
	});

	it('on timeout it stops and returns what was collected (simulated seconds per URL)', async () => {
		sim.options.jobBoardSecondsPerUrl = 50;
		const urls = ['https://a.example.com/jobs', 'https://b.example.com/jobs', 'https://c.example.com/jobs', 'https://d.example.com/jobs'];
		const answer = await scrape({ urls, schema: listSchema, min: 1, max: 10, timeout: 120 });
		// 50 s + 50 s complete two URLs; the third has 20 of its 50 s: 4 of its 10 items; the fourth never starts.
		const jobs = answer.result as Array<{ url: string }>;
		expect(jobs).toHaveLength(24);
		expect(jobs.filter((j) => j.url.startsWith('https://c.example.com/'))).toHaveLength(4);
		expect(jobs.some((j) => j.url.startsWith('https://d.example.com/'))).toBe(false);
		expect(answer.totalDone).toBe(2);

		// A longer timeout lets every URL finish.
		const full = await scrape({ urls, schema: listSchema, min: 1, max: 10, timeout: 600 });
		expect((full.result as unknown[]).length).toBe(40);
		expect(full.totalDone).toBe(4);
	});

	it('a slow-jobs URL runs into the timeout', async () => {
		const urls = [BOARD, 'https://jobs.example.com/slow-jobs/all', BOARD_2];
		const answer = await scrape({ urls, schema: listSchema, max: 20, timeout: 60 });
		// 5 s for the first URL, then 55 of the slow page's 900 s: 1 of its 20 items; the third URL is not reached.
		expect((answer.result as unknown[]).length).toBe(21);
		expect(answer.totalDone).toBe(1);
	});

	it('jobBoardRealDelayMs makes each URL take real time', async () => {
		sim.options.jobBoardRealDelayMs = 150;
		const started = Date.now();
		await scrape({ urls: [BOARD, BOARD_2], schema: listSchema, max: 1 });
		expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	});
});
