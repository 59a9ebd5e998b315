import type { ICredentialDataDecryptedObject, ICredentialTestFunctions, IDataObject, INodeParameters, INodeType } from 'n8n-workflow';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { allText, loadPackage, runNode, X402_PACKAGE_NAME } from '../../harness';
import type { RunResult } from '../../harness';
import { containsKey, expectNothingLeft, runText, runTraced, useGateway, walletCredential } from '../support';

const gw = useGateway({ testWalletCount: 1 });
const seen: string[] = [];

/**
 * Runs the node and proves nothing left it: no request at the gateway, no settlement, no balance change.
 * Returns the error the node stopped with.
 */
async function runRejected(parameters: INodeParameters, credentialOverrides: ICredentialDataDecryptedObject = {}): Promise<NonNullable<RunResult['error']>> {
	const trace = await runTraced(gw.sim, parameters, credentialOverrides);
	seen.push(runText(trace.result));
	return expectNothingLeft(trace);
}

const fetchWith = (url: string, additionalFields: IDataObject = {}): INodeParameters => ({ resource: 'page', operation: 'fetch', url, additionalFields: additionalFields as INodeParameters });

describe('Page: Fetch rejects invalid input before any request and any signature', () => {
	const badUrls: Array<[string, string, RegExp]> = [
		['empty (from an expression)', '={{ "" }}', /^Invalid 'URL': it is required/],
		['not a URL', 'example dot com', /^Invalid 'URL': "example dot com": it is not a valid absolute URL/],
		['ftp scheme', 'ftp://example.com/file.txt', /only http and https URLs are allowed, got "ftp"/],
		['file scheme', 'file:///etc/passwd', /only http and https URLs are allowed, got "file"/],
		['credentials', 'https://user:secret@example.com/private', /^Invalid 'URL': the URL: it must not contain a user name or password/],
		['user only', 'https://user@example.com/', /must not contain a user name or password/],
		['localhost', 'http://localhost:8080/admin', /localhost is localhost/],
		['localhost subdomain', 'http://app.localhost/', /is a local-network name/],
		['.local name', 'http://printer.local/status', /is a local-network name/],
		['.internal name', 'https://metadata.google.internal/computeMetadata', /is a local-network name/],
		['single-label name', 'http://intranet/wiki', /is a single-label \(intranet\) name/],
		['loopback', 'http://127.0.0.1/', /127\.0\.0\.1 is a loopback address/],
		['loopback, other address', 'http://127.45.6.7:9000/', /is a loopback address/],
		['IPv4 as decimal integer', 'http://2130706433/', /127\.0\.0\.1 is a loopback address/],
		['IPv4 in hex', 'http://0x7f.0.0.1/', /127\.0\.0\.1 is a loopback address/],
		['IPv4 as one hex number', 'http://0x7f000001/', /127\.0\.0\.1 is a loopback address/],
		['IPv4 in octal', 'http://0177.0.0.1/', /127\.0\.0\.1 is a loopback address/],
		['IPv4 short form', 'http://127.1/', /127\.0\.0\.1 is a loopback address/],
		['IPv4 percent-encoded', 'http://%31%32%37.0.0.1/', /127\.0\.0\.1 is a loopback address/],
		['private 10/8', 'http://10.1.2.3/', /10\.1\.2\.3 is a private address/],
		['private 172.16/12', 'http://172.20.0.5/', /is a private address/],
		['private 192.168/16 in decimal', 'http://3232235777/', /192\.168\.1\.1 is a private address/],
		['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
		['CGNAT', 'http://100.64.12.1/', /100\.64\.12\.1 is a carrier-grade NAT address/],
		['unspecified', 'http://0.0.0.0/', /is an unspecified/],
		['broadcast', 'http://255.255.255.255/', /is the broadcast address/],
		['multicast', 'http://239.1.2.3/', /is a multicast address/],
		['documentation range', 'http://192.0.2.10/', /is a documentation address/],
		['IPv6 loopback', 'http://[::1]/', /IPv6 address literals are not allowed/],
		['IPv6 unique-local', 'http://[fd12:3456::1]/', /IPv6 address literals are not allowed/],
		['IPv6 link-local', 'http://[fe80::1]/', /IPv6 address literals are not allowed/],
		['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]/', /IPv6 address literals are not allowed/],
		['public IPv6 literal', 'https://[2606:4700:4700::1111]/', /IPv6 address literals are not allowed/],
	];
	test.each(badUrls)('URL: %s', async (_label, url, message) => {
		const error = await runRejected(fetchWith(url));
		expect(error.message).toMatch(message);
		expect(error.message).toMatch(/^Invalid 'URL'/);
		expect(error.description).toMatch(url.startsWith('=') ? /Enter a value for 'URL'/ : /public web page/);
		// The message and description never repeat a URL's password.
		expect(`${error.message}\n${error.description}`).not.toContain('secret');
	});

	const badFields: Array<[string, IDataObject, RegExp]> = [
		['proxyCountry of three letters', { proxyCountry: 'usa' }, /^Invalid 'Proxy Country': "usa" is not a two-letter country code \(\^\[a-zA-Z\]\{2\}\$\)/],
		['proxyCountry with a digit', { proxyCountry: 'u1' }, /^Invalid 'Proxy Country'/],
		['maxRetries below 0', { maxRetries: -1 }, /^Invalid 'Max Retries': -1 is out of range from 0 to 10/],
		['maxRetries above 10', { maxRetries: 11 }, /^Invalid 'Max Retries': 11 is out of range from 0 to 10/],
		['maxRetries not whole', { maxRetries: 2.5 }, /^Invalid 'Max Retries': it must be a whole number/],
		['timeout 0', { timeout: 0 }, /^Invalid 'Timeout \(Seconds\)': 0 is out of range from 1 to 300/],
		['timeout 301', { timeout: 301 }, /^Invalid 'Timeout \(Seconds\)': 301 is out of range from 1 to 300/],
		['tokenCap 0', { tokenCap: 0 }, /^Invalid 'Token Cap': 0 is out of range from 1 to 10000/],
		['tokenCap 10001', { tokenCap: 10001 }, /^Invalid 'Token Cap': 10001 is out of range from 1 to 10000/],
		['waitForSelector over 1000 characters', { waitForSelector: `#${'a'.repeat(1000)}` }, /^Invalid 'Wait for Selector': it is 1001 characters long, the limit is 1000/],
		['waitUntil outside the enum', { waitUntil: 'idle' }, /^Invalid 'Wait Until': "idle" is not one of domcontentloaded, load, networkidle/],
	];
	test.each(badFields)('%s', async (_label, additionalFields, message) => {
		const error = await runRejected(fetchWith('https://example.com/page', additionalFields));
		expect(error.message).toMatch(message);
		expect(error.description).toBeTruthy();
	});

	test('boundary values are accepted (and sent as set)', async () => {
		const logStart = gw.sim.server.log.entries.length;
		const result = await runNode({
			nodeType: 'scraperGateway',
			credentials: walletCredential(gw.sim, gw.sim.testWallets[0]),
			parameters: fetchWith('https://8.8.8.8/dns', { maxRetries: 10, timeout: 300, tokenCap: 10000, waitForSelector: 'a'.repeat(1000), proxyCountry: 'gB' }),
		});
		seen.push(runText(result));
		expect(result.error).toBeUndefined();
		expect(gw.sim.server.log.entries[logStart].body).toEqual({
			url: 'https://8.8.8.8/dns',
			maxRetries: 10,
			timeout: 300,
			tokenCap: 10000,
			waitForSelector: 'a'.repeat(1000),
			proxyCountry: 'gB',
		});
	});
});

describe('Search: Web rejects invalid input before any request', () => {
	const cases: Array<[string, IDataObject, RegExp]> = [
		['empty query', { query: '={{ "  " }}' }, /^Invalid 'Query': it is required/],
		['country of three letters', { query: 'x', additionalFields: { country: 'deu' } }, /^Invalid 'Country': "deu" is not a two-letter country code/],
		['language as a word', { query: 'x', additionalFields: { language: 'english' } }, /^Invalid 'Language': "english" is not a language code/],
		['page 0', { query: 'x', additionalFields: { page: 0 } }, /^Invalid 'Page': 0 is out of range of at least 1/],
	];
	test.each(cases)('%s', async (_label, fields, message) => {
		const error = await runRejected({ resource: 'search', operation: 'web', ...(fields as INodeParameters) });
		expect(error.message).toMatch(message);
	});
});

describe('x402 Wallet credential is checked locally; the key is never repeated', () => {
	const key = () => gw.sim.testWallets[0].privateKey;
	const cases: Array<[string, () => ICredentialDataDecryptedObject, RegExp]> = [
		['empty key', () => ({ privateKey: '' }), /^Invalid 'Private Key' in the 'x402 Wallet' credential: it is empty/],
		['key without 0x', () => ({ privateKey: key().slice(2) }), /^Invalid 'Private Key' in the 'x402 Wallet' credential: it must be 0x followed by 64 hexadecimal characters \(got 64 characters, without the 0x prefix\)/],
		['key too short', () => ({ privateKey: key().slice(0, 40) }), /^Invalid 'Private Key'.*got 40 characters/],
		['key not hexadecimal', () => ({ privateKey: `0x${'z'.repeat(64)}` }), /^Invalid 'Private Key'.*0x followed by 64 hexadecimal/],
		['key zero', () => ({ privateKey: `0x${'0'.repeat(64)}` }), /^Invalid 'Private Key'.*not a valid secp256k1 private key/],
		['custom network malformed', () => ({ customNetwork: 'anvil' }), /^Invalid 'Custom Network'.*"anvil" is not an EVM network id of the form eip155:<chain id>/],
		['token missing on a custom network', () => ({ usdcAddress: '' }), /^Invalid 'USDC Token Address'.*required for a custom network/],
		['token not an address', () => ({ usdcAddress: '0x1234' }), /^Invalid 'USDC Token Address'.*"0x1234" is not an address/],
		['max price zero', () => ({ maxPricePerRequest: 0 }), /^Invalid 'Max Price per Request \(USDC\)'.*0 is not a positive amount/],
		['pinned payee not an address', () => ({ payTo: 'the gateway' }), /^Invalid 'Pinned Payee Address'/],
		['gateway URL not http', () => ({ baseUrl: 'gateway.example.com' }), /^Invalid 'Gateway Base URL'/],
	];
	test.each(cases)('%s: named error, no request, no signature', async (_label, overrides, message) => {
		const error = await runRejected({ ...fetchWith('https://example.com/'), url: 'https://example.com/' }, overrides());
		expect(error.message).toMatch(message);
		expect(containsKey(allText(error), key())).toBe(false);
	});

	function credentialTest() {
		const node = loadPackage().nodes.get(`${X402_PACKAGE_NAME}.scraperGateway`) as INodeType;
		const credential = node.description.credentials?.find((c) => c.name === 'x402WalletApi');
		expect(credential?.testedBy).toBe('x402WalletTest');
		const fn = node.methods?.credentialTest?.[credential!.testedBy as string];
		expect(fn).toBeDefined();
		return async (data: ICredentialDataDecryptedObject) =>
			await fn!.call({} as ICredentialTestFunctions, { id: 'c1', name: 'wallet', type: 'x402WalletApi', data });
	}

	test('the credential test shows the wallet address derived from the key, and sends nothing', async () => {
		const test = credentialTest();
		const logStart = gw.sim.server.log.entries.length;
		const key = generatePrivateKey();
		const result = await test({ ...walletCredential(gw.sim, { privateKey: key }).x402WalletApi });
		expect(result.status).toBe('OK');
		expect(result.message).toContain(privateKeyToAccount(key).address);
		expect(result.message).toContain(gw.sim.network);
		expect(result.message).toContain('at most 0.01 USDC per request');
		expect(containsKey(result.message, key)).toBe(false);
		expect(gw.sim.server.log.entries.length - logStart).toBe(0);
		seen.push(allText(result));
	});

	test('the credential test names the broken field and never repeats the key', async () => {
		const test = credentialTest();
		const badKey = generatePrivateKey().slice(2);
		const result = await test({ ...walletCredential(gw.sim, { privateKey: badKey }).x402WalletApi });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Invalid 'Private Key': it must be 0x followed by 64 hexadecimal characters/);
		expect(containsKey(result.message, badKey)).toBe(false);
		// Base defaults: no token address needed; the network name is shown.
		const base = await test({ privateKey: generatePrivateKey(), baseUrl: 'https://gateway.example.com', network: 'eip155:8453', usdcAddress: '', maxPricePerRequest: 0.01, payTo: '' });
		expect(base.message).toContain('on Base (eip155:8453) with token 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
		const sepolia = await test({ privateKey: generatePrivateKey(), baseUrl: 'https://gateway.example.com', network: 'eip155:84532', maxPricePerRequest: 0.05 });
		expect(sepolia.message).toContain('on Base Sepolia (eip155:84532) with token 0x036CbD53842c5426634e7929541eC2318f3dCF7e, at most 0.05 USDC');
		seen.push(allText([result, base, sepolia]));
	});
});

describe('secrets', () => {
	test('the private keys never appear in any output, error, request or log line of this file', () => {
		const everything = [...seen, gw.output(), allText(gw.sim.server.log.entries)].join('\n');
		expect(seen.length).toBeGreaterThan(40);
		expect(containsKey(everything, gw.sim.testWallets[0].privateKey)).toBe(false);
	});
});
