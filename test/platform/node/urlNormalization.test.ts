// The URL that is checked is exactly the URL that is sent: every platform and marketplace URL field shares one rule
// (InputValidator.httpUrl). Generated http(s) URLs are sent as `new URL(input.trim()).href`; the same URLs with a
// control character, a backslash or a broken %-escape injected, and the known parser-confusion spellings, are
// refused naming the field and the rule, and nothing reaches the simulator.
import fc from 'fast-check';

import { withoutItemMark } from '../../harness';
import { brokenRule, httpUrl, injectedInto, parseTrimmed } from '../../shared/input/urls';
import { useMarketplace } from '../../marketplace/helpers';
import { DEMO_MANUAL_SCRAPER_IDS } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';

// Generated URLs -------------------------------------------------------------------------------------------------

/** An http(s) URL with random case, credentials, port, path, query and fragment, maybe wrapped in outer whitespace. */
const anyUrl = httpUrl({ hosts: 'any', comma: false })
	// WHATWG refuses some drawn hosts (the bidi rule across mixed-script labels); the simulators' markers fail on purpose.
	.filter((url) => {
		const href = parseTrimmed(url)?.href;
		return href !== undefined && !/sim-|slow-jobs|few-jobs/i.test(`${url} ${href}`);
	});

const normalised = (url: string) => new URL(url.trim()).href;

/** A URL with a control character, a backslash or a broken %-escape injected strictly inside it. */
const injected = (options: { newline: boolean }) => injectedInto(anyUrl, options);

/** What the error must say after the quoted URL (see brokenRule). */
const expectedRule = (url: string) => `" ${brokenRule(url)}`;

