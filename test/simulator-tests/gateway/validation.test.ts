import { classifyHost } from '../../simulator/gateway/publicHost';
import { checkPublicUrl, validateFetchRequest, validateSearchRequest } from '../../simulator/gateway/validation';

describe('gateway simulator validation: url host and scheme', () => {
	test.each([
		['https://example.com/page', undefined],
		['http://example.com:8080/a?b=c#d', undefined],
		['https://sub.domain.example.co.uk/', undefined],
		['https://93.184.216.34/', undefined],
		['https://8.8.8.8/', undefined],
		['https://172.32.0.1/', undefined], // just outside 172.16/12
		['https://100.128.0.1/', undefined], // just outside 100.64/10
	])('%s is a public page URL', (url, expected) => {
		expect(checkPublicUrl(url)).toBe(expected);
	});

	test.each([
		// Loopback in every IPv4 spelling WHATWG URL parsing accepts.
		['http://127.0.0.1/', 'loopback'],
		['http://127.1/', 'loopback'],
		['http://2130706433/', 'loopback'],
		['http://0x7f000001/', 'loopback'],
		['http://0x7f.1/', 'loopback'],
		['http://017700000001/', 'loopback'],
		['http://0177.0.0.1/', 'loopback'],
		['http://%31%32%37.0.0.1/', 'loopback'],
		['http://127.255.255.254/', 'loopback'],
		['http://0.0.0.0/', 'unspecified'],
		['http://0/', 'unspecified'],
		['http://10.1.2.3/', 'private'],
		['http://172.16.0.1/', 'private'],
		['http://172.31.255.255/', 'private'],
		['http://192.168.1.1/', 'private'],
		['http://192.168.1/', 'private'],
		['http://100.64.0.1/', 'cgnat'],
		['http://100.127.255.255/', 'cgnat'],
		['http://169.254.169.254/latest/meta-data', 'linkLocal'],
		['http://224.0.0.1/', 'multicast'],
		['http://239.255.255.250/', 'multicast'],
		['http://240.0.0.1/', 'reserved'],
		['http://255.255.255.255/', 'broadcast'],
		['http://192.0.2.10/', 'documentation'],
		['http://198.18.0.1/', 'benchmark'],
		['http://localhost/', 'localhost'],
		['http://LOCALHOST./', 'localhost'],
		['http://api.localhost/', 'localName'],
		['http://printer.local/', 'localName'],
		['http://db.internal/', 'localName'],
		['http://intranet/', 'singleLabel'],
	])('%s is refused as %s', (url, reason) => {
		const issue = checkPublicUrl(url);
		expect(issue).toMatchObject({ field: 'url', rule: 'publicHost' });
		expect(classifyHost(new URL(url).hostname)).toBe(reason);
	});

	test.each(['http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'https://[2606:4700::1111]/', 'http://[fe80::1]/'])(
		'IPv6 literal %s is refused, public or not',
		(url) => {
			expect(checkPublicUrl(url)).toMatchObject({ field: 'url', rule: 'ipv6Literal' });
		},
	);

	test.each([
		['ftp://example.com/file', 'scheme'],
		['file:///etc/passwd', 'scheme'],
		['javascript:alert(1)', 'scheme'],
		['ws://example.com/', 'scheme'],
		['https://user:secret@example.com/', 'credentials'],
		['https://user@example.com/', 'credentials'],
		['example.com/page', 'type'],
		['not a url', 'type'],
		['', 'required'],
	])('%s is refused (%s)', (url, rule) => {
		expect(checkPublicUrl(url)).toMatchObject({ field: 'url', rule });
	});

	test('a missing or non-string url is named', () => {
		expect(checkPublicUrl(undefined)).toMatchObject({ field: 'url', rule: 'required', message: 'url is required' });
		expect(checkPublicUrl(42)).toMatchObject({ field: 'url', rule: 'type' });
	});

	test('the message names the field, the host and the rule', () => {
		expect(checkPublicUrl('http://10.0.0.5/x')?.message).toBe(
			'url must point to a public host: 10.0.0.5 is a private address (10/8, 172.16/12, 192.168/16)',
		);
	});
});

describe('gateway simulator validation: fetch request fields', () => {
	const url = 'https://example.com/';

	test('only url is required; unknown properties are ignored and not passed on', () => {
		const result = validateFetchRequest({ url, somethingElse: 1, nested: { a: 1 } });
		expect(result).toEqual({ ok: true, value: { url } });
	});

	test('every optional field inside its bounds is accepted and kept as given', () => {
		const body = {
			url,
			html: false,
			markdown: true,
			screenshot: false,
			proxyCountry: 'De',
			maxRetries: 0,
			timeout: 300,
			blockResources: true,
			warmStart: false,
			returnCookie: true,
			super: false,
			tokenCap: 10000,
			waitForSelector: 'x'.repeat(1000),
			waitUntil: 'networkidle',
		};
		expect(validateFetchRequest(body)).toEqual({ ok: true, value: body });
	});

	test.each([
		[{ proxyCountry: 'usa' }, 'proxyCountry', 'pattern', 'proxyCountry must match ^[a-zA-Z]{2}$'],
		[{ proxyCountry: 'u1' }, 'proxyCountry', 'pattern', 'proxyCountry must match ^[a-zA-Z]{2}$'],
		[{ proxyCountry: 12 }, 'proxyCountry', 'pattern', 'proxyCountry must match ^[a-zA-Z]{2}$'],
		[{ maxRetries: -1 }, 'maxRetries', 'range', 'maxRetries must be an integer from 0 to 10'],
		[{ maxRetries: 11 }, 'maxRetries', 'range', 'maxRetries must be an integer from 0 to 10'],
		[{ maxRetries: 1.5 }, 'maxRetries', 'range', 'maxRetries must be an integer from 0 to 10'],
		[{ maxRetries: '3' }, 'maxRetries', 'range', 'maxRetries must be an integer from 0 to 10'],
		[{ timeout: 0 }, 'timeout', 'range', 'timeout must be an integer from 1 to 300'],
		[{ timeout: 301 }, 'timeout', 'range', 'timeout must be an integer from 1 to 300'],
		[{ tokenCap: 0 }, 'tokenCap', 'range', 'tokenCap must be an integer from 1 to 10000'],
		[{ tokenCap: 10001 }, 'tokenCap', 'range', 'tokenCap must be an integer from 1 to 10000'],
		[{ waitForSelector: 'x'.repeat(1001) }, 'waitForSelector', 'maxLength', 'waitForSelector must be at most 1000 characters'],
		[{ waitForSelector: 5 }, 'waitForSelector', 'type', 'waitForSelector must be a string'],
		[{ waitUntil: 'idle' }, 'waitUntil', 'enum', 'waitUntil must be one of domcontentloaded, load, networkidle'],
		[{ html: 'yes' }, 'html', 'type', 'html must be a boolean'],
		[{ markdown: 1 }, 'markdown', 'type', 'markdown must be a boolean'],
		[{ screenshot: null }, 'screenshot', 'type', 'screenshot must be a boolean'],
		[{ blockResources: 'true' }, 'blockResources', 'type', 'blockResources must be a boolean'],
		[{ warmStart: 0 }, 'warmStart', 'type', 'warmStart must be a boolean'],
		[{ returnCookie: [] }, 'returnCookie', 'type', 'returnCookie must be a boolean'],
		[{ super: {} }, 'super', 'type', 'super must be a boolean'],
	])('%j is refused naming %s (%s)', (fields, field, rule, message) => {
		const result = validateFetchRequest({ url, ...fields });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.issues).toEqual([{ field, rule, message }]);
	});

	test('every problem is listed, the url first', () => {
		const result = validateFetchRequest({ url: 'http://localhost/', timeout: 0, waitUntil: 'x' });
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.issues.map((i) => i.field)).toEqual(['url', 'timeout', 'waitUntil']);
	});

	test.each([null, [], 'https://example.com', 42])('a body that is not an object (%j) is refused', (body) => {
		expect(validateFetchRequest(body)).toEqual({
			ok: false,
			issues: [{ field: 'body', rule: 'type', message: 'the request body must be a JSON object' }],
		});
	});
});

