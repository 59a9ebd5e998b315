import { FETCH_ROUTES, FetchSimulator, TIMEOUT_MARKER } from '../../simulator/platform/fetch';
import { PLATFORM_DEMO_TOKEN, PLATFORM_EXPIRED_TOKEN, PlatformSimulator, RETRY_AFTER_CONCURRENCY_SECONDS } from '../../simulator/platform';
import { callPlatform } from '../../simulator/platform/client';

/** The page fetch with the API token, on a host of its own next to the platform (public facts, "Token page fetch"). */

const platform = new PlatformSimulator();
const host = new FetchSimulator(platform);

beforeAll(async () => {
	await platform.listen();
	await host.listen();
});
afterAll(async () => {
	await host.close();
	await platform.close();
});
beforeEach(() => host.reset());

async function fetchPage(query: Record<string, string>, token: string | null = PLATFORM_DEMO_TOKEN, headers?: Record<string, string>) {
	const url = new URL('/', host.url);
	for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
	const response = await fetch(url, { headers: headers ?? (token === null ? {} : { 'x-api-token': token }) });
	return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('GET /?url=…', () => {
	it("answers the page's HTML as text, with what it cost in headers", async () => {
		const answer = await fetchPage({ url: 'https://shop.example.com/products' });
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
		expect(answer.text).toMatch(/^<!DOCTYPE html><html><head><title>Products \| shop\.example\.com<\/title>/);
		expect(Number(answer.headers.get('token_usage'))).toBeGreaterThan(0);
		expect(Number(answer.headers.get('bandwidth_usage'))).toBe(Buffer.byteLength(answer.text) * 4);
		expect(Number(answer.headers.get('runtime'))).toBeGreaterThan(0);
		expect(answer.headers.get('x-status-code')).toBe('200');
		expect(answer.headers.get('x-result-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(host.server.log.for(FETCH_ROUTES.fetch)).toHaveLength(1);
	});

	it('a browser costs more and marks the page; blocked resources lower the bandwidth; the token cap caps the tokens', async () => {
		const url = 'https://shop.example.com/a';
		const plain = await fetchPage({ url });
		const rendered = await fetchPage({ url, browserRendering: 'true', blockResources: 'true' });
		expect(rendered.text).toContain('<html data-rendered="browser">');
		expect(Number(rendered.headers.get('token_usage'))).toBe(5 * Number(plain.headers.get('token_usage')));
		expect(Number(rendered.headers.get('bandwidth_usage'))).toBe(Buffer.byteLength(rendered.text));
		const capped = await fetchPage({ url, browserRendering: 'true', tokenCap: '1' });
		expect(capped.headers.get('token_usage')).toBe('1');
	});

	it("a target's own status is reported in x-status-code; the fetch itself succeeds", async () => {
		const answer = await fetchPage({ url: 'https://shop.example.com/sim-status-404' });
		expect(answer.status).toBe(200);
		expect(answer.headers.get('x-status-code')).toBe('404');
		expect(answer.text).toContain('<h1>404</h1>');
	});

	it('a target that does not load in time: 504 with the navigation timeout of the timeout asked for', async () => {
		const answer = await fetchPage({ url: `https://slow.example.com/${TIMEOUT_MARKER}`, timeout: '12' });
		expect(answer.status).toBe(504);
		expect(JSON.parse(answer.text)).toEqual({ message: 'Navigation timeout of 12000 ms exceeded', error: 'Gateway Timeout', statusCode: 504 });
		expect(answer.headers.get('runtime')).toBe('12');
	});

	it("spends the account's tokens: the subscription account counts them", async () => {
		const before = await callPlatform<{ tokenUsage: number }>(platform.url, 'GET', '/api/v1/subscription-accounts');
		const answer = await fetchPage({ url: 'https://shop.example.com/count' });
		const after = await callPlatform<{ tokenUsage: number }>(platform.url, 'GET', '/api/v1/subscription-accounts');
		expect(after.body.data.tokenUsage - before.body.data.tokenUsage).toBe(Number(answer.headers.get('token_usage')));
	});
});

describe('documented failures', () => {
	it.each([
		['no token', null, 'Invalid or missing API token'],
		['an unknown token', 'not-a-token', 'Invalid or missing API token'],
		['an expired token', PLATFORM_EXPIRED_TOKEN, 'Unauthorized access'],
	])('401 for %s', async (_name, token, message) => {
		const answer = await fetchPage({ url: 'https://shop.example.com/' }, token);
		expect(answer.status).toBe(401);
		expect(JSON.parse(answer.text).message).toBe(message);
	});

	it('takes the token as Authorization: Bearer too, as the vendor\'s clients send it to this host', async () => {
		const bearer = await fetchPage({ url: 'https://shop.example.com/' }, null, { authorization: `Bearer ${PLATFORM_DEMO_TOKEN}` });
		expect(bearer.status).toBe(200);
		const unknown = await fetchPage({ url: 'https://shop.example.com/' }, null, { authorization: 'Bearer not-a-token' });
		expect(unknown.status).toBe(401);
		const notBearer = await fetchPage({ url: 'https://shop.example.com/' }, null, { authorization: PLATFORM_DEMO_TOKEN });
		expect(notBearer.status).toBe(401);
	});

	it.each([
		['no url', {}, 'url is required'],
		['an ftp url', { url: 'ftp://files.example.com/a' }, 'url must be a valid http or https URL'],
		['timeout 0', { timeout: '0' }, 'timeout must be an integer from 1 to 300'],
		['timeout 2.5', { timeout: '2.5' }, 'timeout must be an integer from 1 to 300'],
		['maxRetries 11', { maxRetries: '11' }, 'maxRetries must be an integer from 0 to 10'],
		['tokenCap 10001', { tokenCap: '10001' }, 'tokenCap must be an integer from 1 to 10000'],
		['geoCode usa', { geoCode: 'usa' }, 'geoCode must be a two-letter country code'],
		['homePage yes', { homePage: 'yes' }, 'homePage must be true or false'],
		['a selector of 1001 characters', { waitForSelector: 'x'.repeat(1001) }, 'waitForSelector must be 1 to 1000 characters'],
	])('400 naming the field: %s', async (name, query, message) => {
		const url = name === 'no url' ? {} : { url: 'https://a.example.com/' };
		const answer = await fetchPage({ ...url, ...query } as Record<string, string>);
		expect(answer.status).toBe(400);
		expect(JSON.parse(answer.text)).toEqual({ message, error: 'Bad Request', statusCode: 400 });
	});

	it("429 with Retry-After past the account's rate window, which it shares with the platform's write endpoints", async () => {
		const token = platform.addApiToken(PLATFORM_DEMO_TOKEN, 'fetch-rate');
		platform.setAccountLimits(token, { rateLimit: 2, rateTtl: 60 });
		try {
			const created = await callPlatform(platform.url, 'POST', '/api/v1/scrapers-ai', { token, body: { url: 'https://a.example.com/', prompt: 'Title' } });
			expect(created.status).toBe(200);
			expect((await fetchPage({ url: 'https://a.example.com/1' }, token)).status).toBe(200);
			const limited = await fetchPage({ url: 'https://a.example.com/2' }, token);
			expect(limited.status).toBe(429);
			expect(JSON.parse(limited.text)).toEqual({ message: 'Too many requests. Please try again later.' });
			expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
		} finally {
			platform.setAccountLimits(token, { rateLimit: 600, rateTtl: 60 });
		}
	});

	it("429 at the account's concurrency limit, Retry-After 1", async () => {
		const token = platform.addApiToken(PLATFORM_DEMO_TOKEN, 'fetch-concurrency');
		platform.setAccountLimits(token, { concurrency: 1 });
		host.latencyMs[FETCH_ROUTES.fetch] = 200;
		try {
			const answers = await Promise.all([fetchPage({ url: 'https://a.example.com/x' }, token), fetchPage({ url: 'https://a.example.com/y' }, token)]);
			expect(answers.map((a) => a.status).sort()).toEqual([200, 429]);
			expect(answers.find((a) => a.status === 429)?.headers.get('retry-after')).toBe(String(RETRY_AFTER_CONCURRENCY_SECONDS));
		} finally {
			platform.setAccountLimits(token, { concurrency: null });
		}
	});

	it("injected faults are the fetch host's own and answer with the platform's bodies", async () => {
		host.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 3, times: 1, routes: [FETCH_ROUTES.fetch] });
		const limited = await fetchPage({ url: 'https://a.example.com/' });
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toBe('3');
		expect(JSON.parse(limited.text)).toEqual({ message: 'Too many requests. Please try again later.' });
		expect((await callPlatform(platform.url, 'GET', '/api/v1/subscription-accounts')).status).toBe(200);
		expect((await fetchPage({ url: 'https://a.example.com/' })).status).toBe(200);
	});
});

describe("the vendor node's form and content (public facts, \"Page fetch, second form\")", () => {
	it('POST / with {url, maxRetries, tokenCap, homePage} in the body and the rest in the query, Bearer alone', async () => {
		const url = new URL('/', host.url);
		url.searchParams.set('markdown', 'true');
		url.searchParams.set('html', 'false');
		const response = await fetch(url, {
			method: 'POST',
			headers: { authorization: `Bearer ${PLATFORM_DEMO_TOKEN}`, 'content-type': 'application/json' },
			body: JSON.stringify({ url: 'https://shop.example.com/products', maxRetries: 3, tokenCap: 30, homePage: false }),
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^application\/json/);
		const body = (await response.json()) as Record<string, unknown>;
		expect(body).toMatchObject({ html: '', markdown: expect.stringMatching(/^# Products\n/), screenshot: null, error: null, token_usage: expect.any(Number) });
		expect(host.server.log.for(FETCH_ROUTES.fetchPost)).toHaveLength(1);
	});

	it('a request with neither header is 401, on either form', async () => {
		expect((await fetchPage({ url: 'https://a.example.com/' }, null)).status).toBe(401);
		const post = await fetch(new URL('/', host.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://a.example.com/' }) });
		expect(post.status).toBe(401);
	});

	it('screenshots are real images: top a JPEG, full a PNG', async () => {
		for (const [kind, magic] of [['top', 'ffd8ff'], ['full', '89504e470d0a1a0a']] as const) {
			const answer = await fetchPage({ url: 'https://shop.example.com/', screenshot: kind });
			const { screenshot } = JSON.parse(answer.text) as { screenshot: string };
			expect(Buffer.from(screenshot, 'base64').subarray(0, magic.length / 2).toString('hex')).toBe(magic);
		}
	});

	it('a PDF is sent as the file; a Latin-1 page in Latin-1 bytes, declared', async () => {
		const pdf = await fetch(`${host.url}/?url=${encodeURIComponent('https://docs.example.com/a.pdf')}`, { headers: { 'x-api-token': PLATFORM_DEMO_TOKEN } });
		expect(pdf.headers.get('content-type')).toBe('application/pdf');
		expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
		const latin = await fetch(`${host.url}/?url=${encodeURIComponent('https://old.example.com/sim-charset-iso-8859-1')}`, { headers: { 'x-api-token': PLATFORM_DEMO_TOKEN } });
		expect(latin.headers.get('content-type')).toBe('text/html; charset=iso-8859-1');
		expect(Buffer.from(await latin.arrayBuffer()).includes(Buffer.from('Café', 'latin1'))).toBe(true);
	});

	it.each([
		[{ screenshot: 'side' }, 'screenshot must be one of full, top'],
		[{ waitUntil: 'soon' }, 'waitUntil must be one of domcontentloaded, load, networkidle'],
		[{ markdown: 'yes' }, 'markdown must be true or false'],
		[{ proxyCountry: 'usa' }, 'proxyCountry must be a two-letter country code'],
	])('%j is refused with 400 naming it', async (query, message) => {
		const answer = await fetchPage({ url: 'https://a.example.com/', ...query });
		expect(answer.status).toBe(400);
		expect(answer.text).toContain(message);
	});
});
