// The URL the gateway checks is exactly the URL it pays for: generated public URLs are paid for and sent as
// `new URL(input.trim()).href`; the same URLs with a control character or a backslash injected, and the known
// parser-confusion spellings, are refused naming the field and the rule, with no request, no signature, no
// settlement and no balance change.
import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';

import { classifyHost } from '../../../nodes/shared/input/publicHosts';
import { runNode } from '../../harness';
import type { RunResult } from '../../harness';
import { brokenRule, httpUrl, injectedInto, parseTrimmed } from '../../shared/input/urls';
import { balances, containsKey, expectNothingLeft, FETCH_ROUTE, PRICE, requestsSince, runText, runTraced, signedRequests, useGateway, walletCredential } from '../support';

const gw = useGateway({ testWalletCount: 1 });
const seen: string[] = [];

const fetchWith = (url: string): INodeParameters => ({ resource: 'page', operation: 'fetch', url, additionalFields: { screenshot: false } });

async function run(url: string): Promise<RunResult> {
	const result = await runNode({ nodeType: 'scraperGateway', credentials: walletCredential(gw.sim, gw.sim.testWallets[0]), parameters: fetchWith(url) });
	seen.push(runText(result));
	return result;
}

/** Runs the node and proves nothing left it: no request, no signature, no settlement, no balance change. */
async function runRejected(url: string): Promise<NonNullable<RunResult['error']>> {
	const trace = await runTraced(gw.sim, fetchWith(url));
	seen.push(runText(trace.result));
	return expectNothingLeft(trace);
}

// Generated URLs -------------------------------------------------------------------------------------------------

/** A public http(s) URL with random case, port, path, query and fragment, maybe wrapped in outer whitespace. */
const publicUrl = httpUrl({ hosts: 'public', comma: true })
	// The simulator's markers (sim-fail, sim-slow) would make it fail the page on purpose.
	.filter((url) => {
		const parsed = parseTrimmed(url);
		return parsed !== undefined && !/sim-/i.test(url) && !/sim-/i.test(parsed.href) && classifyHost(parsed.hostname) === undefined;
	});

/** A public URL with a control character, a backslash or a broken %-escape injected strictly inside it. */
const injectedUrl = injectedInto(publicUrl, { newline: true });

/** What the error must say (see brokenRule), after "it". */
const expectedRule = (url: string) => `it ${brokenRule(url)}`;

// Tests ----------------------------------------------------------------------------------------------------------

describe('Page: Fetch pays for exactly the normalised URL that passed the check', () => {
	const paidCases: string[] = [
		'https://bücher.example/straße?q=ü#teil',
		'  HTTPS://Example.COM:443/a b/%7e?x="1"&y=<2>  ',
		'http://example.com',
		'https://shop.example.org/p/1?ref=a,b@c:d',
	];
	let paid = 0;

	async function expectPaidFor(input: string): Promise<void> {
		const href = new URL(input.trim()).href;
		const wallet = gw.sim.testWallets[0];
		const before = await balances(gw.sim, wallet.address);
		const logStart = gw.sim.server.log.entries.length;
		const settlementsStart = gw.sim.settlements.length;
		const result = await run(input);
		expect(result.error).toBeUndefined();
		// Every request for the item (the unpaid one that learns the price, the paid one) carries the normalised URL.
		const requests = requestsSince(gw.sim, logStart).filter((entry) => entry.route === FETCH_ROUTE);
		expect(requests.length).toBeGreaterThanOrEqual(1);
		for (const request of requests) expect((request.body as { url: unknown }).url).toBe(href);
		expect(signedRequests(gw.sim, logStart)).toHaveLength(1);
		const settlements = gw.sim.settlements.slice(settlementsStart);
		expect(settlements.map((s) => s.target)).toEqual([href]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ url: href, payment: { transaction: settlements[0].transaction } });
		expect(before.payer - (await gw.sim.balanceOf(wallet.address))).toBe(PRICE);
		paid++;
	}

	test.each(paidCases)('fixed case %j', async (input) => {
		await expectPaidFor(input);
	});

	test('generated public URLs (numRuns 15): the request, the settlement and the output carry new URL(input.trim()).href', async () => {
		await fc.assert(fc.asyncProperty(publicUrl, expectPaidFor), { numRuns: 15 });
		expect(paid).toBe(paidCases.length + 15);
	});
});

