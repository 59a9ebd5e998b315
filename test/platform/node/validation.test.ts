import type { IDataObject } from 'n8n-workflow';

import { usePlatform } from '../helpers';

const ctx = usePlatform();
const uuid = '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b';
const create = { resource: 'aiScraper', operation: 'createAndRun', url: 'https://example.com/', prompt: 'Title' };
const rerun = { resource: 'aiScraper', operation: 'rerun', scraperId: uuid, url: 'https://example.com/' };
const getMany = { resource: 'result', operation: 'getMany' };
const status = { resource: 'analytics', operation: 'getStatusSummary', domain: 'example.com', startDate: '2026-01-01T00:00:00', endDate: '2026-02-01T00:00:00' };

const cases: Array<[string, IDataObject, string]> = [
	['URL required (empty expression)', { ...create, url: '={{ "" }}' }, "Invalid 'URL': it is required"],
	['URL syntax', { ...create, url: 'not a url' }, 'Invalid \'URL\': "not a url" is not a valid URL'],
	['URL scheme', { ...create, url: 'ftp://example.com/file' }, 'Invalid \'URL\': only http and https URLs are allowed, got "ftp:"'],
	['prompt required', { ...create, prompt: '   ' }, "Invalid 'Prompt': it is required"],
	['agent enum', { ...create, agent: 'robot' }, 'Invalid \'Agent\': "robot" is not one of general, map, listing'],
	['proxy country', { ...create, additionalFields: { proxyCountry: 'usa' } }, 'Invalid \'Proxy Country\': "usa" is not a two-letter country code'],
	['scraper id uuid', { ...rerun, scraperId: '12345' }, 'Invalid \'Scraper ID\': "12345" is not a UUID'],
	['rerun url', { ...rerun, url: 'example.com' }, 'Invalid \'URL\': "example.com" is not a valid URL'],
	['include pattern compiles', { ...rerun, mapOptions: { includePatterns: '(unclosed' } }, 'Invalid \'Include Patterns\': "(unclosed" is not a valid regular expression'],
	['exclude pattern compiles', { ...rerun, mapOptions: { excludePatterns: '[a-' } }, 'Invalid \'Exclude Patterns\': "[a-" is not a valid regular expression'],
	['max depth whole number', { ...rerun, mapOptions: { maxDepth: 1.5 } }, "Invalid 'Max Depth': it must be a whole number, got 1.5"],
	['max pages positive', { ...rerun, mapOptions: { maxPages: 0 } }, "Invalid 'Max Pages': 0 is out of range from 1 to 1000"],
	['max depth at most 5 (as Create and Run)', { ...rerun, mapOptions: { maxDepth: 6 } }, "Invalid 'Max Depth': 6 is out of range from 0 to 5"],
	['bulk URLs required', { resource: 'bulk', operation: 'start', scraperId: uuid, urls: ' ' }, "Invalid 'URLs': at least one URL is required"],
	['bulk URL syntax', { resource: 'bulk', operation: 'start', scraperId: uuid, urls: 'https://a.example.com/\nnope' }, 'Invalid \'URLs (entry 2)\': "nope" is not a valid URL'],
	['bulk id uuid', { resource: 'bulk', operation: 'get', bulkId: 'abc' }, 'Invalid \'Bulk Job ID\': "abc" is not a UUID'],
	['cancel id required', { resource: 'bulk', operation: 'cancel', bulkId: '={{ $json.missing }}' }, "Invalid 'Bulk Job ID': it is required"],
	['result id uuid', { resource: 'result', operation: 'get', resultId: 'r-1' }, 'Invalid \'Result ID\': "r-1" is not a UUID'],
	['page size max', { ...getMany, options: { pageSize: 101 } }, "Invalid 'Page Size': 101 is out of range from 1 to 100"],
	['page size min', { ...getMany, options: { pageSize: 0 } }, "Invalid 'Page Size': 0 is out of range from 1 to 100"],
	['limit min', { ...getMany, limit: 0 }, "Invalid 'Limit': 0 is out of range of at least 1"],
	['from date valid', { ...getMany, filters: { startAt: 'yesterday' } }, 'Invalid \'From\': "yesterday" is not a valid date'],
	['date range order', { ...getMany, filters: { startAt: '2026-02-01T00:00:00', endAt: '2026-01-01T00:00:00' } }, "Invalid 'To': it must be after 'From'"],
	['date column needs dates', { ...getMany, filters: { dateRangeColumn: 'updatedAt' } }, "Invalid 'Date Range Column': it needs a From or To date"],
	['domain required', { ...status, domain: '={{ "" }}' }, "Invalid 'Domain': it is required"],
	['domain with a space', { ...status, domain: 'exa mple.com' }, 'Invalid \'Domain\': "exa mple.com" is not a domain'],
	['domain an ftp address', { ...status, domain: 'ftp://example.com/' }, 'Invalid \'Domain\': "ftp://example.com/" is not a web address (ftp:)'],
	['start date valid', { ...status, startDate: '31/01/2026' }, 'Invalid \'Start Date\': "31/01/2026" is not a valid date'],
	['end after start', { ...status, endDate: '2025-01-01T00:00:00' }, "Invalid 'End Date': it must be after 'Start Date'"],
	['bandwidth dates', { resource: 'analytics', operation: 'getProxyBandwidth', startDate: '={{ "" }}', endDate: '2026-01-01T00:00:00' }, "Invalid 'Start Date': it is required"],
];

// Empty required parameters typed in the editor are stopped by n8n itself (the workflow "has issues");
// the node's own checks matter for values that expressions produce, which is how these cases arrive.
describe('validation before any request', () => {
	it.each(cases)('%s', async (_name, parameters, message) => {
		const result = await ctx.run(parameters);
		expect(result.error).toBeDefined();
		expect(result.error!.message.startsWith(message)).toBe(true);
		// A description tells the user how to fix it, and the item is identified.
		expect(result.error!.description).toEqual(expect.any(String));
		expect(result.error!.context?.itemIndex).toBe(0);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});