/** Known spellings URL parsers read differently: [what, input, rule after the quoted URL]. */
const SPELLINGS: Array<[string, string, RegExp]> = [
	['backslash before "@" (WHATWG: host a.com, others: b.com)', 'http://a.example.com\\@b.example.org/', /" contains a backslash \(\\\) at character 21$/],
	['backslashes instead of "//"', 'https:\\\\example.com\\path', /" contains a backslash \(\\\) at character 7$/],
	['NUL inside the host', 'http://a.example.com\u0000.b.example.org/', /" contains a control character \(NUL, U\+0000\) at character 21$/],
	['tab inside the scheme (WHATWG drops it)', 'ht\ttps://example.com/', /" contains a control character \(tab, U\+0009\) at character 3$/],
	['line feed inside the host', 'https://exa\nmple.com/', /" contains a control character \(line feed, U\+000A\) at character 12$/],
	['DEL at the end', 'https://example.com/\u007f', /" contains a control character \(DEL, U\+007F\) at character 21$/],
	['bare "%"', 'https://example.com/sale?discount=50%', /" has a "%" that does not start a %XX escape at character 37$/],
	['percent-encoded NUL in the host', 'http://a.example.com%00.b.example.org/', /" is not a valid URL$/],
	['percent-encoded host', 'http://%65xample.com/', /" has the host "%65xample\.com", which URL parsers read as "example\.com"$/],
	['octal IPv4', 'http://010.0.0.1/', /" has the host "010\.0\.0\.1", which URL parsers read as "8\.0\.0\.1"$/],
	['IPv4 short form', 'http://127.1/', /read as "127\.0\.0\.1"$/],
	['IPv4 as one number', 'http://2130706433/', /read as "127\.0\.0\.1"$/],
	['full-width letters', 'https://ｅｘａｍｐｌｅ.com/', /" has the host "ｅｘａｍｐｌｅ\.com", which URL parsers read as "example\.com"$/],
	['ideographic full stop', 'https://a.example。com/', /read as "a\.example\.com"$/],
	['soft hyphen', 'https://exa\u00admple.com/', /read as "example\.com"$/],
	['no "//" after the scheme', 'http:example.com/x', /" does not have "\/\/" and a host right after "http:"$/],
	['three slashes', 'https:///example.com/', /right after "https:"$/],
	['two "@" before the host', 'http://user@b.example.org@example.com/', /" has more than one "@" before the host$/],
];

// Scraper Platform -----------------------------------------------------------------------------------------------

describe('Scraper Platform', () => {
	const ctx = usePlatform({ rateLimit: 100_000 });
	const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];
	const createAndRun = (url: string) => ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url, prompt: 'Titles', agent: 'general' });
	const bulkStart = (urls: string) => ctx.run({ resource: 'bulk', operation: 'start', scraperId, urlSource: 'list', urls });

	async function expectNothingSent(run: () => ReturnType<typeof createAndRun>) {
		const before = ctx.sim.server.log.entries.length;
		const result = await run();
		expect(ctx.sim.server.log.entries.length - before).toBe(0);
		expect(result.error).toBeDefined();
		return withoutItemMark(result.error!);
	}

	describe("AI Scraper > Create and Run 'URL'", () => {
		test.each([
			['https://bücher.example/straße?q=ü#teil', 'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC#teil'],
			['  HTTPS://User:Pa%40ss@Example.COM:443/a b/%7e?x="1"  ', 'https://User:Pa%40ss@example.com/a%20b/%7e?x=%221%22'],
			['http://example.com', 'http://example.com/'],
			['http://[2001:DB8:0:0::1]:8080/x', 'http://[2001:db8::1]:8080/x'],
			['https://shop.example.com/a/./b/../c', 'https://shop.example.com/a/c'],
		])('fixed case %j is sent as %j', async (input, href) => {
			expect(normalised(input)).toBe(href);
			const result = await createAndRun(input);
			expect(result.error).toBeUndefined();
			expect(ctx.sim.server.log.for(ROUTES.createAndRun).map((r) => (r.body as { url: unknown }).url)).toEqual([href]);
		});

		test('generated URLs (numRuns 40): the request carries exactly new URL(input.trim()).href', async () => {
			await fc.assert(
				fc.asyncProperty(anyUrl, async (url) => {
					ctx.sim.server.log.clear();
					const result = await createAndRun(url);
					expect(result.error).toBeUndefined();
					expect(ctx.sim.server.log.for(ROUTES.createAndRun).map((r) => (r.body as { url: unknown }).url)).toEqual([normalised(url)]);
				}),
				{ numRuns: 40 },
			);
		});

		test('generated URLs with a control character, a backslash or a broken escape inside (numRuns 150): named rule, nothing sent', async () => {
			await fc.assert(
				fc.asyncProperty(injected({ newline: true }), async (url) => {
					const error = await expectNothingSent(() => createAndRun(url));
					expect(error.message).toMatch(/^Invalid 'URL': "/);
					expect(error.message.endsWith(expectedRule(url))).toBe(true);
					expect(error.description).toMatch(/control characters|%5C|%25/);
				}),
				{ numRuns: 150 },
			);
		});

		test.each(SPELLINGS)('%s: refused, nothing sent', async (_what, url, rule) => {
			const error = await expectNothingSent(() => createAndRun(url));
			expect(error.message).toMatch(/^Invalid 'URL': "/);
			expect(error.message).toMatch(rule);
			expect(error.description).toBeTruthy();
		});

		test('the message shows control characters escaped and never a password', async () => {
			const error = await expectNothingSent(() => createAndRun('https://user:secret@example.com/a\tb'));
			expect(error.message).toBe('Invalid \'URL\': "https://user:…@example.com/a\\u0009b" contains a control character (tab, U+0009) at character 34');
		});
	});

	describe("Bulk > Start 'URLs'", () => {
		const list = fc.array(anyUrl, { minLength: 1, maxLength: 3 });

		test('generated lists (numRuns 20): the request carries exactly the normalised URLs, in order', async () => {
			await fc.assert(
				fc.asyncProperty(list, async (urls) => {
					ctx.sim.server.log.clear();
					const result = await bulkStart(urls.join('\n'));
					expect(result.error).toBeUndefined();
					expect(ctx.sim.server.log.for(ROUTES.bulk).map((r) => r.body)).toEqual([{ scraperId, urls: urls.map(normalised) }]);
				}),
				{ numRuns: 20 },
			);
		});

		test('generated lists with one entry broken inside (numRuns 60): the entry is named with the rule, nothing sent', async () => {
			// A line break separates entries in this field, so it is not injected here (it is above).
			const broken = fc.tuple(list, fc.nat(), injected({ newline: false })).map(([urls, at, bad]) => {
				const position = at % (urls.length + 1);
				return { urls: [...urls.slice(0, position), bad, ...urls.slice(position)], position, bad };
			});
			await fc.assert(
				fc.asyncProperty(broken, async ({ urls, position, bad }) => {
					const error = await expectNothingSent(() => bulkStart(urls.join('\n')));
					expect(error.message.startsWith(`Invalid 'URLs (entry ${position + 1})': "`)).toBe(true);
					expect(error.message.endsWith(expectedRule(bad))).toBe(true);
				}),
				{ numRuns: 60 },
			);
		});
	});
});

// Scraper Marketplace --------------------------------------------------------------------------------------------

describe("Scraper Marketplace: Job Board > Scrape 'URLs'", () => {
	const ctx = useMarketplace();
	const scrape = (urls: string) => ctx.run({ resource: 'jobBoard', operation: 'scrape', urls, min: 1, max: 1 });
	const list = fc.array(anyUrl, { minLength: 1, maxLength: 3 });

	test('generated lists (numRuns 20): the request carries exactly the normalised URLs, in order', async () => {
		await fc.assert(
			fc.asyncProperty(list, async (urls) => {
				const before = ctx.sim.server.log.entries.length;
				const result = await scrape(urls.join('\n'));
				expect(result.error).toBeUndefined();
				const requests = ctx.sim.server.log.entries.slice(before);
				expect(requests.map((r) => (r.body as { urls: unknown }).urls)).toEqual([urls.map(normalised)]);
			}),
			{ numRuns: 20 },
		);
	});

	test('generated URLs broken inside (numRuns 60), and the known spellings: named rule, nothing sent', async () => {
		const check = async (url: string, rule: string | RegExp) => {
			const before = ctx.sim.server.log.entries.length;
			const result = await scrape(url);
			expect(ctx.sim.server.log.entries.length - before).toBe(0);
			const { message } = withoutItemMark(result.error!);
			expect(message).toMatch(/^Invalid 'URLs': "/);
			if (typeof rule === 'string') expect(message.endsWith(rule)).toBe(true);
			else expect(message).toMatch(rule);
		};
		await fc.assert(
			fc.asyncProperty(injected({ newline: false }), async (url) => await check(url, expectedRule(url))),
			{ numRuns: 60 },
		);
		// A line break separates entries in this field: that spelling is checked on the single URL field above.
		for (const [, url, rule] of SPELLINGS.filter(([, url]) => !url.includes('\n'))) await check(url, rule);
	});
});
