import type { INodeProperties, INodeType } from 'n8n-workflow';

import { loadPackage, runNode } from '../harness';
import { MARKETPLACE_DEMO_TOKEN, MarketplaceSimulator } from '../simulator/marketplace';
import { DEMO_AI_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../simulator/platform';

/**
 * Version 2 of the three core nodes turned every id field into a resource locator. A workflow saved with version 1
 * stored a plain text (or number) there, and must load and run unchanged; one saved with version 2 stores
 * `{__rl, mode, value}`, and an expression may still give a plain value.
 */

const NODES = ['scraperPlatform', 'scraperMarketplace', 'scraperBulkTrigger'];

function node(name: string): INodeType {
	const found = [...loadPackage().nodes.entries()].find(([type]) => type.endsWith(`.${name}`));
	if (!found) throw new Error(`no node ${name}`);
	return found[1];
}

/** Each node's versions: 2 brought resource locators, 3 (the two action nodes) moved optional parameters into Options. */
const VERSIONS: Record<string, number[]> = { scraperPlatform: [1, 2, 3, 3.1, 3.2], scraperMarketplace: [1, 2, 3], scraperBulkTrigger: [1, 2] };

describe.each(NODES)('%s: versions 1 and 2', (name) => {
	const type = node(name);
	const locators = type.description.properties.filter((p) => p.type === 'resourceLocator');

	it('offers every version and opens new nodes at the newest', () => {
		expect(type.description.version).toEqual(VERSIONS[name]);
		expect(type.description.defaultVersion).toBe(Math.max(...VERSIONS[name]));
		expect(locators.length).toBeGreaterThan(0);
	});

	it('every locator has a From List mode backed by a list search of the node, and a By ID mode with a check', () => {
		for (const locator of locators) {
			const list = locator.modes?.find((m) => m.name === 'list');
			const id = locator.modes?.find((m) => m.name === 'id');
			const method = list?.typeOptions?.searchListMethod;
			expect(typeof type.methods?.listSearch?.[method as string]).toBe('function');
			expect(id?.validation).toHaveLength(1);
			expect(locator.displayOptions?.show?.['@version']).toEqual([{ _cnd: { gte: 2 } }]);
		}
	});

	it('each locator has its version 1 twin, same name, a plain field shown only to version 1', () => {
		for (const locator of locators) {
			const twins = type.description.properties.filter(
				(p: INodeProperties) => p.name === locator.name && p.type !== 'resourceLocator' && onlyVersion1(p.displayOptions?.show?.['@version']),
			);
			expect(twins.length).toBeGreaterThan(0);
			for (const twin of twins) expect(['string', 'number']).toContain(twin.type);
		}
	});
});

/** A display condition on `@version` that shows a parameter to version 1 alone: `[1]`, or below version 2. */
function onlyVersion1(condition: unknown): boolean {
	return JSON.stringify(condition) === JSON.stringify([1]) || JSON.stringify(condition) === JSON.stringify([{ _cnd: { lt: 2 } }]);
}

/** One simulator of each API for every saved-workflow run below. */
const platform = new PlatformSimulator();
const marketplace = new MarketplaceSimulator({ queuedMs: 50, runMs: 150 });
beforeAll(async () => {
	await platform.listen();
	await marketplace.listen();
});
afterAll(async () => {
	await platform.close();
	await marketplace.close();
});

describe('saved workflows of either version run', () => {

	const scraperId = DEMO_AI_SCRAPER_IDS.general;
	const runPlatform = async (typeVersion: number, id: unknown) =>
		await runNode({
			nodeType: 'scraperPlatform',
			typeVersion,
			parameters: { resource: 'aiScraper', operation: 'rerun', scraperId: id as string, url: 'https://shop.example.com/v' },
			credentials: { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url } },
		});

	it.each([
		['version 1, text', 1, scraperId],
		['version 2, picked from the list', 2, { __rl: true, mode: 'list', value: scraperId, cachedResultName: 'shop.example.com · AI scraper' }],
		['version 2, typed By ID', 2, { __rl: true, mode: 'id', value: scraperId }],
		['version 2, a plain value from an expression', 2, scraperId],
	])('Platform, AI Scraper > Rerun: %s', async (_shape, typeVersion, id) => {
		platform.server.log.clear();
		const result = await runPlatform(typeVersion, id);
		expect(result.error).toBeUndefined();
		expect(platform.server.log.last('POST /api/v1/scrapers-ai-rerun')?.body).toMatchObject({ scraperId });
	});

	it('version 2: n8n itself refuses an empty picker or a By ID value of the wrong shape; nothing is sent', async () => {
		platform.server.log.clear();
		for (const value of [{ __rl: true, mode: 'list', value: '' }, { __rl: true, mode: 'id', value: 'abc' }]) {
			const result = await runPlatform(2, value).catch((error: Error) => ({ error }));
			expect(result.error?.message).toMatch(/workflow has issues/);
		}
		expect(platform.server.log.count()).toBe(0);
	});

	it('version 2: a value from an expression that is not a UUID is refused by the node, naming the field', async () => {
		platform.server.log.clear();
		const result = await runPlatform(2, 'abc');
		expect(result.error?.message).toBe('Invalid \'Scraper ID\': "abc" is not a UUID [item 0]');
		expect(platform.server.log.count()).toBe(0);
	});

	it.each([
		['version 1, number', 1, (id: number) => id],
		['version 2, picked from the list', 2, (id: number) => ({ __rl: true, mode: 'list', value: String(id) })],
		['version 2, typed By ID', 2, (id: number) => ({ __rl: true, mode: 'id', value: ` ${id} ` })],
	])('Marketplace, Scraping Run > Get HTML: %s', async (_shape, typeVersion, shape) => {
		marketplace.seedRuns(MARKETPLACE_DEMO_TOKEN, 1);
		const listed = await runNode({
			nodeType: 'scraperMarketplace',
			parameters: { resource: 'result', operation: 'getMany', limit: 1 },
			credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: marketplace.url } },
		});
		const runId = listed.items[0].json.scraping_run_id as number;
		const result = await runNode({
			nodeType: 'scraperMarketplace',
			typeVersion,
			parameters: { resource: 'scrapingRun', operation: 'getHtml', scrapingRunId: shape(runId) as unknown as string },
			credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: marketplace.url } },
		});
		expect(result.error).toBeUndefined();
		expect(marketplace.server.log.last('GET /api/scraping-runs/html/:scraping_run_id')?.path).toBe(`/api/scraping-runs/html/${runId}`);
	});
});

