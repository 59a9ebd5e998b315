import type { IDataObject } from 'n8n-workflow';

import { PRESET_PROMPTS } from '../../../nodes/ScraperPlatform/actions/aiScraper/presets';
import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { createScraper, ROUTES, usePlatform } from '../helpers';

// AI Scraper > Create and Run with the vendor's create options (public facts): each sent exactly when set and only
// for its agent; the Map agent without prompt or proxy country; the instruction as `prompt` and `message` alike.

const ctx = usePlatform({ rateLimit: 100_000 });

const create = (parameters: IDataObject) => ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://docs.example.com/', ...parameters });
const sentBody = () => ctx.sim.server.log.last(ROUTES.createAndRun)?.body as IDataObject | undefined;

describe('AI Scraper > Create and Run', () => {
	it('sends url, prompt (also as message, the same text) and agent only, and outputs the AI result with example output', async () => {
		const record = await createScraper(ctx);
		const requests = ctx.sim.server.log.for(ROUTES.createAndRun);
		expect(requests).toHaveLength(1);
		expect(requests[0].headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(requests[0].body).toEqual({
			url: 'https://shop.example.com/products',
			prompt: 'Extract every product with name and price',
			message: 'Extract every product with name and price',
			agent: 'general',
			graph: 'general',
		});
		// Every client of the service sends it on create.
		expect(requests[0].headers.accept).toBe('application/json');
		expect(record.type).toBe('AI');
		expect(typeof record.scraperId).toBe('string');
		expect(typeof record.runtime).toBe('string');
		expect(record.curl).toEqual(expect.any(String));
		expect(record.data).toEqual(expect.any(Object));
		expect(ctx.sim.getRecord(record.id as string)).toBeDefined();
	});

	it('sends the proxy country only when set', async () => {
		const result = await ctx.run({
			resource: 'aiScraper',
			operation: 'createAndRun',
			url: 'https://shop.example.com/',
			prompt: 'Titles',
			agent: 'listing',
			additionalFields: { proxyCountry: 'de' },
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.createAndRun)?.body).toEqual({
			url: 'https://shop.example.com/',
			prompt: 'Titles',
			message: 'Titles',
			agent: 'listing',
			graph: 'listing',
			proxyCountry: 'de',
		});
	});

	it('Simplify (on by default) keeps at most ten fields, the most used first; off, the whole record', async () => {
		const parameters = { resource: 'aiScraper', operation: 'createAndRun', url: 'https://shop.example.com/', prompt: 'Titles' };
		const simplified = (await ctx.run(parameters)).items[0].json;
		expect(Object.keys(simplified)).toEqual(['id', 'scraperId', 'url', 'status', 'type', 'data', 'error', 'tokenUsage', 'runtime', 'createdAt'].filter((k) => k in simplified));
		expect(Object.keys(simplified).length).toBeLessThanOrEqual(10);
		expect(simplified).toMatchObject({ type: 'AI', scraperId: expect.any(String), data: expect.any(Object) });
		const raw = (await ctx.run({ ...parameters, simplify: false })).items[0].json;
		expect(raw).toMatchObject({ htmlPath: expect.any(String), curl: expect.any(String) });
		expect(Object.keys(raw).length).toBeGreaterThan(10);
	});

	it('version 2 keeps its Simplify under Output: off by default, on it drops file paths and audit fields', async () => {
		const parameters = { resource: 'aiScraper', operation: 'createAndRun', url: 'https://shop.example.com/', prompt: 'Titles' };
		const off = (await ctx.run(parameters, { typeVersion: 2 })).items[0].json;
		expect(off).toHaveProperty('htmlPath');
		const record = (await ctx.run({ ...parameters, output: { simplify: true } }, { typeVersion: 2 })).items[0].json;
		for (const field of ['htmlPath', 'recordingPath', 'dataPath', 'createdById', 'updatedById', 'deletedAt', 'deletedById']) {
			expect(record).not.toHaveProperty(field);
		}
		expect(record).toHaveProperty('curl');
	});
});

describe('Create and Run: the instruction', () => {
	it.each(['general', 'listing'])('the %s agent gets the prompt as prompt and as message, the same text', async (agent) => {
		const result = await create({ agent, prompt: '={{ "Every heading, " + "in order" }}' });
		expect(result.error).toBeUndefined();
		const body = sentBody();
		expect(body?.prompt).toBe('Every heading, in order');
		expect(body?.message).toBe(body?.prompt);
		expect(ctx.sim.getScraper(String(result.items[0].json.scraperId))).toMatchObject({ prompt: 'Every heading, in order', instructionSentAs: ['prompt', 'message'] });
	});

	it('the Map agent gets neither, and the service accepts it', async () => {
		const result = await create({ agent: 'map' });
		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual({ url: 'https://docs.example.com/', agent: 'map', graph: 'map' });
		expect(ctx.sim.getScraper(String(result.items[0].json.scraperId))).toMatchObject({ agent: 'map', prompt: undefined });
	});

	it('a prompt or proxy country left from another agent is not sent to the Map agent (the editor hides them)', async () => {
		const result = await create({ agent: 'map', prompt: 'Every page', additionalFields: { proxyCountry: 'de' } });
		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual({ url: 'https://docs.example.com/', agent: 'map', graph: 'map' });
	});

	it.each([
		['Prompt', { prompt: 'Every page' }, "Invalid 'Prompt': the Map agent takes no prompt"],
		['Proxy Country', { additionalFields: { proxyCountry: 'de' } }, "Invalid 'Proxy Country': the Map agent takes no proxy country"],
	])('with the Map agent from an expression, a %s set is refused naming it; nothing is sent', async (_label, parameters, message) => {
		const result = await create({ agent: '={{ "map" }}', ...parameters });
		expect(result.error?.message).toBe(`${message} [item 0]`);
		expect(result.error?.description).toMatch(/choose the General or Listing agent/);
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('General and Listing still need a prompt', async () => {
		const result = await create({ agent: '={{ "listing" }}', prompt: '  ' });
		expect(result.error?.message).toBe("Invalid 'Prompt': it is required [item 0]");
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});

describe('Create and Run: the agents\' options', () => {
	it('Listing: Max Pages is sent when added, and recorded by the service', async () => {
		const result = await create({ agent: 'listing', prompt: 'Products', listingOptions: { maxPages: 3 } });
		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual({ url: 'https://docs.example.com/', prompt: 'Products', message: 'Products', agent: 'listing', graph: 'listing', maxPages: 3 });
		expect(ctx.sim.getScraper(String(result.items[0].json.scraperId))?.createOptions).toEqual({ maxPages: 3 });
	});

	it('Map: every option added is sent under the service\'s names, and a rerun of that scraper crawls with them', async () => {
		const mapOptions = { maxDepth: 1, maxPages: 4, resultLimit: 3, includePatterns: 'docs', excludePatterns: '/tag/' };
		const result = await create({ agent: 'map', mapOptions, simplify: false });
		expect(result.error).toBeUndefined();
		const expected = { maxDepth: 1, maxPages: 4, limit: 3, includePatterns: 'docs', excludePatterns: '/tag/' };
		expect(sentBody()).toEqual({ url: 'https://docs.example.com/', agent: 'map', graph: 'map', ...expected });
		expect((result.items[0].json.data as IDataObject).options).toEqual(expected);
		const rerun = await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId: result.items[0].json.scraperId, url: 'https://docs.example.com/' });
		const pages = rerun.items[0].json.data as string[];
		expect(pages.length).toBeGreaterThan(0);
		expect(pages.length).toBeLessThanOrEqual(3);
	});

	it.each([
		['maxDepth', 0, 'maxDepth', 0],
		['maxDepth', 5, 'maxDepth', 5],
		['maxPages', 1, 'maxPages', 1],
		['maxPages', 1000, 'maxPages', 1000],
		['resultLimit', 1, 'limit', 1],
		['resultLimit', 100_000, 'limit', 100_000],
		['includePatterns', '^https://docs', 'includePatterns', '^https://docs'],
	])('Map: %s = %p alone is sent as %s, nothing else; the service accepts it', async (name, value, field, sent) => {
		const result = await create({ agent: 'map', mapOptions: { [name]: value } });
		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual({ url: 'https://docs.example.com/', agent: 'map', graph: 'map', [field]: sent });
		expect(ctx.sim.server.log.last(ROUTES.createAndRun)?.status).toBe(200);
	});

	it.each([
		['general', { listingOptions: { maxPages: 2 }, mapOptions: { maxDepth: 3 } }],
		['listing', { mapOptions: { maxDepth: 3, resultLimit: 9 } }],
		['map', { listingOptions: { maxPages: 2 } }],
	])('an option of another agent is not sent to the %s agent (the editor shows each only for its agent)', async (agent, options) => {
		const result = await create({ agent, prompt: agent === 'map' ? '' : 'Titles', ...options });
		expect(result.error).toBeUndefined();
		const body = sentBody() ?? {};
		for (const field of ['maxDepth', 'maxPages', 'limit', 'includePatterns', 'excludePatterns']) expect(body).not.toHaveProperty(field);
	});

	it.each([
		['general', { mapOptions: { maxDepth: 3 } }, 'Map Agent Options'],
		['listing', { mapOptions: { excludePatterns: '/tag/' } }, 'Map Agent Options'],
		['map', { listingOptions: { maxPages: 2 } }, 'Listing Agent Options'],
		['general', { listingOptions: { maxPages: 2 } }, 'Listing Agent Options'],
	])('with the agent %s from an expression, options of another agent are refused naming them; nothing is sent', async (agent, options, label) => {
		const result = await create({ agent: `={{ "${agent}" }}`, prompt: agent === 'map' ? '' : 'Titles', ...options });
		expect(result.error?.message).toMatch(new RegExp(`^Invalid '${label}': these options are for the (Map|Listing) agent only, and the agent is ${agent}`));
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it.each([
		['map', 'mapOptions', 'maxDepth', 6, 'Max Depth'],
		['map', 'mapOptions', 'maxDepth', -1, 'Max Depth'],
		['map', 'mapOptions', 'maxDepth', 2.5, 'Max Depth'],
		['map', 'mapOptions', 'maxPages', 0, 'Max Pages'],
		['map', 'mapOptions', 'maxPages', 1001, 'Max Pages'],
		['map', 'mapOptions', 'resultLimit', 0, 'Limit'],
		['map', 'mapOptions', 'resultLimit', 100_001, 'Limit'],
		['map', 'mapOptions', 'includePatterns', '(docs', 'Include Patterns'],
		['map', 'mapOptions', 'excludePatterns', '[', 'Exclude Patterns'],
		['listing', 'listingOptions', 'maxPages', 0, 'Max Pages'],
		['listing', 'listingOptions', 'maxPages', '={{ "many" }}', 'Max Pages'],
	])('%s: %s.%s = %p is refused naming %s before any request', async (agent, collection, name, value, label) => {
		const result = await create({ agent, prompt: agent === 'map' ? '' : 'Titles', [collection]: { [name]: value } });
		expect(result.error?.message).toMatch(new RegExp(`^Invalid '${label}'`));
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});

describe("AI Scraper > Create and Run: presets and the vendor node's names", () => {
	it.each(Object.entries(PRESET_PROMPTS))('Preset %s: its own prompt as prompt and message, the General agent as agent and graph', async (preset, prompt) => {
		const result = await create({ preset });
		expect(result.error).toBeUndefined();
		expect(sentBody()).toEqual({ url: 'https://docs.example.com/', prompt, message: prompt, agent: 'general', graph: 'general' });
		// The fields a sheet wants, named in camelCase, and never invented.
		expect(prompt).toMatch(/with the fields [a-z]+[A-Za-z]*, /);
		expect(prompt).toContain('leave a field empty when the page does not show it');
	});

	it('a preset with a prompt: the prompt adds to it', async () => {
		await create({ preset: 'product', prompt: 'Only products in stock.' });
		expect(sentBody()?.message).toBe(`${PRESET_PROMPTS.product}\n\nOnly products in stock.`);
	});

	it('Mode is sent as the vendor node sends it, only when added, for the General agent', async () => {
		await create({ prompt: 'Titles', additionalFields: { mode: 'Cheap' } });
		expect(sentBody()).toEqual({ url: 'https://docs.example.com/', prompt: 'Titles', message: 'Titles', agent: 'general', graph: 'general', mode: 'Cheap' });
	});

	it.each([
		['a preset for the Listing agent', { agent: '={{ "listing" }}', prompt: 'Titles', preset: 'hotel' }, /^Invalid 'Preset': presets are for the General agent, and the agent is listing/],
		['Mode for the Listing agent from an expression', { agent: '={{ "listing" }}', prompt: 'Titles', additionalFields: { mode: 'Super' } }, /^Invalid 'Mode': it is for the General agent, and the agent is listing/],
		['a preset that is none of the ten', { preset: 'recipe' }, /^Invalid 'Preset': "recipe" is not one of/],
		['no preset and no prompt', { preset: 'none' }, /^Invalid 'Prompt': it is required/],
	])('%s is refused naming the field, nothing sent', async (_name, parameters, message) => {
		ctx.sim.server.log.clear();
		const result = await create(parameters);
		expect(result.error?.message).toMatch(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});
