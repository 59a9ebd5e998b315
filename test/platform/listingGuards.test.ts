import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { PAGING_BOUNDS } from '../../nodes/shared/paging/pages';
import { runListSearch } from '../harness';
import type { RunResult } from '../harness';
import type { SimReply } from '../simulator/core/http';
import type { LoggedRequest } from '../simulator/core/log';
import { PLATFORM_OTHER_USER_TOKEN } from '../simulator/platform';
import { ROUTES, usePlatform } from './helpers';

/**
 * Result > Get Many and the Result picker through n8n's engine, against a results list that lies: the simulator's
 * `afterHandle` rewrites its answers (a page repeated with a billion pages counted, no `meta` at all, an empty page
 * in the middle, a count too low, fresh full pages past the end it gave). The paging guard: nodes/shared/paging/pages.ts.
 */

const ctx = usePlatform();
const TOKEN = PLATFORM_OTHER_USER_TOKEN;
const PAGE_SIZE = 10;
/** The 50 records of the account, oldest first, as a faithful Return All reads them. */
let truth: string[] = [];

type Rewrite = (page: number, data: IDataObject[], meta: IDataObject) => { data: IDataObject[]; meta?: IDataObject };

/** Rewrites each answer of the results list: `rewrite` gets the page asked for and the faithful answer. */
function lie(rewrite: Rewrite): void {
	ctx.sim.server.afterHandle = (request: LoggedRequest, reply: SimReply) => {
		if (request.route !== ROUTES.results || reply.status !== 200) return undefined;
		const body = reply.json as { message: string; data: IDataObject[]; meta: IDataObject };
		const { data, meta } = rewrite(Number(request.query.page), body.data, body.meta);
		return { ...reply, json: meta === undefined ? { message: body.message, data } : { message: body.message, data, meta } };
	};
}

async function getMany(parameters: IDataObject = { returnAll: true }): Promise<RunResult> {
	return await ctx.run(
		{ resource: 'result', operation: 'getMany', sort: { rule: { sortField: 'createdAt', sortOrder: 'ASC' } }, simplify: false, options: { pageSize: PAGE_SIZE }, ...parameters },
		{ token: TOKEN },
	);
}

const ids = (result: RunResult) => result.items.map((item) => String(item.json.id));
const hintsOf = (result: RunResult) => (result.run.data.resultData.runData[result.nodeName]?.[0]?.hints ?? []).map((hint) => hint.message);
const requests = () => ctx.sim.server.log.for(ROUTES.results).length;

beforeAll(async () => {
	ctx.sim.seedResults(TOKEN, 50);
	const faithful = await getMany();
	truth = ids(faithful);
	expect(new Set(truth).size).toBe(50);
	expect(hintsOf(faithful)).toEqual([]);
});

afterEach(() => {
	ctx.sim.server.afterHandle = undefined;
});

describe('Result > Get Many: Return All ends however the results list behaves', () => {
	it('the same page again and again, with a billion pages counted: a clear stop after 2 requests, and Limit takes what was read', async () => {
		let first: IDataObject[] = [];
		lie((page, data, meta) => {
			if (page === 1) first = data;
			return { data: first, meta: { ...meta, total: 1e11, totalPage: 1e9 } };
		});
		const result = await getMany();
		expect(result.error?.message).toBe('The results list is not advancing: page 2 held only records already read [item 0]');
		expect(result.error?.description).toContain("Turn off 'Return All' and set 'Limit' to 10 or fewer to output the records read so far.");
		expect(requests()).toBe(2);

		ctx.sim.server.log.clear();
		const limited = await getMany({ returnAll: false, limit: 10 });
		expect(limited.error).toBeUndefined();
		expect(ids(limited)).toEqual(truth.slice(0, 10));
		expect(requests()).toBe(1);
	});

	it('no meta and the same full page forever: the same stop after 2 requests', async () => {
		let first: IDataObject[] = [];
		lie((page, data) => {
			if (page === 1) first = data;
			return { data: first };
		});
		const result = await getMany();
		expect(result.error?.message).toBe('The results list is not advancing: page 2 held only records already read [item 0]');
		expect(requests()).toBe(2);
	});

	it('an empty page 3 of 5 pages counted: read past, all 40 records, no hint', async () => {
		// 40 records on pages 1, 2, 4 and 5; page 3 is empty. Each page answers the faithful page it stands for.
		const faithful = new Map<number, IDataObject[]>();
		lie((page, data, meta) => {
			faithful.set(page, data);
			const stands = page < 3 ? page : page === 3 || page > 5 ? undefined : page - 1;
			return { data: stands === undefined ? [] : (faithful.get(stands) ?? []), meta: { ...meta, total: 40, totalPage: 5 } };
		});
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(truth.slice(0, 40));
		expect(hintsOf(result)).toEqual([]);
		// Pages 1 to 5, and page 6 after the full page 5 (the count could lag behind), which ends it.
		expect(requests()).toBe(6);
	});

	it('an empty page 3 that loses its records: the other 40, and a hint that the list said 50', async () => {
		lie((page, data, meta) => ({ data: page === 3 ? [] : data, meta }));
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual([...truth.slice(0, 20), ...truth.slice(30)]);
		expect(hintsOf(result)).toEqual([
			'The results list said it holds 50 records, but 40 records could be read (page 3 came back empty where it said more follow). ' +
				'Records deleted while the list is read, or a count that is out of date, can do this: run the node again to check.',
		]);
	});

	it('a count too low (20 records, 2 pages): all 50 records, read past the end it gave', async () => {
		lie((_page, data, meta) => ({ data, meta: { ...meta, total: 20, totalPage: 2 } }));
		const result = await getMany();
		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(truth);
		expect(hintsOf(result)).toEqual([]);
		expect(requests()).toBe(6);
	});

	it('fresh full pages past the end it gave, forever: a clear stop after a bounded number of requests', async () => {
		const madeUp = (page: number) => Array.from({ length: PAGE_SIZE }, (_, i) => ({ id: `made-up-${page}-${i}`, status: 'Finished' }));
		lie((page, data, meta) => ({ data: page <= 2 ? data : madeUp(page), meta: { ...meta, total: 20, totalPage: 2 } }));
		const result = await getMany();
		expect(result.error?.message).toBe('The results list kept sending full pages past the end it gave [item 0]');
		expect(result.error?.description).toMatch(/^It said it holds 20 records, yet 10 full pages followed that end, and reading stopped at page 12 with 120 records read/);
		expect(requests()).toBe(2 + PAGING_BOUNDS.pastEnd);
	});
});

describe('Result picker: each result once, and the list ends', () => {
	async function scroll(paginationToken?: string): Promise<INodeListSearchResult> {
		return await runListSearch({
			nodeType: 'scraperPlatform',
			method: 'searchResults',
			parameters: { resource: 'result', operation: 'get' },
			credentials: { scraperPlatformApi: { apiToken: TOKEN, baseUrl: ctx.sim.url } },
			paginationToken,
		});
	}

	it('a listing that repeats its page with a billion pages counted: listed once, then no next page', async () => {
		let first: IDataObject[] = [];
		lie((page, data, meta) => {
			if (page === 1) first = data;
			return { data: first, meta: { ...meta, total: 1e11, totalPage: 1e9 } };
		});
		const one = await scroll();
		expect(one.results).toHaveLength(50);
		expect(one.paginationToken).toEqual(expect.any(String));
		const two = await scroll(one.paginationToken as string);
		expect(two.results).toEqual([]);
		expect(two.paginationToken).toBeUndefined();
		expect(requests()).toBe(2);
	});
});