describe('version 3 moved optional parameters into Options; workflows saved at version 2 keep theirs', () => {
	const platformCredentials = () => ({ scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url } });
	const marketplaceCredentials = () => ({ scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: marketplace.url } });

	it.each([
		['version 2: Sort Field and Sort Order in the main panel', 2, { sortField: 'createdAt', sortOrder: 'ASC' }, { sortField: 'createdAt', sortOrder: 'ASC' }],
		['version 3: the Sort collection', 3, { sort: { rule: { sortField: 'createdAt', sortOrder: 'ASC' } } }, { sortField: 'createdAt', sortOrder: 'ASC' }],
		['version 3: no sort set, the service gets the default', 3, {}, { sortField: 'updatedAt', sortOrder: 'DESC' }],
	])('Platform, Result > Get Many: %s', async (_shape, typeVersion, sort, sent) => {
		platform.server.log.clear();
		const result = await runNode({
			nodeType: 'scraperPlatform',
			typeVersion,
			parameters: { resource: 'result', operation: 'getMany', limit: 5, ...sort } as never,
			credentials: platformCredentials(),
		});
		expect(result.error).toBeUndefined();
		expect(platform.server.log.last('GET /api/v1/results')?.query).toMatchObject(sent);
	});

	it.each([
		['version 2: Parallel Requests as its own collection', 2, { parallel: { requests: 0 } }],
		['version 3: Parallel Requests under Options', 3, { options: { parallel: { settings: { requests: 0 } } } }],
	])('Platform, Result > Get: %s is read (a bad value is refused, nothing sent)', async (_shape, typeVersion, parallel) => {
		platform.server.log.clear();
		const result = await runNode({
			nodeType: 'scraperPlatform',
			typeVersion,
			parameters: { resource: 'result', operation: 'get', resultId: DEMO_AI_SCRAPER_IDS.general, ...parallel } as never,
			credentials: platformCredentials(),
		});
		expect(result.error?.message).toMatch(/^Invalid 'Requests at Once': 0 is out of range/);
		expect(platform.server.log.count()).toBe(0);
	});

	it.each([
		['version 2: in the main panel', 2, { min: 2, max: 3, timeout: 60 }],
		['version 3: under Options', 3, { options: { min: 2, max: 3, timeout: 60 } }],
	])('Marketplace, Job Board > Scrape: Min, Max and Timeout %s are sent', async (_shape, typeVersion, settings) => {
		marketplace.server.log.clear();
		const result = await runNode({
			nodeType: 'scraperMarketplace',
			typeVersion,
			parameters: { resource: 'jobBoard', operation: 'scrape', urls: 'https://jobs.example.com/search?q=a', ...settings } as never,
			credentials: marketplaceCredentials(),
		});
		expect(result.error).toBeUndefined();
		expect(marketplace.server.log.last('POST /api/job-board-scrape')?.body).toMatchObject({ min: 2, max: 3, timeout: 60 });
	});
});
