import { ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();

describe('Continue On Fail', () => {
	it('10 items with 3 bad ones -> 10 outputs in order, paired, errors on the 3', async () => {
		const input = Array.from({ length: 10 }, (_, i) => ({
			target: [2, 5, 8].includes(i) ? `not a url ${i}` : `https://cof.example.com/${i}`,
		}));
		const result = await ctx.run(
			{ resource: 'aiScraper', operation: 'createAndRun', url: '={{ $json.target }}', prompt: 'Title' },
			{ input, continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(10);
		result.items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			if ([2, 5, 8].includes(i)) {
				expect(item.json.error).toBe(`Invalid 'URL': "not a url ${i}" is not a valid URL [item ${i}]`);
				expect(item.json.description).toEqual(expect.any(String));
			} else {
				expect(item.json.error ?? null).toBeNull();
				expect(item.json.url).toBe(`https://cof.example.com/${i}`);
			}
		});
		// The bad items sent nothing.
		expect(ctx.sim.server.log.count(ROUTES.createAndRun)).toBe(7);
	});

	it('without Continue On Fail the first bad item stops the node and names its index', async () => {
		const input = [{ target: 'https://ok.example.com/' }, { target: 'bad' }, { target: 'https://ok2.example.com/' }];
		const result = await ctx.run(
			{ resource: 'aiScraper', operation: 'createAndRun', url: '={{ $json.target }}', prompt: 'Title' },
			{ input },
		);
		expect(result.error?.message).toBe('Invalid \'URL\': "bad" is not a valid URL [item 1]');
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(ctx.sim.server.log.count(ROUTES.createAndRun)).toBe(1);
	});

	it('service errors become error items too, with the http code', async () => {
		const missing = '00000000-0000-4000-8000-000000000000';
		const result = await ctx.run(
			{ resource: 'result', operation: 'get', resultId: '={{ $json.id }}' },
			{ input: [{ id: missing }], continueOnFail: true },
		);
		expect(result.items[0].json).toMatchObject({ error: `The result "${missing}" was not found (404) [item 0]`, httpCode: '404' });
	});
});
