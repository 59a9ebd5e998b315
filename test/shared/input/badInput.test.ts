/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- test code in plain Node: it reads BAD_INPUT_RUNS, prints its totals and rethrows the harness's own errors */
// Bad input, generated: for every operation of Scraper Platform and Scraper Marketplace and every parameter it
// shows, values that break the parameter's rule must fail with an error naming the field (its display name) and the
// rule, before anything is sent; values drawn the same way that keep the rule must pass validation.
import fc from 'fast-check';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { runNode } from '../../harness';
import type { RunResult } from '../../harness';
import { MARKETPLACE_DEMO_TOKEN, MarketplaceSimulator } from '../../simulator/marketplace';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { invalidValues, parameterCases, validValues, withValue } from './generate';
import type { ParameterCase, Rule } from './generate';

/** Runs per parameter: invalid values are cheap (nothing is sent), valid ones reach the simulator. */
const INVALID_RUNS = Number(process.env.BAD_INPUT_RUNS ?? 25);
const VALID_RUNS = 3;

const UUID = '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b';
const WAIT = { waitForCompletion: true, options: { maxWaitSeconds: 600, pollIntervalSeconds: 5 } };

interface OperationCase {
	node: 'scraperPlatform' | 'scraperMarketplace';
	resource: string;
	operation: string;
	/** Parameters that pass validation, with every optional parameter shown. */
	baseline: IDataObject;
	overrides?: Record<string, Rule>;
}

const PLATFORM_RULES: Record<string, Rule> = {
	scraperId: { kind: 'uuid' },
	bulkId: { kind: 'uuid' },
	resultId: { kind: 'uuid' },
	includePatterns: { kind: 'regex' },
	excludePatterns: { kind: 'regex' },
	proxyCountry: { kind: 'countryCode' },
	domain: { kind: 'domain' },
	startAt: { kind: 'date' },
	endAt: { kind: 'date' },
	// A field name is any text; the value it holds is checked per item (its own test in test/platform/bulk/start.test.ts).
	urlField: { kind: 'text', required: true },
};

const JOB_SCHEMA = JSON.stringify({ type: 'object', properties: { jobs: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } } } } } });
const DATES = { startDate: '2026-01-01T00:00:00', endDate: '2026-01-31T00:00:00' };

