import { PLATFORM_OTHER_USER_TOKEN } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';

/** Result > Get Latest: a scraper's newest results, as the vendor's n8n node reads them, and only that scraper's. */

const ctx = usePlatform();

/** A scraper with a create and `reruns` reruns, each a result of its own; returns its id and the reruns' ids, oldest first. */
async function scraperWithReruns(reruns: number): Promise<{ scraperId: string; rerunIds: string[] }> {
	const created = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://latest.example.com/', prompt: 'Title and price' });
	const scraperId = created.items[0].json.scraperId as string;
	const rerunIds: string[] = [];
	for (let i = 1; i <= reruns; i++) {
		ctx.sim.clock.advance(1_000);
		const rerun = await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId, url: `https://latest.example.com/page/${i}` });
		rerunIds.push(rerun.items[0].json.id as string);
	}
	return { scraperId, rerunIds };
}

describe('Result > Get Latest', () => {
	it("one request as the vendor's node sends it (filters[scraperId], newest created first), narrowed by the documented search", async () => {
		const { scraperId, rerunIds } = await scraperWithReruns(3);
		// Another scraper's newer result is never among them.
		await scraperWithReruns(1);
		ctx.sim.server.log.clear();
		const result = await ctx.run({ resource: 'result', operation: 'getLatest', scraperId, count: 2 });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.id)).toEqual([rerunIds[2], rerunIds[1]]);
		expect(result.items.every((item) => item.json.scraperId === scraperId && item.pairedItem !== undefined)).toBe(true);
		const requests = ctx.sim.server.log.for(ROUTES.results);
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({ 'filters[scraperId]': scraperId, search: scraperId, pageSize: '2', sortField: 'createdAt', sortOrder: 'DESC', page: '1' });
	});

	it('the default is the newest result alone, Simplify on', async () => {
		const { scraperId, rerunIds } = await scraperWithReruns(2);
		const result = await ctx.run({ resource: 'result', operation: 'getLatest', scraperId });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ id: rerunIds[1], type: 'Rerun-AI' });
		expect(Object.keys(result.items[0].json).length).toBeLessThanOrEqual(10);
	});

	it('a service that ignores the filter and the search still gives only this scraper\'s results', async () => {
		const { scraperId, rerunIds } = await scraperWithReruns(1);
		const other = await scraperWithReruns(1);
		// As a service that ignored both would answer: the newest results of the account, another scraper's first.
		ctx.sim.server.afterHandle = (request, reply) => {
			const body = reply.json as { data?: Array<Record<string, unknown>> } | undefined;
			if (request.route !== ROUTES.results || !body?.data) return reply;
			const foreign = { ...body.data[0], id: other.rerunIds[0], scraperId: other.scraperId };
			return { ...reply, json: { ...body, data: [foreign, ...body.data, { ...foreign, id: 'f0000000-0000-4000-8000-000000000000' }] } };
		};
		try {
			const result = await ctx.run({ resource: 'result', operation: 'getLatest', scraperId, count: 5 });
			expect(result.items.map((item) => item.json.scraperId)).toEqual([scraperId, scraperId]);
			expect(result.items[0].json.id).toBe(rerunIds[0]);
		} finally {
			ctx.sim.server.afterHandle = undefined;
		}
	});

	it('no result yet, or a scraper of another account: no item, nothing invented', async () => {
		const { scraperId } = await scraperWithReruns(0);
		const other = await ctx.run({ resource: 'result', operation: 'getLatest', scraperId }, { token: PLATFORM_OTHER_USER_TOKEN });
		expect(other.error).toBeUndefined();
		expect(other.items).toHaveLength(0);
	});

	it.each([
		['Number of Results 0', { count: 0 }, /^Invalid 'Number of Results': 0 is out of range from 1 to 100/],
		['Number of Results 101', { count: 101 }, /^Invalid 'Number of Results': 101 is out of range from 1 to 100/],
		['a scraper ID that is no UUID', { scraperId: 'abc' }, /^Invalid 'Scraper ID'/],
	])('%s: refused naming the field, nothing sent', async (_name, extra, message) => {
		ctx.sim.server.log.clear();
		const result = await ctx.run({ resource: 'result', operation: 'getLatest', scraperId: '3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b', ...extra });
		expect(result.error?.message).toMatch(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});
