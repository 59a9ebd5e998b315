import type { IDataObject } from 'n8n-workflow';

import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { TIMEOUT_MARKER } from '../../simulator/platform/fetch';
import { SEARCH_ROUTES } from '../../simulator/platform/search';
import { EMPTY_MARKER, totalResults } from '../../simulator/platform/serp';
import { useTokenHosts } from '../tokenHosts';
import type { RunResult } from '../../harness';

/** Scraper Platform > Search > Google with the API token, through n8n's engine against the simulated search host. */

const ctx = useTokenHosts();
const searchOf = (query: string, extra: IDataObject = {}): IDataObject => ({ resource: 'search', operation: 'google', query, ...extra });
afterEach(() => (ctx.searchHost.server.afterHandle = undefined));
const searches = () => ctx.searchHost.server.log.for(SEARCH_ROUTES.google);
const bodies = () => searches().map((r) => r.body as IDataObject);
const hintsOf = (result: RunResult) => (result.run.data.resultData.runData[result.nodeName]?.[0]?.hints ?? []).map((hint) => hint.message);

/** A query with four pages of results, the last one not full (the simulator's results are fixed per query). */
const QUERY = 'hiking boots';

beforeAll(() => expect(totalResults(QUERY)).toBe(32));

describe('what is sent', () => {
	it('a query alone: POST {search host}/api/google/serp/v2/sync with {query, format}, nothing the user did not set', async () => {
		const result = await ctx.run(searchOf('best hiking boots'));
		expect(result.error).toBeUndefined();
		expect(searches()).toHaveLength(1);
		expect(bodies()).toEqual([{ query: 'best hiking boots', format: 'json' }]);
		expect(searches()[0].headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(searches()[0].headers.authorization).toBe(`Bearer ${PLATFORM_DEMO_TOKEN}`);
		expect(ctx.platform.server.log.count() + ctx.fetchHost.server.log.count()).toBe(0);
	});

	it('every option, as the public facts show the body, in their order', async () => {
		const options = { region: 'de', language: 'pt-BR', page: 2, renderJs: false };
		await ctx.run(searchOf('best hiking boots', { options }));
		expect(bodies()).toEqual([{ query: 'best hiking boots', region: 'de', language: 'pt-BR', page: 2, format: 'json', renderJs: false }]);
		expect(Object.keys(bodies()[0])).toEqual(['query', 'region', 'language', 'page', 'format', 'renderJs']);
	});

	it.each([
		['Region', { region: 'fr' }, { region: 'fr' }],
		['Language', { language: 'de' }, { language: 'de' }],
		['Page', { page: 3 }, { page: 3 }],
		['Render JavaScript', { renderJs: true }, { renderJs: true }],
	])('%s alone is sent alone', async (_name, options, sent) => {
		await ctx.run(searchOf('kettles', { options }));
		expect(bodies()[0]).toEqual({ query: 'kettles', ...sent, format: 'json' });
	});
});

describe('a Google search URL in Query', () => {
	it('q, gl, hl and start are read: page = floor(start/10)+1', async () => {
		await ctx.run(searchOf('https://www.google.com/search?q=running+shoes&gl=de&hl=pt-BR&start=25'));
		expect(bodies()).toEqual([{ query: 'running shoes', region: 'de', language: 'pt-BR', page: 3, format: 'json' }]);
	});

	it('start=0 is the first page; a country domain of Google is Google', async () => {
		await ctx.run(searchOf('https://google.co.uk/search?q=tea&start=0'));
		expect(bodies()).toEqual([{ query: 'tea', page: 1, format: 'json' }]);
	});

	it.each(['https://www.google.com/?q=tea', 'https://m.google.com/search?q=tea', 'https://google.co.uk/?q=tea'])('%s is a Google search (www, m or none; /search, or / with a q)', async (url) => {
		expect((await ctx.run(searchOf(url))).error).toBeUndefined();
		expect(bodies()).toEqual([{ query: 'tea', format: 'json' }]);
	});

	it('options win over what the URL says', async () => {
		await ctx.run(searchOf('https://www.google.com/search?q=tea&gl=de&hl=de&start=10', { options: { region: 'gb', language: 'en', page: 1 } }));
		expect(bodies()).toEqual([{ query: 'tea', region: 'gb', language: 'en', page: 1, format: 'json' }]);
	});

	it.each([
		['another search engine', 'https://www.bing.com/search?q=tea', /^Invalid 'Query': "https:\/\/www\.bing\.com\/search\?q=tea" is not a Google search URL/],
		['a Google page that is not a search', 'https://www.google.com/maps?q=tea', /^Invalid 'Query': "https:\/\/www\.google\.com\/maps\?q=tea" is not a Google search URL/],
		['a look-alike host', 'https://google.com.evil.example/search?q=tea', /is not a Google search URL/],
		['no q', 'https://www.google.com/search?hl=en', /^Invalid 'Query': the Google search URL has no search terms/],
		['a gl that is no country', 'https://www.google.com/search?q=tea&gl=usa', /^Invalid 'Query': "usa" is not a two-letter country code/],
		['an hl that is no language', 'https://www.google.com/search?q=tea&hl=english', /^Invalid 'Query': "english" is not a language code/],
		['a start that is no number', 'https://www.google.com/search?q=tea&start=ten', /^Invalid 'Query': it must be a whole number, got "ten"/],
		['a URL with a backslash', 'https://www.google.com\\@evil.example/search?q=tea', /^Invalid 'Query': .* contains a backslash/],
	])('%s: refused naming Query, nothing sent', async (_name, query, message) => {
		const result = await ctx.run(searchOf(query));
		expect(result.error?.message).toMatch(message);
		expect(ctx.requestCount()).toBe(0);
	});

	it('text that only mentions a site stays search terms', async () => {
		await ctx.run(searchOf('site:example.com hiking'));
		expect(bodies()).toEqual([{ query: 'site:example.com hiking', format: 'json' }]);
	});
});

describe('language codes Google takes: a region of letters or digits, or a script', () => {
	it.each(['es-419', 'fil', 'zh-Hant'])('%s, as Language and as the hl of a URL, is sent and answered', async (code) => {
		const result = await ctx.run(searchOf('tea', { options: { language: code } }));
		const fromUrl = await ctx.run(searchOf(`https://www.google.com/search?q=tea&hl=${code}`));
		expect([result.error, fromUrl.error]).toEqual([undefined, undefined]);
		expect(searches().map((r) => [(r.body as IDataObject).language, r.status])).toEqual([[code, 200], [code, 200]]);
	});
});

describe('bad values are refused before anything is sent, naming the field', () => {
	it.each([
		['Query', searchOf('={{ "" }}'), /^Invalid 'Query': it is required/],
		['Region', searchOf('tea', { options: { region: 'usa' } }), /^Invalid 'Region': "usa" is not a two-letter country code/],
		['Language', searchOf('tea', { options: { language: 'english' } }), /^Invalid 'Language': "english" is not a language code/],
		['Page', searchOf('tea', { options: { page: 0 } }), /^Invalid 'Page': 0 is out of range of at least 1/],
		['Limit', searchOf('tea', { limit: 0 }), /^Invalid 'Limit': 0 is out of range of at least 1/],
		['Render JavaScript', searchOf('tea', { options: { renderJs: '={{ "yes" }}' } }), /^Invalid 'Render JavaScript': it must be true or false/],
		['Output As', searchOf('tea', { options: { outputAs: '={{ "xml" }}' } }), /^Invalid 'Output As': "xml" is not one of results, answer, html/],
	])('%s', async (_name, parameters, message) => {
		const result = await ctx.run(parameters);
		expect(result.error?.message).toMatch(message);
		expect(ctx.requestCount()).toBe(0);
	});
});

describe('results, pages, Return All and Limit', () => {
	it('one item per result (Simplify: the six fields the service lists), the first page by default', async () => {
		const result = await ctx.run(searchOf(QUERY));
		expect(result.items).toHaveLength(10);
		expect(result.items.map((i) => i.json.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		expect(Object.keys(result.items[0].json)).toEqual(['rank', 'title', 'url', 'siteName', 'displayUrl', 'snippet']);
		expect(result.items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
		expect(searches()).toHaveLength(1);
	});

	it('Simplify off: the query and the page each result came from, too', async () => {
		const result = await ctx.run(searchOf(QUERY, { simplify: false, limit: 12 }));
		expect(result.items[11].json).toMatchObject({ query: QUERY, page: 2, rank: 12 });
	});

	it('Return All reads every page and none past the last the answer shows: each result once, in rank order', async () => {
		const total = totalResults(QUERY);
		const result = await ctx.run(searchOf(QUERY, { returnAll: true }));
		expect(result.items.map((i) => i.json.rank)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
		// The first page is the service's own (no page sent), then 2, 3 and 4, whose answer says it is the last.
		expect(bodies().map((b) => b.page)).toEqual([undefined, 2, 3, 4]);
		expect(hintsOf(result)).toEqual([]);
	});

	it('an answer that says nothing of its end: Return All reads on to the empty page after the last (one more request)', async () => {
		ctx.searchHost.paging = 'unmarked';
		const result = await ctx.run(searchOf(QUERY, { returnAll: true }));
		expect(result.items).toHaveLength(totalResults(QUERY));
		expect(bodies().map((b) => b.page)).toEqual([undefined, 2, 3, 4, 5]);
	});

	it('a page with fewer results than usual proves nothing: the walk goes on while the answer says more follow', async () => {
		// Google shortens a page it filtered: page 2 comes with 3 of its 10 results, and says more follow.
		ctx.searchHost.server.afterHandle = (request, reply) => {
			const body = reply.json as { data: { results: unknown[] } };
			if ((request.body as IDataObject).page !== 2) return reply;
			return { ...reply, json: { ...body, data: { ...body.data, results: body.data.results.slice(0, 3) } } };
		};
		for (const paging of ['marked', 'unmarked'] as const) {
			ctx.searchHost.paging = paging;
			ctx.searchHost.server.log.clear();
			const result = await ctx.run(searchOf(QUERY, { returnAll: true }));
			expect(result.items).toHaveLength(totalResults(QUERY) - 7);
			expect(bodies().map((b) => b.page).slice(0, 4)).toEqual([undefined, 2, 3, 4]);
		}
	});

	it.each([
		['a next-page marker that turns null', (page: number, last: number) => ({ nextPage: page < last ? page + 1 : null })],
		['a page count', (_page: number, last: number) => ({ pagination: { totalPages: last } })],
		['a more-flag under pagination', (page: number, last: number) => ({ pagination: { has_more: page < last } })],
		['a count of results', () => ({ total_results: 32 })],
	])('%s ends the walk on the last page, with no page more', async (_name, marks) => {
		ctx.searchHost.paging = 'unmarked';
		ctx.searchHost.server.afterHandle = (request, reply) => {
			const body = reply.json as { data: IDataObject };
			const page = ((request.body as IDataObject).page as number | undefined) ?? 1;
			return { ...reply, json: { ...body, data: { ...body.data, ...marks(page, 4) } } };
		};
		const result = await ctx.run(searchOf(QUERY, { returnAll: true }));
		expect(result.items).toHaveLength(32);
		expect(bodies().map((b) => b.page)).toEqual([undefined, 2, 3, 4]);
	});

	it("Return All stops at Max Pages (10 unless raised) and says more pages were left; version 3.1 reads to the end, as it did", async () => {
		const capped = await ctx.run(searchOf(QUERY, { returnAll: true, maxPages: 2 }));
		expect(capped.items).toHaveLength(20);
		expect(bodies().map((b) => b.page)).toEqual([undefined, 2]);
		expect(hintsOf(capped)).toEqual([`Read 2 result pages of "${QUERY}", its 'Max Pages': more pages may follow. Raise 'Max Pages' to read them (each page uses plan tokens).`]);
		ctx.searchHost.server.log.clear();
		const exact = await ctx.run(searchOf(QUERY, { returnAll: true, maxPages: 4 }));
		expect(exact.items).toHaveLength(32);
		expect(hintsOf(exact)).toEqual([]);
		ctx.searchHost.server.log.clear();
		const older = await ctx.run(searchOf(QUERY, { returnAll: true, maxPages: 2 }), { typeVersion: 3.1 });
		expect(older.items).toHaveLength(32);
		expect(hintsOf(older)).toEqual([]);
	});

	it.each([0, 101, 2.5])('Max Pages %s is refused naming the field, before any page is read', async (maxPages) => {
		const result = await ctx.run(searchOf(QUERY, { returnAll: true, maxPages }));
		expect(result.error?.message).toMatch(/^Invalid 'Max Pages': /);
		expect(searches()).toHaveLength(0);
	});

	it('Limit reads no page more than it needs', async () => {
		const result = await ctx.run(searchOf(QUERY, { limit: 25 }));
		expect(result.items.map((i) => i.json.rank)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
		expect(bodies().map((b) => b.page)).toEqual([undefined, 2, 3]);
	});

	it('Return All from Page 3: the walk starts there, and page 3 is sent', async () => {
		const total = totalResults(QUERY);
		const result = await ctx.run(searchOf(QUERY, { returnAll: true, options: { page: 3 } }));
		expect(result.items[0].json.rank).toBe(21);
		expect(result.items).toHaveLength(total - 20);
		expect(bodies()[0].page).toBe(3);
	});

	it('no results: no items, one request', async () => {
		const result = await ctx.run(searchOf(`nothing ${EMPTY_MARKER}`, { returnAll: true }));
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		expect(searches()).toHaveLength(1);
	});

	it("Whole Answer: one item per page read, the service's answer as it is", async () => {
		const result = await ctx.run(searchOf(QUERY, { limit: 15, options: { outputAs: 'answer', renderJs: true } }));
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json).toMatchObject({ success: true, data: { query: QUERY, page: 1, aiOverview: expect.any(String) } });
		expect((result.items[1].json.data as IDataObject).page).toBe(2);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it("Whole Answer of a search without results: the one answer, so the item says so", async () => {
		const result = await ctx.run(searchOf(`none ${EMPTY_MARKER}`, { options: { outputAs: 'answer' } }));
		expect(result.items).toHaveLength(1);
		expect((result.items[0].json.data as IDataObject).results).toEqual([]);
	});

	it('Whole Answer of an answer that is only the result list: the list comes under results, so the item is an object', async () => {
		// The public facts show the answer may be `[{rank, ...}]`; the simulator answers an object, so it is rewritten.
		ctx.searchHost.server.afterHandle = (_request, reply) => ({ ...reply, json: ((reply.json as IDataObject).data as IDataObject).results });
		const result = await ctx.run(searchOf(QUERY, { options: { outputAs: 'answer' } }));
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => Array.isArray(i.json))).toEqual([false]);
		expect((result.items[0].json.results as IDataObject[]).map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
	});

	it("Result Page HTML: format html, one request for the page chosen, Google's page as text", async () => {
		const result = await ctx.run(searchOf('hiking', { returnAll: true, options: { outputAs: 'html', page: 2 } }));
		expect(bodies()).toEqual([{ query: 'hiking', page: 2, format: 'html' }]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toEqual({ query: 'hiking', page: 2, html: expect.stringContaining('<title>hiking - Google Search</title>') });
	});

	it('a service that answers every page with the first one: Return All stops at the first repeat, naming it', async () => {
		let first: unknown;
		ctx.searchHost.server.afterHandle = (_request, reply) => {
			first ??= reply.json;
			return { ...reply, json: first };
		};
		const result = await ctx.run(searchOf(QUERY, { returnAll: true }));
		expect(result.error?.message).toBe(`The Google result list for "${QUERY}" is not advancing: page 2 held only records already read [item 0]`);
		expect(result.error?.description).toMatch(/Turn off 'Return All' and set 'Limit' to 10 or fewer/);
		expect(searches()).toHaveLength(2);
	});

	it('an answer without a result list is not taken for an empty search', async () => {
		ctx.searchHost.server.afterHandle = () => ({ status: 200, json: { success: false, message: 'Captcha page' } });
		const result = await ctx.run(searchOf('tea'));
		expect(result.error?.message).toBe('The Google search for "tea" was answered without a result list: Captcha page [item 0]');
		expect(result.error?.description).toMatch(/set 'Output As' to 'Whole Answer' to see what the service sent/);
		// As the message advises: Whole Answer outputs that answer as it is, and reads no further page.
		ctx.searchHost.server.log.clear();
		const whole = await ctx.run(searchOf('tea', { returnAll: true, options: { outputAs: 'answer' } }));
		expect(whole.error).toBeUndefined();
		expect(whole.items.map((item) => item.json)).toEqual([{ success: false, message: 'Captcha page' }]);
		expect(ctx.searchHost.server.log.count()).toBe(1);
	});
});

describe('a search uses plan tokens: never sent twice after a 5xx or a lost connection', () => {
	it('Google not answering in time (504): one request, the search may have used tokens', async () => {
		const result = await ctx.run(searchOf(`slow ${TIMEOUT_MARKER}`));
		expect(result.error?.message).toBe(`Scraper Platform answered 504 (Google did not answer within 60 s): the Google search for "slow ${TIMEOUT_MARKER}" may have run and used tokens [item 0]`);
		expect(searches()).toHaveLength(1);
	});

	it('a 500 on page 2 of Return All: page 2 is not asked again, and the message names it', async () => {
		ctx.searchHost.server.beforeHandle = (request) => {
			if ((request.body as IDataObject).page === 2) ctx.searchHost.server.faults.add({ kind: 'status', status: 500, times: 1 });
		};
		try {
			const result = await ctx.run(searchOf(QUERY, { returnAll: true }));
			expect(result.error?.message).toBe(`Scraper Platform answered 500 (An unexpected error occurred): the Google search for "${QUERY}" (page 2) may have run and used tokens [item 0]`);
			expect(bodies().map((b) => b.page)).toEqual([undefined, 2]);
		} finally {
			ctx.searchHost.server.beforeHandle = undefined;
		}
	});

	it('a reset: one request', async () => {
		ctx.searchHost.server.faults.add({ kind: 'reset', times: 1 });
		const result = await ctx.run(searchOf('tea'));
		expect(result.error?.message).toMatch(/^The connection to Scraper Platform ended before its answer .*: the Google search for "tea" may have run and used tokens/);
		expect(searches()).toHaveLength(1);
	});

	it('a 429 is retried after its Retry-After', async () => {
		ctx.searchHost.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 0, times: 1 });
		const result = await ctx.run(searchOf('tea'));
		expect(result.error).toBeUndefined();
		expect(searches().map((r) => r.status)).toEqual([429, 200]);
	});
});