const OPERATIONS: OperationCase[] = [
	{ node: 'scraperPlatform', resource: 'account', operation: 'get', baseline: {} },
	{
		node: 'scraperPlatform',
		resource: 'aiScraper',
		operation: 'createAndRun',
		baseline: { url: 'https://shop.example.com/', prompt: 'Every product title', agent: 'listing', additionalFields: {}, listingOptions: {} },
	},
	// The Map agent shows its own options instead of the prompt and the proxy country.
	{
		node: 'scraperPlatform',
		resource: 'aiScraper',
		operation: 'createAndRun',
		baseline: { url: 'https://docs.example.com/', agent: 'map', mapOptions: {} },
		overrides: { agent: { kind: 'skip', why: 'the Listing case varies the agent; without a prompt, General and Listing refuse, as they must' } },
	},
	{ node: 'scraperPlatform', resource: 'aiScraper', operation: 'rerun', baseline: { scraperId: UUID, url: 'https://shop.example.com/p/2', mapOptions: {}, output: {} } },
	{ node: 'scraperPlatform', resource: 'analytics', operation: 'getStatusSummary', baseline: { domain: 'example.com', ...DATES, additionalFields: {}, options: { split: false } } },
	{ node: 'scraperPlatform', resource: 'analytics', operation: 'getProxyBandwidth', baseline: { ...DATES } },
	{ node: 'scraperPlatform', resource: 'bulk', operation: 'start', baseline: { scraperId: UUID, urlSource: 'list', urls: 'https://a.example.com/1', ...WAIT, bulkOutput: 'job' } },
	{ node: 'scraperPlatform', resource: 'bulk', operation: 'get', baseline: { bulkId: UUID, ...WAIT, bulkOutput: 'job' } },
	{ node: 'scraperPlatform', resource: 'bulk', operation: 'cancel', baseline: { bulkId: UUID } },
	{
		node: 'scraperPlatform',
		resource: 'bulk',
		operation: 'retryFailed',
		baseline: { bulkId: UUID, ...WAIT, options: { ...WAIT.options, includeCanceled: false, retryScraperKind: 'detect' }, bulkOutput: 'job' },
	},
	{ node: 'scraperPlatform', resource: 'result', operation: 'get', baseline: { resultId: UUID, options: {} } },
	{ node: 'scraperPlatform', resource: 'result', operation: 'getMany', baseline: { returnAll: false, limit: 10, sort: { rule: { sortField: 'createdAt', sortOrder: 'DESC' } }, filters: { startAt: '2026-01-01T00:00:00' }, options: {} } },
	{ node: 'scraperMarketplace', resource: 'result', operation: 'getMany', baseline: { returnAll: false, limit: 10, options: {} } },
	{
		node: 'scraperMarketplace',
		resource: 'jobBoard',
		operation: 'scrape',
		baseline: { urls: 'https://jobs.example.com/remote', schema: JOB_SCHEMA, options: { min: 10, max: 20, timeout: 180, split: false } },
		overrides: {
			schema: { kind: 'skip', why: 'generated schemas have their own test: test/marketplace/jobBoard/jsonSchema.test.ts' },
			// Each within its own range and Min not above Max (the baseline's other one: 20 and 10).
			min: { kind: 'integer', min: 1, max: 20 },
			max: { kind: 'integer', min: 10 },
		},
	},
	{ node: 'scraperMarketplace', resource: 'scraper', operation: 'run', baseline: { scraperId: 1, urls: '', ...WAIT, runOutput: 'run' } },
	{ node: 'scraperMarketplace', resource: 'scrapingRun', operation: 'getHtml', baseline: { scrapingRunId: 1, htmlOutput: 'binary', binaryPropertyName: 'data' } },
	{
		node: 'scraperMarketplace',
		resource: 'lead',
		operation: 'createAndRunSearch',
		baseline: { name: 'Leads', searchType: 'keywords', keywords: 'roofers in Austin', url: 'https://www.google.com/search?q=roofers', limitPages: 1, ...WAIT, runOutput: 'run' },
	},
	{
		node: 'scraperMarketplace',
		resource: 'lead',
		operation: 'createAndRunSocial',
		baseline: { name: 'Leads', keywords: 'coffee', sentimentType: 'positive', expectedData: 10, ...WAIT, runOutput: 'run' },
	},
	{
		node: 'scraperMarketplace',
		resource: 'realEstatePortal',
		operation: 'createAndRun',
		baseline: { name: 'Homes', searchBy: 'locations', locations: 'Austin, TX', urls: 'https://portal.example.com/buy/austin', channel: 'buy', propertyTypes: ['house'], additionalFields: {}, ...WAIT, runOutput: 'run' },
		overrides: { locations: { kind: 'list' } },
	},
	{
		node: 'scraperMarketplace',
		resource: 'pdf',
		operation: 'createAndRun',
		baseline: { name: 'Reports', keywords: { keyword: [{ keyword: 'annual report', prompt: 'Is this an annual report?' }] }, additionalFields: {}, ...WAIT, runOutput: 'run' },
		overrides: { keywords: { kind: 'skip', why: 'a fixed collection: its keyword rules are tested in test/marketplace/node/createAndRunValidation.test.ts and test/marketplace/pdf/createAndRun.test.ts' } },
	},
];

let platform: PlatformSimulator;
let marketplace: MarketplaceSimulator;

beforeAll(async () => {
	platform = new PlatformSimulator();
	marketplace = new MarketplaceSimulator();
	await Promise.all([platform.listen(), marketplace.listen()]);
});

afterAll(async () => {
	await Promise.all([platform?.close(), marketplace?.close()]);
});

function requestsSeen(): number {
	return platform.server.log.entries.length + marketplace.server.log.entries.length;
}

/**
 * Runs the operation; `undefined` when n8n itself refuses to start the workflow (a required field left empty or a
 * value that hides a required one: the editor marks the field, and nothing runs).
 */
async function run(op: OperationCase, parameters: IDataObject, stopAfterMs = 2_000): Promise<RunResult | undefined> {
	try {
		return await runOperation(op, parameters, stopAfterMs);
	} catch (error) {
		if ((error as Error).name === 'WorkflowHasIssuesError') return undefined;
		throw error;
	}
}

async function runOperation(op: OperationCase, parameters: IDataObject, stopAfterMs: number): Promise<RunResult> {
	return await runNode({
		nodeType: op.node,
		parameters: { resource: op.resource, operation: op.operation, ...parameters } as never,
		// One input item carrying a URL field, for Bulk > Start from all input items.
		input: [{ url: 'https://a.example.com/from-item' }],
		credentials:
			op.node === 'scraperPlatform'
				? { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url } }
				: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: marketplace.url } },
		// Nothing may wait in this file: a run that starts work is stopped (validation comes before any of it).
		cancelAfterMs: stopAfterMs,
	});
}

