import { DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();
const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];

describe('Manual Scraper > Rerun', () => {
	afterEach(() => {
		ctx.sim.options.rerunStatus = 200;
	});

	it('sends exactly scraperId and url with accept: application/json, and outputs the result record', async () => {
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', scraperId, url: 'https://shop.example.com/item/7' });
		expect(result.error).toBeUndefined();
		const request = ctx.sim.server.log.last(ROUTES.manualRerun);
		expect(request?.body).toEqual({ scraperId, url: 'https://shop.example.com/item/7' });
		expect(request?.headers.accept).toBe('application/json');
		expect(request?.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		const record = result.items[0].json;
		expect(record).toMatchObject({ scraperId, url: 'https://shop.example.com/item/7', status: 'Finished' });
		expect(ctx.sim.getRecord(String(record.id))).toBeDefined();
	});

	it.each([200, 201] as const)('a %i answer is a success (the vendor documents 201)', async (status) => {
		ctx.sim.options.rerunStatus = status;
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', scraperId, url: 'https://shop.example.com/item/8' });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.manualRerun)?.status).toBe(status);
		expect(result.items[0].json.scraperId).toBe(scraperId);
	});

	it('Split Into Items gives one item per record with the result id', async () => {
		const result = await ctx.run({
			resource: 'manualScraper',
			operation: 'rerun',
			scraperId,
			url: 'https://shop.example.com/item/9',
			simplify: true,
			options: { split: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThanOrEqual(1);
	});

	it("an AI scraper gets the service's refusal (422), sent once", async () => {
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', scraperId: DEMO_AI_SCRAPER_IDS.general, url: 'https://shop.example.com/' });
		expect(result.error?.httpCode).toBe('422');
		expect(ctx.sim.server.log.count(ROUTES.manualRerun)).toBe(1);
	});

	it.each([
		['a scraper id that is not a UUID', { scraperId: '12345', url: 'https://shop.example.com/' }, 'Invalid \'Scraper ID\': "12345" is not a UUID [item 0]'],
		['a URL that is not http(s)', { scraperId, url: 'ftp://shop.example.com/' }, /^Invalid 'URL'/],
	])('%s is refused before anything is sent', async (_name, parameters, message) => {
		const result = await ctx.run({ resource: 'manualScraper', operation: 'rerun', ...parameters });
		if (typeof message === 'string') expect(result.error?.message).toBe(message);
		else expect(result.error?.message).toMatch(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});
});

describe("Manual Scraper > Rerun: the vendor's rerun options (public facts, \"Manual rerun options\")", () => {
	const PROXY = ['http://', 'alice', ':', 's3cr3t-proxy-pass', '@proxy.example.com:8080'].join('');
	const rerunOf = (options: Record<string, unknown>) => ({ resource: 'manualScraper', operation: 'rerun', scraperId, url: 'https://shop.example.com/item/1', simplify: false, options });

	it('every option sent exactly as the vendor sends it, in its order: cookies as a list, the paginator as an object, the screenshot as text', async () => {
		const options = {
			maxRetry: 2,
			proxyCountry: 'fr',
			bypassProxy: true,
			cookieJar: 'shop-session',
			cookies: { cookie: [{ name: 'consent', value: 'yes', domain: '.example.com' }, { name: 'lang', value: 'fr', domain: '' }] },
			homePage: true,
			homePageTimeout: 15,
			html: true,
			markdown: false,
			paginator: { settings: { selector: 'a.next', maxPages: 4 } },
			proxy: PROXY,
			record: false,
			returnCookie: false,
			screenshot: true,
			stream: false,
			timeout: 500,
			tokenCap: 0,
		};
		const result = await ctx.run(rerunOf(options));
		expect(result.error).toBeUndefined();
		const body = ctx.sim.server.log.last(ROUTES.manualRerun)?.body as Record<string, unknown>;
		expect(body).toEqual({
			scraperId,
			url: 'https://shop.example.com/item/1',
			...options,
			cookies: [{ name: 'consent', value: 'yes', domain: '.example.com' }, { name: 'lang', value: 'fr' }],
			paginator: { selector: 'a.next', maxPages: 4 },
			screenshot: 'true',
		});
		expect(Object.keys(body)).toEqual(['scraperId', 'url', ...Object.keys(options)]);
		// The proxy is sent, and never comes back out.
		expect(JSON.stringify(result.items)).not.toContain('s3cr3t-proxy-pass');
	});

	it.each([
		['a cookie without a name', { cookies: { cookie: [{ name: ' ', value: 'x' }] } }, /^Invalid 'Cookies \(cookie 1\) > Name': it is required/],
		['a cookie with a bad domain', { cookies: { cookie: [{ name: 'a', value: 'b', domain: 'exa mple.com' }] } }, /^Invalid 'Cookies \(cookie 1\) > Domain': it is not a domain/],
		['a cookie name an expression leaves empty', { cookies: { cookie: [{ name: 'a', value: 'b' }, { name: '={{ "" }}', value: 'c' }] } }, /^Invalid 'Cookies \(cookie 2\) > Name': it is required/],
		['a paginator without a selector', { paginator: { settings: { maxPages: 3 } } }, /^Invalid 'Paginator > Selector': it is required/],
		['a paginator of 0 pages', { paginator: { settings: { selector: 'a.next', maxPages: 0 } } }, /^Invalid 'Paginator > Max Pages': 0 is out of range from 1 to 1000/],
		['a token cap below 0', { tokenCap: -1 }, /^Invalid 'Token Cap': -1 is out of range from 0 to 10000/],
		['a home page timeout of 0', { homePageTimeout: 0 }, /^Invalid 'Home Page Timeout \(Seconds\)': 0 is out of range from 1 to 600/],
		['a screenshot that is no switch', { screenshot: '={{ "full" }}' }, /^Invalid 'Screenshot': it must be true or false/],
	])('%s: refused naming the field, nothing sent', async (_name, options, message) => {
		ctx.sim.server.log.clear();
		const result = await ctx.run(rerunOf(options));
		expect(result.error?.message).toMatch(message);
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('a proxy that is no proxy URL is refused without being quoted', async () => {
		const bad = 'ftp://bob:hunter22@proxy.example.com';
		const result = await ctx.run(rerunOf({ proxy: bad }));
		expect(result.error?.message).toMatch(/^Invalid 'Proxy URL': it is not a proxy URL \(the value is not shown: it may hold a password\)/);
		// Not in the error, nor in the node n8n attaches to it (its parameters hold the value as entered).
		expect(JSON.stringify(result.error)).not.toContain('hunter22');
		expect(ctx.sim.server.log.count(ROUTES.manualRerun)).toBe(0);
	});

	it("a service answer that echoes the proxy does not bring it into the error", async () => {
		ctx.sim.server.afterHandle = (request, reply) =>
			request.route === ROUTES.manualRerun ? { status: 422, json: { message: [`proxy ${PROXY} refused the connection`], error: 'Unprocessable Entity', statusCode: 422 } } : reply;
		try {
			const result = await ctx.run(rerunOf({ proxy: PROXY }));
			expect(result.error?.httpCode).toBe('422');
			expect(JSON.stringify(result.error)).not.toContain('s3cr3t-proxy-pass');
			// The service's words are kept, the proxy masked in them.
			expect(JSON.stringify(result.error)).toContain('proxy •••• refused the connection');
		} finally {
			ctx.sim.server.afterHandle = undefined;
		}
	});

	it("the service refuses what the node would refuse: a malformed paginator or cookie list sent by an expression's bypass is a 422", async () => {
		const direct = await fetch(`${ctx.sim.url}/api/v1/scrapers-manual-rerun`, {
			method: 'POST',
			headers: { 'x-api-token': PLATFORM_DEMO_TOKEN, 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ scraperId, url: 'https://shop.example.com/', paginator: { maxPages: 3 }, cookies: [{ value: 'x' }], screenshot: true }),
		});
		expect(direct.status).toBe(422);
		const text = await direct.text();
		for (const said of ['paginator.selector must be a non-empty string', 'cookies.0.name must be a non-empty string', 'screenshot must be one of: true, false (as text)']) expect(text).toContain(said);
	});
});
