// The operations the generated bad input covers (badInput*.test.ts): each with a baseline that passes validation and
// shows every optional parameter, and the rules its parameters' descriptions cannot state.
import type { IDataObject } from 'n8n-workflow';

import type { Rule } from './generate';

const UUID = '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b';
const WAIT = { waitForCompletion: true, options: { maxWaitSeconds: 600, pollIntervalSeconds: 5 } };

export interface OperationCase {
	node: 'scraperPlatform' | 'scraperMarketplace';
	resource: string;
	operation: string;
	/** Parameters that pass validation, with every optional parameter shown. */
	baseline: IDataObject;
	overrides?: Record<string, Rule>;
}

export const PLATFORM_RULES: Record<string, Rule> = {
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

/** Every operation with parameters to check, with parameters that pass validation and every optional one shown. */
export const OPERATIONS: OperationCase[] = [
	{ node: 'scraperPlatform', resource: 'account', operation: 'get', baseline: {} },
	{
		node: 'scraperPlatform',
		resource: 'aiScraper',
		operation: 'createAndRun',
		baseline: { url: 'https://shop.example.com/', prompt: 'Every product title', agent: 'listing', additionalFields: {}, listingOptions: {} },
		overrides: { mode: { kind: 'skip', why: "shown for the General agent only (its '/agent' condition): n8n drops it for this Listing case before the node runs; the General case below varies it" } },
	},
	// The General agent shows its Preset and, among Additional Fields, Mode.
	{
		node: 'scraperPlatform',
		resource: 'aiScraper',
		operation: 'createAndRun',
		baseline: { url: 'https://shop.example.com/', prompt: 'Every product title', agent: 'general', preset: 'none', additionalFields: {} },
		overrides: { agent: { kind: 'skip', why: 'the Listing case varies the agent' } },
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

// Which file checks an operation (apart only so that they run in parallel): Scraper Platform's in badInput.test.ts,
// Scraper Marketplace's Lead operations in badInputLeads.test.ts, its others in badInputMarketplace.test.ts.
export const isPlatform = (op: OperationCase) => op.node === 'scraperPlatform';
export const isMarketplaceLead = (op: OperationCase) => op.node === 'scraperMarketplace' && op.resource === 'lead';
export const isMarketplaceOther = (op: OperationCase) => op.node === 'scraperMarketplace' && op.resource !== 'lead';
