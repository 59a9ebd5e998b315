import type { IDataObject } from 'n8n-workflow';

import { runNode, X402_PACKAGE_NAME } from '../../harness';
import { PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { FETCH_ROUTES, TIMEOUT_MARKER } from '../../simulator/platform/fetch';
import { useTokenHosts } from '../tokenHosts';

/** Scraper Platform > Page > Fetch with the API token, through n8n's engine against the simulated fetch host. */

const ctx = useTokenHosts();
const fetchOf = (url: string, extra: IDataObject = {}): IDataObject => ({ resource: 'page', operation: 'fetch', url, ...extra });
const fetches = () => ctx.fetchHost.server.log.for(FETCH_ROUTES.fetch);

/** The query parameters in the order the public facts show them. */
const FACTS_ORDER = ['url', 'timeout', 'geoCode', 'browserRendering', 'waitForSelector', 'homePage', 'blockResources', 'maxRetries', 'tokenCap'];

describe('what is sent', () => {
	it('a URL alone: GET {fetch host}/?url=… with the token, nothing the user did not set', async () => {
		const result = await ctx.run(fetchOf('https://shop.example.com/products'));
		expect(result.error).toBeUndefined();
		const [request] = fetches();
		expect(fetches()).toHaveLength(1);
		expect(request.path).toBe('/');
		expect(request.query).toEqual({ url: 'https://shop.example.com/products' });
		// Both headers, as the vendor's MCP server and CLI send them to this host.
		expect(request.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(request.headers.authorization).toBe(`Bearer ${PLATFORM_DEMO_TOKEN}`);
		// Nothing went to the platform's own host.
		expect(ctx.platform.server.log.count()).toBe(0);
	});

	it('every option, exactly as the public facts show it, in their order', async () => {
		const options = { timeout: 45, geoCode: 'de', browserRendering: true, waitForSelector: '#main .price', homePage: false, blockResources: true, maxRetries: 0, tokenCap: 50 };
		const result = await ctx.run(fetchOf('https://shop.example.com/a?b=1&c=2', { options }));
		expect(result.error).toBeUndefined();
		const [request] = fetches();
		expect(request.query).toEqual({
			url: 'https://shop.example.com/a?b=1&c=2',
			timeout: '45',
			geoCode: 'de',
			browserRendering: 'true',
			waitForSelector: '#main .price',
			homePage: 'false',
			blockResources: 'true',
			maxRetries: '0',
			tokenCap: '50',
		});
		expect(Object.keys(request.query)).toEqual(FACTS_ORDER);
	});

	it.each([
		['Timeout (Seconds)', { timeout: 300 }, { timeout: '300' }],
		['Country', { geoCode: 'GB' }, { geoCode: 'GB' }],
		['Browser Rendering', { browserRendering: false }, { browserRendering: 'false' }],
		['Wait for Selector', { waitForSelector: '#content' }, { waitForSelector: '#content' }],
		['Visit Home Page First', { homePage: true }, { homePage: 'true' }],
		['Block Resources', { blockResources: false }, { blockResources: 'false' }],
		['Max Retries', { maxRetries: 10 }, { maxRetries: '10' }],
		['Token Cap', { tokenCap: 1 }, { tokenCap: '1' }],
	])('%s alone is sent alone', async (_name, options, sent) => {
		const result = await ctx.run(fetchOf('https://shop.example.com/', { options }));
		expect(result.error).toBeUndefined();
		expect(fetches()[0].query).toEqual({ url: 'https://shop.example.com/', ...sent });
	});

	it("the vendor node's additions, each sent exactly as it sends them, after the first form's fields", async () => {
		const options = { tokenCap: 30, proxyCountry: 'fr', html: false, markdown: true, screenshot: 'top', waitUntil: 'networkidle', returnCookie: true, super: true };
		const result = await ctx.run(fetchOf('https://shop.example.com/', { options }));
		expect(result.error).toBeUndefined();
		const [request] = fetches();
		expect(request.query).toEqual({
			url: 'https://shop.example.com/',
			tokenCap: '30',
			proxyCountry: 'fr',
			html: 'false',
			markdown: 'true',
			screenshot: 'top',
			waitUntil: 'networkidle',
			returnCookie: 'true',
			super: 'true',
		});
		expect(Object.keys(request.query)).toEqual(['url', 'tokenCap', 'proxyCountry', 'html', 'markdown', 'screenshot', 'waitUntil', 'returnCookie', 'super']);
	});

	it.each([
		['Proxy Country', { proxyCountry: 'GB' }, { proxyCountry: 'GB' }],
		['HTML', { html: true }, { html: 'true' }],
		['Markdown', { markdown: false }, { markdown: 'false' }],
		['Screenshot (full page)', { screenshot: 'full' }, { screenshot: 'full' }],
		['Wait Until', { waitUntil: 'domcontentloaded' }, { waitUntil: 'domcontentloaded' }],
		['Return Cookies', { returnCookie: false }, { returnCookie: 'false' }],
		['Super Mode', { super: false }, { super: 'false' }],
	])('%s alone is sent alone', async (_name, options, sent) => {
		const result = await ctx.run(fetchOf('https://shop.example.com/', { options }));
		expect(result.error).toBeUndefined();
		expect(fetches()[0].query).toEqual({ url: 'https://shop.example.com/', ...sent });
	});

	it('the URL sent is the normalised URL that passed the checks', async () => {
		await ctx.run(fetchOf('  HTTPS://Shop.Example.COM/a b  '));
		expect(fetches()[0].query.url).toBe('https://shop.example.com/a%20b');
	});
});

describe('what comes out', () => {
	it('the HTML and what the headers report; Simplify (the default) keeps the six fields a plain fetch has', async () => {
		const result = await ctx.run(fetchOf('https://shop.example.com/products'));
		const [request] = fetches();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(Object.keys(item.json)).toEqual(['url', 'statusCode', 'html', 'tokenUsage', 'runtime', 'resultId']);
		expect(item.json).toMatchObject({ url: 'https://shop.example.com/products', statusCode: 200 });
		expect(item.json.html).toMatch(/^<!DOCTYPE html><html><head><title>Products \| shop\.example\.com<\/title>/);
		expect(item.json.tokenUsage).toEqual(expect.any(Number));
		expect(item.json.tokenUsage).toBeGreaterThan(0);
		expect(item.json.runtime).toBeGreaterThan(0);
		expect(item.json.resultId).toMatch(/^[0-9a-f-]{36}$/);
		expect(request.status).toBe(200);
	});

	it('Simplify off: the bandwidth and content type too', async () => {
		const result = await ctx.run(fetchOf('https://shop.example.com/products', { simplify: false, options: { blockResources: true } }));
		const { json } = result.items[0];
		expect(Object.keys(json)).toEqual(['url', 'statusCode', 'html', 'tokenUsage', 'bandwidthUsage', 'runtime', 'resultId', 'contentType']);
		expect(json.bandwidthUsage).toBe(Buffer.byteLength(json.html as string));
		expect(json.contentType).toBe('text/html');
	});

	it("a page whose own server answered 404 is a fetched page with statusCode 404, not a node error", async () => {
		const result = await ctx.run(fetchOf('https://shop.example.com/sim-status-404'));
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ statusCode: 404, html: expect.stringContaining('<h1>404</h1>') });
	});

	it('a fetched page that is JSON text stays text', async () => {
		ctx.fetchHost.server.afterHandle = (_request, reply) => ({ ...reply, text: '{"a":1}' });
		try {
			const result = await ctx.run(fetchOf('https://api.example.com/data.json'));
			expect(result.items[0].json.html).toBe('{"a":1}');
		} finally {
			ctx.fetchHost.server.afterHandle = undefined;
		}
	});

	it('several items: one page each, paired, in input order', async () => {
		const input = ['a', 'b', 'c'].map((p) => ({ target: `https://shop.example.com/${p}` }));
		const result = await ctx.run(fetchOf('={{ $json.target }}'), { input });
		expect(result.items.map((i) => [i.json.url, i.pairedItem])).toEqual(input.map((x, i) => [x.target, { item: i }]));
	});
});

