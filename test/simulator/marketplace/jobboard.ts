/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the simulator is test code that runs in plain Node, never inside n8n; setTimeout gives the optional real per-URL delay */
import { hashString, type SeededRandom } from '../core/random';
import { isPlainObject } from './checker';
import { rngFor, slug } from './content';
import type { JobBoardInput, JsonSchema } from './inputs';
import { schemaTypes } from './jsonSchema';
import { FAIL_MARKER } from './targets';
import type { JobBoardResponse } from './types';

/** A URL containing this text is a board page with only `FEW_JOBS_AVAILABLE` jobs (fewer than the default min). */
export const FEW_JOBS_MARKER = 'few-jobs';
export const FEW_JOBS_AVAILABLE = 3;
/** A URL containing this text takes `jobBoardSlowSecondsPerUrl` simulated seconds, longer than any timeout. */
export const SLOW_JOBS_MARKER = 'slow-jobs';

export interface JobBoardTimings {
	/** Simulated seconds one URL takes to scrape. */
	jobBoardSecondsPerUrl: number;
	/** Simulated seconds a `slow-jobs` URL takes. */
	jobBoardSlowSecondsPerUrl: number;
	/** Real ms to wait per URL scraped (0 = answer at once); for HTTP deadline tests. */
	jobBoardRealDelayMs: number;
}

/** How many jobs the board page at `url` lists: 25 to 60, or 3 on a `few-jobs` page. Deterministic per URL. */
export function availableJobs(url: string): number {
	if (url.toLowerCase().includes(FEW_JOBS_MARKER)) return FEW_JOBS_AVAILABLE;
	return 25 + (hashString(`jobs\u241f${url}`) % 36);
}

const JOB_TITLES = ['Senior Software Engineer', 'Data Analyst', 'Product Manager', 'UX Designer', 'DevOps Engineer', 'Customer Success Manager', 'Account Executive', 'QA Engineer', 'Marketing Specialist', 'Frontend Developer', 'Financial Controller', 'Nurse Practitioner'];
const COMPANIES = ['Acme Corp', 'Northwind Traders', 'Bluepeak Software', 'Orbit Health', 'Silverline Bank', 'Brightpath Education', 'Ironbark Mining', 'Keystone Logistics', 'Lumen Energy', 'Tidewater Retail'];
const LOCATIONS = ['Sydney, NSW', 'Melbourne, VIC', 'Brisbane, QLD', 'Perth, WA', 'Adelaide, SA', 'Remote', 'London, UK', 'Berlin, DE', 'Austin, TX', 'Toronto, ON'];
const EMPLOYMENT = ['Full-time', 'Part-time', 'Contract', 'Temporary', 'Internship'];
const WORKPLACE = ['On-site', 'Hybrid', 'Remote'];
const DEPARTMENTS = ['Engineering', 'Sales', 'Marketing', 'Operations', 'Finance', 'Design', 'Support', 'Healthcare'];
const SKILLS = ['TypeScript', 'SQL', 'Python', 'Communication', 'Stakeholder management', 'AWS', 'Figma', 'Excel', 'Kubernetes', 'Negotiation', 'Patient care', 'Budgeting'];
const PEOPLE = ['Olivia Smith', 'Liam Nguyen', 'Charlotte Brown', 'Noah Wilson', 'Amelia Taylor', 'Jack Martin', 'Isla Lee', 'Henry Patel'];
const WORDS = ['agile', 'growth', 'team', 'platform', 'customer', 'impact', 'quality', 'insight', 'delivery', 'scale'];

/** One job as the board page lists it; schema values are read from here so each record is coherent. */
interface Job {
	index: number;
	id: string;
	title: string;
	company: string;
	location: string;
	salaryMin: number;
	salaryMax: number;
	employment: string;
	workplace: string;
	department: string;
	postedDay: string;
	url: string;
	applyEmail: string;
	recruiter: string;
	rng: SeededRandom;
}

function makeJob(pageUrl: string, index: number): Job {
	const rng = rngFor('job', pageUrl, index);
	const origin = new URL(pageUrl).origin;
	const title = rng.pick(JOB_TITLES);
	const company = rng.pick(COMPANIES);
	const salaryMin = rng.int(45, 150) * 1_000;
	const id = `${hashString(`${pageUrl}#${index}`) % 900_000 + 100_000}`;
	return {
		index,
		id,
		title,
		company,
		location: rng.pick(LOCATIONS),
		salaryMin,
		salaryMax: salaryMin + rng.int(5, 40) * 1_000,
		employment: rng.pick(EMPLOYMENT),
		workplace: rng.pick(WORKPLACE),
		department: rng.pick(DEPARTMENTS),
		postedDay: new Date(Date.UTC(2025, 0, 15) - rng.int(0, 45) * 86_400_000).toISOString().slice(0, 10),
		url: `${origin}/jobs/${slug(title)}-${id}`,
		applyEmail: `careers@${slug(company)}.example.com`,
		recruiter: rng.pick(PEOPLE),
		rng,
	};
}

