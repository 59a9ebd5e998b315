import type { IDataObject } from 'n8n-workflow';

import { ROUTES, WAIT, jsonOf, runOk, useMarketplace } from '../helpers';
import { search } from '../parameters';

const ctx = useMarketplace();

describe('Lead: Create and Run Search Engine Scraper', () => {
	it('by keywords: sends keywords (no url) and One Item per Record gives one lead per item', async () => {
		const result = await ctx.run({ ...search, keywords: 'marketing agency sydney', limitPages: 2, ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		const [create] = ctx.requests();
		expect(create.route).toBe(ROUTES.searchLeadsCreateAndRun);
		expect(create.body).toEqual({ name: 'Agencies', search_type: 'keywords', limit_pages: 2, keywords: 'marketing agency sydney' });
		const leads = jsonOf(result.items);
		expect(leads.length).toBeGreaterThanOrEqual(2 * 3);
		for (const lead of leads) {
			expect(lead.email).toMatch(/@/);
			expect([1, 2]).toContain(lead.page);
			expect(typeof lead.scraping_run_id).toBe('number');
		}
	});

	it('by URL: sends url (no keywords)', async () => {
		const url = 'https://search.example.com/search?q=plumbers';
		const [out] = await runOk(ctx, { ...search, searchType: 'url', url, limitPages: 1, ...WAIT });
		expect(ctx.requests()[0].body).toEqual({ name: 'Agencies', search_type: 'url', limit_pages: 1, url });
		expect(out).toMatchObject({ status: 'succeeded', completed: true });
		expect((out.results as IDataObject[])[0].scraped_url).toBe(url);
	});
});