describe('a fetch uses plan tokens: it is never sent twice after a 5xx or a lost connection', () => {
	it('the target timing out (504): the service said so, the fetch may have used tokens, one request', async () => {
		const result = await ctx.run(fetchOf(`https://slow.example.com/${TIMEOUT_MARKER}`, { options: { timeout: 20 } }));
		expect(result.error?.message).toBe(
			`Scraper Platform answered 504 (Navigation timeout of 20000 ms exceeded): the fetch of https://slow.example.com/${TIMEOUT_MARKER} may have run and used tokens [item 0]`,
		);
		expect(result.error?.description).toMatch(/^The node did not send the request again, so nothing runs twice\. Check the account's token usage \(Account > Get\)/);
		expect(fetches()).toHaveLength(1);
	});

	it.each([
		['a 500', { kind: 'status' as const, status: 500 }],
		['a 502', { kind: 'status' as const, status: 502 }],
		['a connection reset', { kind: 'reset' as const }],
	])('%s: one request', async (_name, fault) => {
		ctx.fetchHost.server.faults.add({ ...fault, times: 1 });
		const result = await ctx.run(fetchOf('https://shop.example.com/once'));
		expect(result.error?.message).toMatch(/the fetch of https:\/\/shop\.example\.com\/once may have run and used tokens \[item 0\]$/);
		expect(fetches()).toHaveLength(1);
	});

	it('a 429 is retried after its Retry-After (the service did not act on it)', async () => {
		ctx.fetchHost.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 0, times: 2 });
		const result = await ctx.run(fetchOf('https://shop.example.com/busy'));
		expect(result.error).toBeUndefined();
		expect(fetches().map((r) => r.status)).toEqual([429, 429, 200]);
	});

	it('the deadline is the page timeout plus 30 s: an answer later than that is given up, never asked again', async () => {
		ctx.fetchHost.server.faults.add({ kind: 'slow', delayMs: 40_000, times: 1 });
		const started = Date.now();
		const result = await ctx.run(fetchOf('https://shop.example.com/slow', { options: { timeout: 1 } }));
		const elapsed = Date.now() - started;
		expect(result.error?.message).toMatch(/^The connection to Scraper Platform ended before its answer \(.*\): the fetch of https:\/\/shop\.example\.com\/slow may have run and used tokens/);
		expect(elapsed).toBeGreaterThanOrEqual(30_500);
		expect(elapsed).toBeLessThan(36_000);
		expect(fetches()).toHaveLength(1);
	}, 60_000);
});

