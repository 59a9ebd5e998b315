import type { IDataObject } from 'n8n-workflow';

import { MARKETPLACE_OTHER_USER_TOKEN } from '../../simulator/marketplace';
import { BEARER, NO_WAIT, ROUTES, WAIT, createFinished as finish, jsonOf, portalLinks, runOk, useMarketplace } from '../helpers';
import * as start from '../parameters';

const ctx = useMarketplace();
const social = { ...start.social, expectedData: 4 };
const createFinished = (parameters: IDataObject = social) => finish(ctx, parameters);

describe('Scraper: Run', () => {
	it('runs the scraper on its own URLs: no body is sent, and Wait for Completion outputs the new run', async () => {
		const created = await createFinished();
		const [out] = await runOk(ctx, { resource: 'scraper', operation: 'run', scraperId: created.scraper_id, ...WAIT });
		const [run, ...polls] = ctx.requests();
		expect(run.route).toBe(ROUTES.runScraper);
		expect(run.method).toBe('POST');
		expect(run.path).toBe(`/api/scrapers/${created.scraper_id as number}/run`);
		expect(run.headers.authorization).toBe(BEARER);
		expect(run.body).toBeUndefined();
		expect(polls.every((p) => p.route === ROUTES.scrapingRun)).toBe(true);
		expect(out).toMatchObject({ scraper_id: created.scraper_id, status: 'succeeded', completed: true, results_total: 1 });
		expect(out.scraping_run_id).not.toBe(created.scraping_run_id);
		expect(((out.results as IDataObject[])[0].content as IDataObject[]).length).toBe(4);
	});

	it('with URLs: sends them instead of the defaults, one result per URL, split into records', async () => {
		const created = await createFinished(portalLinks(['https://www.portal.example/buy/default']));
		const urls = ['https://www.portal.example/buy/a', 'https://www.portal.example/buy/b'];
		const result = await ctx.run({ resource: 'scraper', operation: 'run', scraperId: created.scraper_id, urls: urls.join(', '), ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		expect(ctx.requests()[0].body).toEqual({ urls });
		const listings = jsonOf(result.items);
		expect(new Set(listings.map((l) => l.scraped_url))).toEqual(new Set(urls));
		expect(listings.every((l) => typeof l.listing_id === 'string' && l.scraper_id === created.scraper_id)).toBe(true);
	});

	it('without waiting outputs one item per queued result', async () => {
		const created = await createFinished(portalLinks(['https://www.portal.example/buy/x']));
		const urls = ['https://www.portal.example/buy/1', 'https://www.portal.example/buy/2', 'https://www.portal.example/buy/3'];
		const items = await runOk(ctx, { resource: 'scraper', operation: 'run', scraperId: created.scraper_id, urls: urls.join('\n'), ...NO_WAIT });
		expect(items.map((i) => i.scraped_url)).toEqual(urls);
		expect(items.every((i) => i.status === 'queued' && i.content === null)).toBe(true);
		expect(ctx.requests()).toHaveLength(1);
	});

	it('an unknown scraper, or one of another account, is a 404 naming the ID', async () => {
		const result = await ctx.run({ resource: 'scraper', operation: 'run', scraperId: 999, ...NO_WAIT });
		expect(result.error?.message).toBe('The scraper "999" was not found (404) [item 0]');
		expect(result.error?.description).toContain('Scraper Marketplace API');

		const created = await createFinished();
		const other = await ctx.run({ resource: 'scraper', operation: 'run', scraperId: created.scraper_id, ...NO_WAIT }, { token: MARKETPLACE_OTHER_USER_TOKEN });
		expect(other.error?.httpCode).toBe('404');
		// A run is not repeated after a 404 either.
		expect(ctx.requests()).toHaveLength(1);
	});

	it.each([
		// As an expression gives it: n8n itself refuses an empty (or zero) picker before the node runs.
		['scraper id 0', { scraperId: '0' }, "Invalid 'Scraper ID': 0 is out of range of at least 1"],
		['scraper id 0 in a version 1 number field', { scraperId: 0, typeVersion: 1 }, "Invalid 'Scraper ID': 0 is out of range of at least 1"],
		['scraper id fraction', { scraperId: 1.5 }, "Invalid 'Scraper ID': it must be a whole number"],
		['URL syntax', { scraperId: 101, urls: 'https://ok.example.com/\nnot-a-url' }, 'Invalid \'URLs (entry 2)\': "not-a-url" is not a valid URL'],
	])('validation: %s (nothing is sent)', async (_name, parameters, message) => {
		const { typeVersion, ...rest } = parameters as typeof parameters & { typeVersion?: number };
		const result = await ctx.run({ resource: 'scraper', operation: 'run', ...rest }, { typeVersion });
		expect(result.error?.message).toContain(message);
		expect(ctx.requests()).toHaveLength(0);
	});
});
