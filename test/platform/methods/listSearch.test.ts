import type { IDataObject, INodeListSearchResult } from 'n8n-workflow';

import { idTag } from '../../../nodes/ScraperPlatform/methods/listSearch';
import { runListSearch } from '../../harness';
import { DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PLATFORM_OTHER_USER_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { ROUTES } from '../helpers';
import { TOKEN, useLyingList } from '../lyingResults';

/**
 * The editor's `From list` pickers of the Platform node and the Bulk Trigger: called as n8n's server calls them,
 * against a simulator whose results list is the only source of scrapers, bulk jobs and results.
 */

let sim: PlatformSimulator;

beforeAll(async () => {
	sim = new PlatformSimulator();
	await sim.listen();
});
afterAll(async () => {
	await sim.close();
});
beforeEach(() => sim.server.log.clear());

async function search(
	method: string,
	parameters: IDataObject,
	options: { filter?: string; paginationToken?: string; nodeType?: string; token?: string } = {},
): Promise<INodeListSearchResult> {
	return await runListSearch({
		nodeType: options.nodeType ?? 'scraperPlatform',
		method,
		parameters: parameters as Parameters<typeof runListSearch>[0]['parameters'],
		credentials: { scraperPlatformApi: { apiToken: options.token ?? PLATFORM_DEMO_TOKEN, baseUrl: sim.url } },
		filter: options.filter,
		paginationToken: options.paginationToken,
	});
}

const values = (result: INodeListSearchResult) => result.results.map((r) => r.value);

describe('Platform list searches', () => {
	let otherManual: string;

	beforeAll(() => {
		// The demo user: a finished bulk job per manual scraper and an AI rerun per AI scraper, as the demo has them.
		sim.seedDemo();
		otherManual = sim.createManualScraper(PLATFORM_OTHER_USER_TOKEN);
		sim.startBulk(PLATFORM_OTHER_USER_TOKEN, otherManual, ['https://other.example.com/a']);
	});

	it('Scraper: every scraper of the account, newest first, each named by URL and kind, one request', async () => {
		const result = await search('searchScrapers', { resource: 'bulk', operation: 'cancelAllOfScraper' });
		const ids = values(result);
		expect(new Set(ids)).toEqual(new Set([...DEMO_MANUAL_SCRAPER_IDS, ...Object.values(DEMO_AI_SCRAPER_IDS)]));
		expect(ids).not.toContain(otherManual);
		// Newest result first: the AI reruns were seeded after the bulk jobs.
		expect(ids.slice(0, 3)).toEqual(expect.arrayContaining(Object.values(DEMO_AI_SCRAPER_IDS)));
		const general = result.results.find((r) => r.value === DEMO_AI_SCRAPER_IDS.general);
		expect(general?.name).toBe(`${idTag(DEMO_AI_SCRAPER_IDS.general)} · AI scraper · ${general?.name.split(' · ')[2]}`);
		const manual = result.results.find((r) => r.value === DEMO_MANUAL_SCRAPER_IDS[0]);
		// Only bulk jobs seen: its kind is not known from the list, and it is offered as a plain scraper.
		expect(manual?.name).toBe(`${idTag(DEMO_MANUAL_SCRAPER_IDS[0])} · Scraper · shop.example.com/product/101`);
		expect(result.paginationToken).toBeUndefined();
		const requests = sim.server.log.for(ROUTES.results);
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toMatchObject({ page: '1', pageSize: '100', sortField: 'createdAt', sortOrder: 'DESC' });
		expect(requests[0].query.search).toBeUndefined();
	});

	it('Scraper: the form narrows the kind (AI Scraper > Rerun lists AI scrapers, Bulk > Start follows Scraper Kind)', async () => {
		const ai = Object.values(DEMO_AI_SCRAPER_IDS);
		expect(new Set(values(await search('searchScrapers', { resource: 'aiScraper', operation: 'rerun' })))).toEqual(new Set(ai));
		const manualKind = values(await search('searchScrapers', { resource: 'bulk', operation: 'start', scraperKind: 'manual' }));
		expect(new Set(manualKind)).toEqual(new Set(DEMO_MANUAL_SCRAPER_IDS));
		const aiKind = values(await search('searchScrapers', { resource: 'bulk', operation: 'start', scraperKind: 'ai' }));
		expect(new Set(aiKind)).toEqual(new Set(ai));
	});

	it("Scraper: the user's filter goes to the service's search", async () => {
		const result = await search('searchScrapers', { resource: 'bulk', operation: 'cancelAllOfScraper' }, { filter: DEMO_MANUAL_SCRAPER_IDS[1] });
		expect(values(result)).toEqual([DEMO_MANUAL_SCRAPER_IDS[1]]);
		expect(sim.server.log.last(ROUTES.results)?.query.search).toBe(DEMO_MANUAL_SCRAPER_IDS[1]);
	});

	it('Bulk Job: the bulk jobs with status and URL count; a filter narrows them', async () => {
		const result = await search('searchBulkJobs', { resource: 'bulk', operation: 'get' });
		expect(result.results).toHaveLength(DEMO_MANUAL_SCRAPER_IDS.length);
		for (const item of result.results) expect(item.name).toMatch(/^shop\.example\.com\/product\/\d+ · Finished · 3 URLs · \d{4}-\d\d-\d\d \d\d:\d\d$/);
		expect(sim.server.log.last(ROUTES.results)?.query.search).toBe('Bulk-AI');

		const filtered = await search('searchBulkJobs', { resource: 'bulk', operation: 'get' }, { filter: 'product/201' });
		expect(filtered.results).toHaveLength(1);
		expect(filtered.results[0].name).toMatch(/^shop\.example\.com\/product\/201 · /);
		expect(sim.server.log.last(ROUTES.results)?.query.search).toBe('product/201');
	});

	it('Result: every result, paged one request per page the user scrolls', async () => {
		const seeded = new PlatformSimulator();
		await seeded.listen();
		try {
			seeded.seedResults(PLATFORM_DEMO_TOKEN, 230, { type: 'Rerun-AI', url: 'https://paged.example.com/item' });
			const page = async (paginationToken?: string) =>
				await runListSearch({
					nodeType: 'scraperPlatform',
					method: 'searchResults',
					parameters: { resource: 'result', operation: 'get' },
					credentials: { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: seeded.url } },
					paginationToken,
				});
			const first = await page();
			expect(first.results).toHaveLength(100);
			expect(first.results[0].name).toMatch(/^Rerun-AI · paged\.example\.com\/item · Finished · /);
			expect(JSON.parse(first.paginationToken as string)).toMatchObject({ page: 2 });
			const second = await page(first.paginationToken as string);
			const third = await page(second.paginationToken as string);
			expect(third.results).toHaveLength(30);
			expect(third.paginationToken).toBeUndefined();
			const all = [...values(first), ...values(second), ...values(third)];
			expect(new Set(all).size).toBe(230);
			expect(seeded.server.log.for(ROUTES.results).map((r) => r.query.page)).toEqual(['1', '2', '3']);
		} finally {
			await seeded.close();
		}
	});

	it('Scraper and Bulk Job: paged too, each scraper listed once however many pages its results fill', async () => {
		const seeded = new PlatformSimulator();
		await seeded.listen();
		try {
			const older = seeded.createManualScraper();
			seeded.seedResults(PLATFORM_DEMO_TOKEN, 120, { type: 'Bulk-AI', scraperId: older, url: 'https://older.example.com/' });
			// One AI scraper whose results fill the newest page and spill onto the next.
			seeded.seedResults(PLATFORM_DEMO_TOKEN, 150, { type: 'Rerun-AI', url: 'https://newer.example.com/' });
			const call = async (method: string, paginationToken?: string, filter?: string) =>
				await runListSearch({
					nodeType: 'scraperPlatform',
					method,
					parameters: { resource: 'bulk', operation: 'cancelAllOfScraper' },
					credentials: { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: seeded.url } },
					paginationToken,
					filter,
				});
			const pages: INodeListSearchResult[] = [await call('searchScrapers')];
			while (pages[pages.length - 1].paginationToken) pages.push(await call('searchScrapers', pages[pages.length - 1].paginationToken as string));
			expect(pages).toHaveLength(3);
			const listed = pages.flatMap((p) => p.results.map((r) => r.name.split(' · ').slice(1).join(' · ')));
			expect(listed).toEqual(['AI scraper · newer.example.com', 'Scraper · older.example.com']);
			expect(seeded.server.log.count(ROUTES.results)).toBe(3);

			seeded.server.log.clear();
			const jobs = [await call('searchBulkJobs')];
			jobs.push(await call('searchBulkJobs', jobs[0].paginationToken as string));
			expect(jobs.map((p) => p.results.length)).toEqual([100, 20]);
			expect(jobs[1].paginationToken).toBeUndefined();
			expect(seeded.server.log.for(ROUTES.results).map((r) => [r.query.page, r.query.search])).toEqual([['1', 'Bulk-AI'], ['2', 'Bulk-AI']]);
		} finally {
			await seeded.close();
		}
	});

	it('a page token n8n hands back unreadable starts from the first page', async () => {
		const result = await search('searchResults', { resource: 'result', operation: 'get' }, { paginationToken: 'not json' });
		expect(sim.server.log.last(ROUTES.results)?.query.page).toBe('1');
		expect(result.results.length).toBeGreaterThan(0);
	});

	it('Bulk Trigger: its Scraper picker lists every scraper', async () => {
		const result = await search('searchScrapers', {}, { nodeType: 'scraperBulkTrigger' });
		expect(values(result)).toEqual(expect.arrayContaining(DEMO_MANUAL_SCRAPER_IDS));
	});

	it('a bad token is an error naming the credential, as for any request', async () => {
		await expect(search('searchResults', { resource: 'result', operation: 'get' }, { token: 'not-a-token' })).rejects.toThrow(/401|credential|token/i);
	});
});

describe('Result picker: each result once, and the list ends', () => {
	const { ctx, lie, requests } = useLyingList();
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