/** A string for a property, chosen by its format, then by its name (and its parent's), from the job it belongs to. */
function stringFor(schema: JsonSchema, key: string, parent: string, job: Job): string {
	const format = typeof schema.format === 'string' ? schema.format : '';
	const k = key.toLowerCase();
	const p = parent.toLowerCase();
	let value: string;
	if (/^(full_?)?name$/.test(k) && /manager|contact|recruiter|person|author|poster|agent|hr|people/.test(p)) value = job.recruiter;
	else if (/^name$/.test(k) && /company|employer|organi[sz]ation/.test(p)) value = job.company;
	else if ((format === 'uri' || format === 'url' || format === '') && /website|homepage|domain/.test(k)) value = `https://${slug(job.company)}.example.com`;
	else if (format === 'uri' || format === 'url' || format === 'uri-reference') value = /apply/.test(k) ? `${job.url}/apply` : job.url;
	else if (format === 'email') value = job.applyEmail;
	else if (format === 'date') value = job.postedDay;
	else if (format === 'date-time') value = `${job.postedDay}T09:00:00.000Z`;
	else if (/e-?mail/.test(k)) value = job.applyEmail;
	else if (/url|link|href|apply/.test(k)) value = /apply/.test(k) ? `${job.url}/apply` : job.url;
	else if (/company|employer|organi[sz]ation|hiring/.test(k)) value = job.company;
	else if (/salary|pay|compensation|wage/.test(k)) value = `$${job.salaryMin.toLocaleString('en-US')} - $${job.salaryMax.toLocaleString('en-US')}`;
	else if (/location|city|address|place|region/.test(k)) value = job.location;
	else if (/date|posted|published|created|updated/.test(k)) value = job.postedDay;
	else if (/remote|workplace|onsite|on_site/.test(k)) value = job.workplace;
	else if (/type|employment|contract|schedule/.test(k)) value = job.employment;
	else if (/department|category|industry|team|function/.test(k)) value = job.department;
	else if (/desc|summary|detail|about|overview/.test(k)) value = `${job.company} is hiring a ${job.title} (${job.employment}, ${job.workplace}) in ${job.location} to drive ${job.rng.pick(WORDS)} and ${job.rng.pick(WORDS)}.`;
	else if (/phone|tel/.test(k)) value = `+1 555 ${job.rng.int(100, 999)} ${job.rng.int(1000, 9999)}`;
	else if (/^id$|_id$|ref|reference|code/.test(k)) value = `JOB-${job.id}`;
	else if (/skill|tag|keyword|technolog|requirement|qualification/.test(k)) value = job.rng.pick(SKILLS);
	else if (/recruiter|manager|contact|person|author/.test(k)) value = job.recruiter;
	else if (/title|position|role|job|name|headline/.test(k)) value = job.title;
	else value = `${job.rng.pick(WORDS)} ${job.rng.pick(WORDS)}`;
	const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
	const minLength = typeof schema.minLength === 'number' ? schema.minLength : undefined;
	if (maxLength !== undefined && value.length > maxLength) value = value.slice(0, Math.max(0, maxLength));
	if (minLength !== undefined && value.length < minLength) value = value.padEnd(minLength, '.');
	return value;
}

function numberFor(schema: JsonSchema, key: string, parent: string, job: Job, integer: boolean): number {
	const k = key.toLowerCase();
	const p = parent.toLowerCase();
	const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
	const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
	let value: number;
	const money = /salary|pay|wage|compensation/;
	if (money.test(k) || money.test(p)) value = /max|upper|high|to$/.test(k) ? job.salaryMax : job.salaryMin;
	else if (/rating|score/.test(k)) value = 3 + job.rng.next() * 2;
	else if (/experience|years/.test(k)) value = job.rng.int(0, 10);
	else if (/applicant|count|openings|positions/.test(k)) value = job.rng.int(1, 250);
	else value = (min ?? 0) + job.rng.next() * ((max ?? (min ?? 0) + 100) - (min ?? 0));
	if (min !== undefined && value < min) value = min;
	if (max !== undefined && value > max) value = max;
	return integer ? Math.round(value) : Math.round(value * 100) / 100;
}

