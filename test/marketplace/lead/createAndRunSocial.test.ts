import { BEARER, ROUTES, WAIT, jsonOf, useMarketplace } from '../helpers';
import { social } from '../parameters';

const ctx = useMarketplace();

describe('Lead: Create and Run Social Scraper', () => {
	it('sends all four fields and returns leads of the chosen sentiment', async () => {
		const result = await ctx.run({ ...social, sentimentType: 'negative', expectedData: 6, ...WAIT, runOutput: 'records' });
		expect(result.error).toBeUndefined();
		const [create] = ctx.requests();
		expect(create.route).toBe(ROUTES.socialLeadsCreateAndRun);
		expect(create.headers.authorization).toBe(BEARER);
		expect(create.body).toEqual({ name: 'CRM talk', keywords: 'crm software', sentiment_type: 'negative', expected_data: 6 });
		const leads = jsonOf(result.items);
		expect(leads).toHaveLength(6);
		expect(leads.every((lead) => lead.sentiment === 'negative' && lead.keyword === 'crm software')).toBe(true);
	});
});
