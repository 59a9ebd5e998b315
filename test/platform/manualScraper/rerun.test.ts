import { DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();
const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];

describe('Manual Scraper > Rerun', () => {
	afterEach(() => {
		ctx.sim.options.rerunStatus = 200;
	});

	it('sends exactly scraperId and url with accept: application/json, and outputs the result record', async () => {
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', scraperId, url: 'https://shop.example.com/item/7' });
		expect(result.error).toBeUndefined();
		const request = ctx.sim.server.log.last(ROUTES.manualRerun);
		expect(request?.body).toEqual({ scraperId, url: 'https://shop.example.com/item/7' });
		expect(request?.headers.accept).toBe('application/json');
		expect(request?.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		const record = result.items[0].json;
		expect(record).toMatchObject({ scraperId, url: 'https://shop.example.com/item/7', status: 'Finished' });
		expect(ctx.sim.getRecord(String(record.id))).toBeDefined();
	});

	it.each([200, 201] as const)('a %i answer is a success (the vendor documents 201)', async (status) => {
		ctx.sim.options.rerunStatus = status;
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', scraperId, url: 'https://shop.example.com/item/8' });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.manualRerun)?.status).toBe(status);
		expect(result.items[0].json.scraperId).toBe(scraperId);
	});

	it('Split Into Items gives one item per record with the result id', async () => {
		const result = await ctx.run({
			resource: 'manualScraper',
			operation: 'rerun',
			scraperId,
			url: 'https://shop.example.com/item/9',
			simplify: true,
			options: { split: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThanOrEqual(1);
	});

	it("an AI scraper gets the service's refusal (422), sent once", async () => {
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/' });
		expect(result.error?.httpCode).toBe('422');
		expect(ctx.sim.server.log.count(ROUTES.manualRerun)).toBe(1);
	});

	it.each([
		['a scraper id that is not a UUID', { scraperId: '12345', url: 'https://shop.example.com/' }, 'Invalid \'Scraper ID\': "12345" is not a UUID [item 0]'],
		['a URL that is not http(s)', { scraperId, url: 'ftp://shop.example.com/' }, /^Invalid 'URL'/],
	])('%s is refused before anything is sent', async (_name, parameters, message) => {
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', ...parameters });
		if (typeof message === 'string') expect(result.error?.message).toBe(message);
		else expect(result.error?.message).toMatch(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});