/** Walks the caller's schema and fills it with the job's data. */
function valueFor(schema: JsonSchema, key: string, job: Job, depth: number, parent = ''): unknown {
	if ('const' in schema) return schema.const;
	if (Array.isArray(schema.enum) && schema.enum.length > 0) return job.rng.pick(schema.enum as unknown[]);
	const types = schemaTypes(schema);
	let type = types.find((t) => t !== 'null') ?? types[0];
	if (type === undefined) type = isPlainObject(schema.properties) ? 'object' : isPlainObject(schema.items) ? 'array' : 'string';
	switch (type) {
		case 'object': {
			const out: Record<string, unknown> = {};
			const properties = isPlainObject(schema.properties) ? schema.properties : {};
			for (const [name, child] of Object.entries(properties)) out[name] = valueFor(child as JsonSchema, name, job, depth + 1, key);
			return out;
		}
		case 'array': {
			const items = isPlainObject(schema.items) ? schema.items : { type: 'string' };
			const minItems = typeof schema.minItems === 'number' ? schema.minItems : 1;
			const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Math.max(minItems, 3);
			const count = depth > 8 ? 0 : job.rng.int(minItems, Math.max(minItems, maxItems));
			return Array.from({ length: count }, () => valueFor(items, singular(key), job, depth + 1, parent));
		}
		case 'integer':
			return numberFor(schema, key, parent, job, true);
		case 'number':
			return numberFor(schema, key, parent, job, false);
		case 'boolean':
			return /remote/.test(key.toLowerCase()) ? job.workplace === 'Remote' : job.rng.next() < 0.5;
		case 'null':
			return null;
		default:
			return stringFor(schema, key, parent, job);
	}
}

function singular(key: string): string {
	return key.endsWith('s') ? key.slice(0, -1) : key;
}

/**
 * Where the per-URL records go in the caller's layout: a top-level array holds them; a top-level object holds
 * them in its first array-of-objects property; a top-level object without one (an array of strings such as
 * `skills` does not count) is taken as the record itself, and the result is the list of records.
 */
function layout(schema: JsonSchema): { kind: 'array'; item: JsonSchema } | { kind: 'property'; key: string; item: JsonSchema } | { kind: 'records'; item: JsonSchema } {
	const types = schemaTypes(schema);
	if (types.includes('array')) return { kind: 'array', item: schema.items as JsonSchema };
	const properties = schema.properties as Record<string, JsonSchema>;
	for (const [key, child] of Object.entries(properties)) {
		if (!schemaTypes(child).includes('array') || !isPlainObject(child.items)) continue;
		const items = child.items;
		if (schemaTypes(items).includes('object') || (items.type === undefined && isPlainObject(items.properties))) return { kind: 'property', key, item: items };
	}
	return { kind: 'records', item: schema };
}

/**
 * Runs a job-board scrape: URLs one after another, each taking simulated seconds; per URL min(available, max)
 * records. When the timeout is reached mid-URL, that URL contributes the share collected so far (it does not
 * count in `totalDone`) and the rest are skipped. `sim-fail` URLs yield nothing and do not count.
 */
export async function scrapeJobBoard(input: JobBoardInput, timings: JobBoardTimings): Promise<JobBoardResponse> {
	const shape = layout(input.schema);
	const records: unknown[] = [];
	let elapsed = 0;
	let tokenUsage = 0;
	let totalDone = 0;
	for (const url of input.urls) {
		if (elapsed >= input.timeout) break;
		const lower = url.toLowerCase();
		const seconds = lower.includes(SLOW_JOBS_MARKER) ? timings.jobBoardSlowSecondsPerUrl : timings.jobBoardSecondsPerUrl;
		const remaining = input.timeout - elapsed;
		const finished = seconds <= remaining;
		const share = finished ? 1 : remaining / seconds;
		if (timings.jobBoardRealDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, timings.jobBoardRealDelayMs * share));
		elapsed += finished ? seconds : remaining;
		if (lower.includes(FAIL_MARKER)) {
			tokenUsage += 300;
			continue;
		}
		const wanted = Math.min(availableJobs(url), input.max);
		const count = finished ? wanted : Math.floor(wanted * share);
		for (let i = 0; i < count; i++) records.push(valueFor(shape.item, shape.kind === 'property' ? singular(shape.key) : 'job', makeJob(url, i), 1));
		tokenUsage += 1_200 + (hashString(`tokens\u241f${url}`) % 800) + 95 * count;
		if (finished) totalDone++;
	}

	let result: unknown = records;
	if (shape.kind === 'property') {
		// Other top-level properties describe the page; fill them from the first URL's first job.
		const page = valueFor(input.schema, 'page', makeJob(input.urls[0], -1), 0) as Record<string, unknown>;
		page[shape.key] = records;
		result = page;
	}
	return { result, tokenUsage, totalDone };
}