describe('gateway simulator validation: webSearch request', () => {
	test('defaults: country us, language en, page 1', () => {
		expect(validateSearchRequest({ query: ' coffee grinders ' })).toEqual({
			ok: true,
			value: { query: 'coffee grinders', country: 'us', language: 'en', page: 1 },
		});
	});

	test('country, language (xx or xx-XX) and page are kept', () => {
		expect(validateSearchRequest({ query: 'q', country: 'DE', language: 'de-AT', page: 3 })).toEqual({
			ok: true,
			value: { query: 'q', country: 'de', language: 'de-AT', page: 3 },
		});
	});

	test.each([
		[{}, 'query', 'required'],
		[{ query: '   ' }, 'query', 'required'],
		[{ query: 7 }, 'query', 'type'],
		[{ query: 'q', country: 'usa' }, 'country', 'pattern'],
		[{ query: 'q', language: 'english' }, 'language', 'pattern'],
		[{ query: 'q', language: 'en_US' }, 'language', 'pattern'],
		[{ query: 'q', page: 0 }, 'page', 'range'],
		[{ query: 'q', page: 1.5 }, 'page', 'range'],
		[{ query: 'q', page: '2' }, 'page', 'range'],
	])('%j is refused naming %s', (body, field, rule) => {
		const result = validateSearchRequest(body);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.issues[0]).toMatchObject({ field, rule });
	});
});