describe('the same rules as the x402 gateway, before anything is sent', () => {
	/** Runs the gateway's Page > Fetch with the same field: it refuses before it reads its wallet or pays anything. */
	async function gatewayRefusal(url: string, field: IDataObject): Promise<string | undefined> {
		const result = await runNode({
			nodeType: `${X402_PACKAGE_NAME}.scraperGateway`,
			parameters: { resource: 'page', operation: 'fetch', url, additionalFields: field as never },
			credentials: { x402WalletApi: { privateKey: '0x' + '1'.repeat(64), baseUrl: 'http://127.0.0.1:9', network: 'custom', customNetwork: 'eip155:31337' } },
		});
		return result.error?.message;
	}

	const cases: Array<[string, string, IDataObject, IDataObject, RegExp]> = [
		['an empty URL', '={{ "" }}', {}, {}, /^Invalid 'URL': it is required/],
		['an ftp URL', 'ftp://example.com/file.txt', {}, {}, /only http and https URLs are allowed, got "ftp"/],
		['a user and password in the URL', 'https://user:secret@example.com/', {}, {}, /^Invalid 'URL': the URL: it must not contain a user name or password/],
		['a loopback address', 'http://127.0.0.1/', {}, {}, /127\.0\.0\.1 is a loopback address/],
		['a private address in decimal', 'http://3232235777/', {}, {}, /192\.168\.1\.1 is a private address/],
		['cloud metadata', 'http://169.254.169.254/latest/', {}, {}, /is a link-local address/],
		['an IPv6 literal', 'http://[::1]/', {}, {}, /IPv6 address literals are not allowed/],
		['a backslash', 'https://example.com\\@evil.com/', {}, {}, /contains a backslash/],
		['timeout 0', 'https://example.com/', { timeout: 0 }, { timeout: 0 }, /^Invalid 'Timeout \(Seconds\)': 0 is out of range from 1 to 300/],
		['timeout 301', 'https://example.com/', { timeout: 301 }, { timeout: 301 }, /^Invalid 'Timeout \(Seconds\)': 301 is out of range from 1 to 300/],
		['timeout 2.5', 'https://example.com/', { timeout: 2.5 }, { timeout: 2.5 }, /^Invalid 'Timeout \(Seconds\)': it must be a whole number/],
		['max retries -1', 'https://example.com/', { maxRetries: -1 }, { maxRetries: -1 }, /^Invalid 'Max Retries': -1 is out of range from 0 to 10/],
		['max retries 11', 'https://example.com/', { maxRetries: 11 }, { maxRetries: 11 }, /^Invalid 'Max Retries': 11 is out of range from 0 to 10/],
		['token cap 0', 'https://example.com/', { tokenCap: 0 }, { tokenCap: 0 }, /^Invalid 'Token Cap': 0 is out of range from 1 to 10000/],
		['token cap 10001', 'https://example.com/', { tokenCap: 10001 }, { tokenCap: 10001 }, /^Invalid 'Token Cap': 10001 is out of range from 1 to 10000/],
		['a selector of 1001 characters', 'https://example.com/', { waitForSelector: `#${'a'.repeat(1000)}` }, { waitForSelector: `#${'a'.repeat(1000)}` }, /^Invalid 'Wait for Selector': it is 1001 characters long, the limit is 1000/],
	];

	it.each(cases)('%s: refused naming the field, nothing sent, in the words the gateway uses', async (_name, url, options, gatewayFields, message) => {
		const result = await ctx.run(fetchOf(url, { options }));
		expect(result.error?.message).toMatch(message);
		expect(ctx.requestCount()).toBe(0);
		expect(await gatewayRefusal(url, gatewayFields)).toBe(result.error?.message);
	});

	it.each([
		['Country', { geoCode: 'usa' }, /^Invalid 'Country': "usa" is not a two-letter country code/],
		['Browser Rendering', { browserRendering: '={{ "maybe" }}' }, /^Invalid 'Browser Rendering': it must be true or false, got "maybe"/],
		['Visit Home Page First', { homePage: '={{ 1 }}' }, /^Invalid 'Visit Home Page First': it must be true or false, got 1/],
		['Simplify', { simplify: '={{ "no" }}' }, /^Invalid 'Simplify': it must be true or false/],
		['Proxy Country', { proxyCountry: 'fra' }, /^Invalid 'Proxy Country': "fra" is not a two-letter country code/],
		['HTML', { html: '={{ "off" }}' }, /^Invalid 'HTML': it must be true or false, got "off"/],
		['Markdown', { markdown: '={{ "" }}' }, /^Invalid 'Markdown': it must be true or false/],
		['Screenshot', { screenshot: 'side' }, /^Invalid 'Screenshot': "side" is not one of/],
		['Wait Until', { waitUntil: 'soon' }, /^Invalid 'Wait Until': "soon" is not one of/],
		['Return Cookies', { returnCookie: '={{ 2 }}' }, /^Invalid 'Return Cookies': it must be true or false, got 2/],
		['Super Mode', { super: '={{ null }}' }, /^Invalid 'Super Mode': it must be true or false/],
	])('%s: refused naming the field, nothing sent', async (_name, extra, message) => {
		const parameters = 'simplify' in extra ? fetchOf('https://example.com/', extra) : fetchOf('https://example.com/', { options: extra });
		const result = await ctx.run(parameters);
		expect(result.error?.message).toMatch(message);
		expect(ctx.requestCount()).toBe(0);
	});
});
