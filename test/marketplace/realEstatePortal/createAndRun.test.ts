import type { IDataObject } from 'n8n-workflow';

import { BEARER, NO_WAIT, ROUTES, WAIT, jsonOf, runOk, useMarketplace } from '../helpers';
import { portal } from '../parameters';

const ctx = useMarketplace();

describe('Real Estate Portal: Create and Run', () => {
	it('by locations: sends only what is set (no optional fields) and, Simplify off, outputs the service answer without waiting', async () => {
		const [out] = await runOk(ctx, { ...portal, locations: 'Bondi, NSW 2026\nRichmond, VIC 3121', ...NO_WAIT, simplify: false });
		const requests = ctx.requests();
		expect(requests).toHaveLength(1);
		expect(requests[0].route).toBe(ROUTES.portalCreateAndRun);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].headers.authorization).toBe(BEARER);
		// Place names keep their commas: only new lines separate them.
		expect(requests[0].body).toEqual({
			name: 'Bondi houses',
			options: 'locations',
			locations: ['Bondi, NSW 2026', 'Richmond, VIC 3121'],
			channel: 'buy',
			property_types: ['all'],
		});
		expect(out.message).toBe('Scraping queued successfully');
		const scraper = out.scraper as IDataObject;
		expect(scraper.name).toBe('Bondi houses');
		const results = out.results as IDataObject[];
		expect(results).toHaveLength(1);
		expect(results[0]).toMatchObject({ scraped_url: 'Default', status: 'queued', scraper_id: scraper.id });
		expect((results[0].scraper as IDataObject).type).toBe('real_estate_portal');
	});

	it('by links with every field set: all are sent, and Wait for Completion outputs the listings', async () => {
		const urls = ['https://www.portal.example/buy/bondi', 'https://www.portal.example/buy/manly'];
		const [out] = await runOk(ctx, {
			...portal,
			searchBy: 'links',
			urls: urls.join('\n'),
			channel: 'rent',
			propertyTypes: ['house', 'unit apartment'],
			additionalFields: {
				includingSurroundingAreas: true,
				onlyShowPropertiesWithAPrice: false,
				landsizeMinimum: '300',
				landsizeMaximum: '1000',
			},
			...WAIT,
		});
		const [create, ...polls] = ctx.requests();
		expect(create.body).toEqual({
			name: 'Bondi houses',
			options: 'links',
			urls,
			channel: 'rent',
			property_types: ['house', 'unit apartment'],
			including_surrounding_areas: true,
			only_show_properties_with_a_price: false,
			landsize_minimum: '300',
			landsize_maximum: '1000',
		});
		expect(polls.length).toBeGreaterThanOrEqual(1);
		for (const poll of polls) {
			expect(poll.route).toBe(ROUTES.scrapingRun);
			expect(poll.path).toBe(`/api/scraping-runs/${out.scraping_run_id as number}`);
			expect(poll.headers.authorization).toBe(BEARER);
		}
		expect(out).toMatchObject({ status: 'succeeded', completed: true, results_total: 2, results_succeeded: 2, results_failed: 0 });
		const results = out.results as IDataObject[];
		expect(results.map((r) => r.scraped_url)).toEqual(urls);
		for (const result of results) {
			const listings = result.content as IDataObject[];
			expect(listings.length).toBeGreaterThan(0);
			for (const listing of listings) {
				expect(listing.channel).toBe('rent');
				expect(['house', 'unit apartment']).toContain(listing.property_type);
				expect(listing.land_size === null || ((listing.land_size as number) >= 300 && (listing.land_size as number) < 1000)).toBe(true);
			}
		}
	});

	it('One Item per Record outputs one listing per item with the scraper, run and result IDs', async () => {
		const result = await ctx.run({ ...portal, locations: 'Fitzroy', channel: 'sold', ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		const items = jsonOf(result.items);
		expect(items.length).toBeGreaterThanOrEqual(4);
		const runId = items[0].scraping_run_id;
		for (const item of items) {
			expect(item).toMatchObject({ scraping_run_id: runId, scraped_url: 'Default', channel: 'sold' });
			expect(typeof item.scraper_id).toBe('number');
			expect(typeof item.result_id).toBe('number');
			expect(typeof item.listing_id).toBe('string');
			expect(typeof item.address).toBe('string');
		}
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('land size Any is not a bound: Any as minimum with a maximum is accepted', async () => {
		await runOk(ctx, { ...portal, locations: 'Glebe', additionalFields: { landsizeMinimum: 'any', landsizeMaximum: '500' }, ...NO_WAIT });
		expect(ctx.requests()[0].body).toMatchObject({ landsize_minimum: 'any', landsize_maximum: '500' });
	});
});