/** Totals over the file, for the closing figures. */
const totals = { invalidCases: 0, validCases: 0, refusedByN8n: 0, parameters: new Set<string>(), requestsFromInvalid: 0 };

afterAll(() => {
	process.stdout.write(
		`bad input (platform, marketplace): ${totals.invalidCases} invalid and ${totals.validCases} valid generated cases over ${totals.parameters.size} parameters (${totals.refusedByN8n} refused by n8n's own required-field check before the node ran); requests caused by invalid ones: ${totals.requestsFromInvalid}\n`,
	);
});

describe.each(OPERATIONS)('$node $resource > $operation', (op) => {
	const cases = parameterCases(op.node, op.resource, op.operation, op.baseline, { ...(op.node === 'scraperPlatform' ? PLATFORM_RULES : {}), ...op.overrides });
	const checked = cases.filter((c) => c.rule.kind !== 'skip');

	if (checked.length === 0) {
		it('has no parameters to break', () => expect(cases).toEqual([]));
		return;
	}

	it.each(checked.map((c): [string, ParameterCase] => [c.path.join('.'), c]))('%s: a value that breaks its rule is refused, naming it, and nothing is sent', async (_name, parameter) => {
		totals.parameters.add(`${op.node}.${op.resource}.${op.operation}.${parameter.path.join('.')}`);
		await fc.assert(
			fc.asyncProperty(invalidValues(parameter.rule), async (drawn) => {
				totals.invalidCases++;
				const before = requestsSeen();
				const result = await run(op, withValue(op.baseline, parameter.path, drawn.stored));
				const sent = requestsSeen() - before;
				totals.requestsFromInvalid += sent;
				expect(sent).toBe(0);
				if (!result) {
					totals.refusedByN8n++;
					return;
				}
				expect(result.error?.message ?? `no error for ${drawn.describe}`).toContain(`'${parameter.label}'`);
				expect(result.error?.description ?? '').not.toBe('');
			}),
			{ numRuns: INVALID_RUNS },
		);
	});

	const withValid = checked.filter((c) => validValues(c.rule) !== undefined);
	if (withValid.length > 0) {
		it.each(withValid.map((c): [string, ParameterCase] => [c.path.join('.'), c]))('%s: a value that keeps its rule passes validation', async (_name, parameter) => {
			await fc.assert(
				fc.asyncProperty(validValues(parameter.rule) as fc.Arbitrary<{ stored: unknown; describe: string }>, async (drawn) => {
					totals.validCases++;
					const result = await run(op, withValue(op.baseline, parameter.path, drawn.stored), 300);
					// It may still fail at the service (an id that does not exist), but never as invalid input.
					expect(result).toBeDefined();
					expect(result?.error?.message ?? '').not.toMatch(/^Invalid '/);
				}),
				{ numRuns: VALID_RUNS },
			);
		});
	}
});

/** Counterexamples fast-check found (each was accepted, and sent, before the fix): kept as fixed cases. */
const FOUND: Array<{ op: [string, string, string]; path: [string] | [string, string]; stored: unknown; label: string }> = [
	{ op: ['scraperPlatform', 'bulk', 'start'], path: ['scraperId'], stored: '00000000-0000-1000-8000-000000000000x', label: 'Scraper ID' },
	{ op: ['scraperPlatform', 'result', 'getMany'], path: ['simplify'], stored: '={{ [true] }}', label: 'Simplify' },
	{ op: ['scraperPlatform', 'result', 'getMany'], path: ['filters', 'endAt'], stored: '={{ false }}', label: 'To' },
	{ op: ['scraperMarketplace', 'result', 'getMany'], path: ['options', 'split'], stored: '={{ "yes" }}', label: 'Split Into Items' },
	{ op: ['scraperMarketplace', 'realEstatePortal', 'createAndRun'], path: ['locations'], stored: '={{ [{}] }}', label: 'Locations' },
	{ op: ['scraperPlatform', 'bulk', 'start'], path: ['options', 'maxWaitSeconds'], stored: 2_592_000, label: 'Max Wait (Seconds)' },
	{ op: ['scraperPlatform', 'bulk', 'start'], path: ['options', 'pollIntervalSeconds'], stored: 2_592_000, label: 'Poll Interval (Seconds)' },
];

describe('counterexamples found, as fixed cases', () => {
	it.each(FOUND.map((f): [string, (typeof FOUND)[number]] => [`${f.op.join(' ')} ${f.path.join('.')} = ${JSON.stringify(f.stored)}`, f]))('%s is refused, nothing sent', async (_name, found) => {
		const op = OPERATIONS.find((o) => o.node === found.op[0] && o.resource === found.op[1] && o.operation === found.op[2]) as OperationCase;
		const before = requestsSeen();
		const result = await run(op, withValue(op.baseline, found.path, found.stored));
		expect(requestsSeen() - before).toBe(0);
		expect(result?.error?.message).toMatch(new RegExp(`^Invalid '${found.label.replace(/[()]/g, '\\$&')}'`));
	});
});

describe('credential fields', () => {
	const insertAt = (text: string, at: number, bad: string) => `${text.slice(0, at % (text.length + 1))}${bad}${text.slice(at % (text.length + 1))}`;
	const controls = fc.constantFrom('\n', '\r', '\t', '\u0000', '\u001b', '\u007f');
	const badTokens = fc.oneof(
		fc.constantFrom('', '   '),
		fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/), fc.nat(), controls).map(([token, at, bad]) => insertAt(token, at, bad)),
		fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((token) => ` ${token}`),
		fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((token) => `${token} `),
	);
	const badBaseUrls = (good: () => string) =>
		fc.oneof(
			fc.constantFrom('', '  ', 'not a url', 'ftp://127.0.0.1/', 'file:///etc', 'localhost:4010', '//127.0.0.1:4010'),
			fc.constantFrom('?page=1', '#top').map((suffix) => `${good()}/${suffix}`),
			fc.tuple(fc.nat(), fc.oneof(controls, fc.constant('\\'))).map(([at, bad]) => insertAt(good(), 7 + (at % 10), bad)),
		);
	const cases = [
		{
			credential: 'Scraper Platform API',
			type: 'scraperPlatformApi',
			node: 'scraperPlatform',
			parameters: { resource: 'account', operation: 'get' },
			token: PLATFORM_DEMO_TOKEN,
			url: () => platform.url,
		},
		{
			credential: 'Scraper Marketplace API',
			type: 'scraperMarketplaceApi',
			node: 'scraperMarketplace',
			parameters: { resource: 'result', operation: 'getMany', returnAll: false, limit: 1 },
			token: MARKETPLACE_DEMO_TOKEN,
			url: () => marketplace.url,
		},
	];

	async function runWith(c: (typeof cases)[number], data: ICredentialDataDecryptedObject): Promise<RunResult> {
		return await runNode({ nodeType: c.node, parameters: c.parameters as never, credentials: { [c.type]: data } });
	}

	it.each(cases)('$credential: a bad API Token or Base URL is refused naming the credential and the field; nothing is sent', async (c) => {
		const field = fc.oneof(
			badTokens.map((apiToken) => ({ field: 'API Token', data: { apiToken, baseUrl: c.url() } })),
			badBaseUrls(c.url).map((baseUrl) => ({ field: 'Base URL', data: { apiToken: c.token, baseUrl } })),
		);
		await fc.assert(
			fc.asyncProperty(field, async ({ field: label, data }) => {
				totals.invalidCases++;
				totals.parameters.add(`${c.type}.${label}`);
				const before = requestsSeen();
				const result = await runWith(c, data);
				const sent = requestsSeen() - before;
				totals.requestsFromInvalid += sent;
				expect(sent).toBe(0);
				expect(result.error?.message).toMatch(new RegExp(`^Invalid '${label}' in the '${c.credential}' credential: `));
				expect(result.error?.description).toContain(`Open the credential (${c.credential})`);
			}),
			{ numRuns: INVALID_RUNS * 4 },
		);
	});

	it.each(cases)('$credential: a well-formed token and Base URL are sent (an unknown token then gets the 401 advice)', async (c) => {
		await fc.assert(
			fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9_.-]{8,40}$/), fc.boolean(), async (apiToken, trailingSlash) => {
				totals.validCases++;
				const result = await runWith(c, { apiToken, baseUrl: `${c.url()}${trailingSlash ? '/' : ''}` });
				expect(result.error?.message ?? '').not.toMatch(/^Invalid '/);
				expect(result.error?.message).toMatch(/did not accept the (API )?token/);
			}),
			{ numRuns: VALID_RUNS * 3 },
		);
	});
});