describe('Page: Fetch refuses what normalising would change, before anything is sent or signed', () => {
	test('generated URLs with a control character, a backslash or a broken escape inside (numRuns 150): named rule, nothing sent', async () => {
		await fc.assert(
			fc.asyncProperty(injectedUrl, async (url) => {
				const error = await runRejected(url);
				expect(error.message).toMatch(/^Invalid 'URL': "/);
				expect(error.message).toContain(expectedRule(url));
				expect(error.description).toMatch(/control characters|%5C|%25/);
			}),
			{ numRuns: 150 },
		);
	});

	const spellings: Array<[string, string, RegExp]> = [
		['backslash before "@" (WHATWG: host a.com, others: b.com)', 'http://example.com\\@evil.example.org/', /it contains a backslash \(\\\) at character 19/],
		['backslashes instead of "//"', 'https:\\\\example.com\\path', /it contains a backslash \(\\\) at character 7/],
		['backslash in the path', 'https://example.com/dir\\file', /it contains a backslash/],
		['NUL inside the host', 'http://example.com\u0000.evil.example.org/', /it contains a control character \(NUL, U\+0000\) at character 19/],
		['tab inside the host (WHATWG drops it)', 'http://exa\tmple.com/', /it contains a control character \(tab, U\+0009\) at character 11/],
		['CR LF inside (header splitting)', 'https://example.com/\r\nHost: evil', /it contains a control character \(carriage return, U\+000D\) at character 21/],
		['DEL at the end', 'https://example.com/\u007f', /it contains a control character \(DEL, U\+007F\) at character 21/],
		['escape character', 'https://example.com/\u001b[31m', /it contains a control character \(U\+001B\)/],
		// Shrunk by fast-check: the simulated gateway took the payment, then its decoder threw on the bare "%".
		['bare "%" at the end of the path', 'https://bücher.com/%', /it has a "%" that does not start a %XX escape at character 20/],
		['"%" before non-hex digits', 'https://example.com/%zz', /it has a "%" that does not start a %XX escape at character 21/],
		['"%" at the end of a query', 'https://example.com/sale?discount=50%', /at character 37/],
		['percent-encoded NUL in the host', 'http://example.com%00.evil.example.org/', /it is not a valid absolute URL/],
		['percent-encoded host', 'http://%65xample.com/', /it has the host "%65xample\.com", which URL parsers read as "example\.com"/],
		['percent-encoded dot', 'https://example%2ecom.evil.example.org/', /which URL parsers read as "example\.com\.evil\.example\.org"/],
		['octal IPv4 read as another public address', 'http://010.8.8.8/', /it has the host "010\.8\.8\.8", which URL parsers read as "8\.8\.8\.8"/],
		['hex IPv4', 'http://0x08.8.8.8/', /read as "8\.8\.8\.8"/],
		['IPv4 as one decimal number', 'http://134744072/', /read as "8\.8\.8\.8"/],
		['IPv4 short form', 'http://8.8.2056/', /read as "8\.8\.8\.8"/],
		['full-width letters (IDN mapping onto ASCII)', 'https://ｅｘａｍｐｌｅ.com/', /it has the host "ｅｘａｍｐｌｅ\.com", which URL parsers read as "example\.com"/],
		['ideographic full stop', 'https://example。com.evil.example.org/', /read as "example\.com\.evil\.example\.org"/],
		['soft hyphen (ignored by IDNA)', 'https://exa\u00admple.com/', /read as "example\.com"/],
		['zero-width space (ignored by IDNA)', 'https://\u200bexample.com/', /read as "example\.com"/],
		['no "//" after the scheme', 'http:example.com/x', /it does not have "\/\/" and a host right after "http:"/],
		['one slash', 'https:/example.com/', /right after "https:"/],
		['three slashes', 'https:///example.com/', /right after "https:"/],
		['two "@" before the host', 'http://user@evil.example.org@example.com/', /it has more than one "@" before the host/],
	];
	test.each(spellings)('%s', async (_label, url, rule) => {
		const error = await runRejected(url);
		expect(error.message).toMatch(/^Invalid 'URL': "/);
		expect(error.message).toMatch(rule);
		expect(error.description).toBeTruthy();
	});

	test('ordinary IDN is accepted and sent as punycode; loopback in any spelling is still reported as loopback', async () => {
		const logStart = gw.sim.server.log.entries.length;
		const result = await run('https://bücher.example/');
		expect(result.error).toBeUndefined();
		expect(requestsSince(gw.sim, logStart).map((r) => (r.body as { url: unknown }).url)).toContain('https://xn--bcher-kva.example/');
		for (const url of ['http://0x7f.1/', 'http://%31%32%37.0.0.1/', 'http://０x7f.1/']) {
			expect((await runRejected(url)).message).toMatch(/127\.0\.0\.1 is a loopback address/);
		}
	});
});

describe('secrets', () => {
	test('the private key never appears in any output, error, request or log line of this file', () => {
		const everything = [...seen, gw.output(), JSON.stringify(gw.sim.server.log.entries)].join('\n');
		expect(containsKey(everything, gw.sim.testWallets[0].privateKey)).toBe(false);
	});
});
