import type { IDataObject } from 'n8n-workflow';

import { allText } from '../../harness';
import { decodeJpeg, SCREENSHOT_HEIGHT, SCREENSHOT_WIDTH } from '../../simulator/gateway';
import type { GatewaySimulator } from '../../simulator/gateway';
import { simulateFetch } from '../../simulator/gateway/upstream';
import { CHARSET_SAMPLES } from '../../simulator/platform/fetchPages';
import { balances, containsKey, FETCH_ROUTE, jsonOf, PRICE, requestsSince, signedRequests, useRecordedGateway } from '../support';

const { gw, seen, run } = useRecordedGateway({ testWalletCount: 3 });
let sim: GatewaySimulator;

beforeAll(() => {
	sim = gw.sim;
});

/** Requests unanswered at the gateway each time a payment is about to settle: how many calls overlap. */
function trackInFlight(logStart: number): number[] {
	const counts: number[] = [];
	sim.setBeforeSettleHook(() => {
		counts.push(requestsSince(sim, logStart).filter((entry) => entry.status === undefined).length);
	});
	return counts;
}

const urlsInput = (urls: string[]) => urls.map((url) => ({ url }));
const fetchParams = (extra: IDataObject = {}) => ({ resource: 'page', operation: 'fetch', url: '={{ $json.url }}', ...extra });

describe('Page: Fetch pays 0.01 USDC per page on chain, one round trip per paid item', () => {
	test('Simplify (on by default) keeps the page, its cost and its receipt: at most ten fields; version 1 keeps them all', async () => {
		const current = await run(0, { parameters: fetchParams(), input: urlsInput(['https://example.com/simple']) });
		expect(current.error).toBeUndefined();
		expect(Object.keys(current.items[0].json)).toEqual(['url', 'markdown', 'html', 'screenshot', 'tokenUsage', 'runtime', 'payment']);
		const v1 = await run(0, { parameters: fetchParams(), input: urlsInput(['https://example.com/simple']), typeVersion: 1 });
		expect(v1.error).toBeUndefined();
		expect(v1.items[0].json).toMatchObject({ ok: true, service: 'fetchHtml', upstreamError: null, retryCount: 0 });
	});

	test('N items: payer -N x 10000, payee +N x 10000, every receipt on chain, one request per paid item after the first', async () => {
		const wallet = sim.testWallets[0];
		const urls = ['https://example.com/pricing', 'https://news.example.org/today', 'https://shop.example.net/cart', 'https://docs.example.io/start'];
		const before = await balances(sim, wallet.address);
		const logStart = sim.server.log.entries.length;
		const settlementsStart = sim.settlements.length;
		const inFlight = trackInFlight(logStart);

		// Simplify off: every field of the page, as the gateway reported it.
		const result = await run(0, { parameters: fetchParams({ simplify: false }), input: urlsInput(urls) });
		sim.setBeforeSettleHook(undefined);

		expect(result.error).toBeUndefined();
		// Parallel Requests defaults to 1: one call at a time.
		expect(inFlight).toEqual(urls.map(() => 1));
		const after = await balances(sim, wallet.address);
		const n = BigInt(urls.length);
		expect(before.payer - after.payer).toBe(n * PRICE);
		expect(after.payee - before.payee).toBe(n * PRICE);

		const json = jsonOf(result.items);
		expect(json.map((j) => j.url)).toEqual(urls);
		expect(result.items.map((i) => i.pairedItem)).toEqual(urls.map((_, item) => ({ item })));
		const settlements = sim.settlements.slice(settlementsStart);
		expect(settlements).toHaveLength(urls.length);
		for (const [i, j] of json.entries()) {
			const payment = j.payment as IDataObject;
			expect(payment).toEqual({ transaction: settlements[i].transaction, network: sim.network, payer: wallet.address, amount: '0.01', paymentId: settlements[i].paymentId });
			expect(payment.paymentId).toMatch(/^n8n_[0-9a-f]{64}$/);
			expect(await sim.txExists(payment.transaction as `0x${string}`)).toBe(true);
			expect(settlements[i]).toMatchObject({ target: urls[i], amount: '10000', payer: wallet.address, payTo: sim.payTo });
			expect(j).toMatchObject({ ok: true, service: 'fetchHtml', upstreamError: null });
			expect(j.html).toContain('<!DOCTYPE html>');
			expect(String(j.markdown)).toMatch(/^# /);
			expect(typeof j.runtime).toBe('number');
			expect(Number.isInteger(j.tokenUsage)).toBe(true);
			expect(j.retryCount).toBe(0);
		}
		expect(new Set(json.map((j) => (j.payment as IDataObject).transaction)).size).toBe(urls.length);

		// 1 unpaid request learns the price, then exactly one signed request per item.
		const requests = requestsSince(sim, logStart);
		expect(requests.map((r) => [r.route, r.status, typeof r.headers['payment-signature'] === 'string'])).toEqual([
			[FETCH_ROUTE, 402, false],
			...urls.map(() => [FETCH_ROUTE, 200, true]),
		]);
		const perPaidItemAfterFirst = (requests.length - 2) / (urls.length - 1);
		expect(perPaidItemAfterFirst).toBe(1);
		// Nothing the user did not set is sent.
		expect(requests.map((r) => r.body)).toEqual([{ url: urls[0] }, ...urls.map((url) => ({ url }))]);
	});

	test('every optional field set is sent exactly as set, and forwarded upstream', async () => {
		const logStart = sim.server.log.entries.length;
		const upstreamStart = sim.upstreamRequests.length;
		const additionalFields = {
			html: true,
			markdown: true,
			screenshot: false,
			proxyCountry: 'DE',
			maxRetries: 0,
			timeout: 45,
			blockResources: true,
			warmStart: false,
			returnCookie: true,
			super: false,
			tokenCap: 250,
			waitForSelector: 'main article > h1',
			waitUntil: 'networkidle',
		};
		const result = await run(0, { parameters: fetchParams({ additionalFields }), input: urlsInput(['https://example.com/options']) });
		expect(result.error).toBeUndefined();
		const bodies = requestsSince(sim, logStart).map((r) => r.body);
		expect(bodies).toEqual([
			{ url: 'https://example.com/options', ...additionalFields },
			{ url: 'https://example.com/options', ...additionalFields },
		]);
		const { proxyCountry, ...forwarded } = additionalFields;
		expect(sim.upstreamRequests.slice(upstreamStart)[0].forwarded).toMatchObject({ ...forwarded, geoCode: proxyCountry });
	});

	test('html/markdown/screenshot off: upstream gives "", "" and null, and the output has no binary', async () => {
		const logStart = sim.server.log.entries.length;
		const result = await run(0, {
			parameters: fetchParams({ simplify: false, additionalFields: { html: false, markdown: false, screenshot: false } }),
			input: urlsInput(['https://example.com/toggles']),
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ html: '', markdown: '', screenshot: null, ok: true });
		expect(item.binary).toBeUndefined();
		expect(requestsSince(sim, logStart).map((r) => r.body)).toEqual([
			{ url: 'https://example.com/toggles', html: false, markdown: false, screenshot: false },
			{ url: 'https://example.com/toggles', html: false, markdown: false, screenshot: false },
		]);
	});

	test('the screenshot is a binary image/jpeg property of the right size, not base64 in the JSON', async () => {
		sim.options.screenshotBytes = 48_000;
		try {
			const result = await run(0, {
				parameters: fetchParams({ additionalFields: { screenshot: true, html: false } }),
				input: urlsInput(['https://example.com/shot']),
			});
			expect(result.error).toBeUndefined();
			const [item] = result.items;
			const binary = item.binary?.screenshot;
			expect(binary).toMatchObject({ mimeType: 'image/jpeg', fileName: 'example-com-shot.jpg', fileExtension: 'jpg' });
			const bytes = Buffer.from(binary!.data, 'base64');
			expect(bytes.length).toBe(48_000);
			expect(bytes.subarray(0, 2).toString('hex')).toBe('ffd8');
			const image = decodeJpeg(bytes);
			expect([image.width, image.height]).toEqual([SCREENSHOT_WIDTH, SCREENSHOT_HEIGHT]);
			expect(item.json.screenshot).toEqual({ binaryProperty: 'screenshot', fileName: 'example-com-shot.jpg', mimeType: 'image/jpeg', bytes: 48_000 });
			// No base64 image anywhere in the JSON.
			expect(allText(item.json)).not.toContain(binary!.data.slice(0, 200));
			expect(allText(item.json).length).toBeLessThan(10_000);
		} finally {
			sim.options.screenshotBytes = undefined;
		}
	});

	test('a 3 MB screenshot arrives byte for byte as the gateway sent it (decoded while it streams in)', async () => {
		sim.options.screenshotBytes = 3_000_000;
		try {
			const url = 'https://example.com/large-shot';
			const result = await run(0, {
				parameters: fetchParams({ additionalFields: { screenshot: true } }),
				input: urlsInput([url]),
			});
			expect(result.error).toBeUndefined();
			const [item] = result.items;
			const sent = simulateFetch({ url, screenshot: true }, { screenshotBytes: 3_000_000 }).data.screenshot as string;
			const bytes = Buffer.from(item.binary!.screenshot.data, 'base64');
			expect(bytes.equals(Buffer.from(sent, 'base64'))).toBe(true);
			expect(item.json.screenshot).toMatchObject({ bytes: 3_000_000 });
			// The rest of the answer is read as before.
			expect(item.json.html).toContain('<html');
			expect(String(item.json.markdown).length).toBeGreaterThan(0);
		} finally {
			sim.options.screenshotBytes = undefined;
		}
	});

	test('parallel requests 3: items keep their order and pairing; the price is learned once', async () => {
		const wallet = sim.testWallets[1];
		// Different upstream delays, so answers complete out of order.
		const urls = [600, 50, 300, 10, 450, 100].map((ms, i) => `https://example.com/page-${i}-sim-slow-${ms}`);
		const before = await balances(sim, wallet.address);
		const logStart = sim.server.log.entries.length;
		const inFlight = trackInFlight(logStart);
		const result = await run(1, { parameters: fetchParams({ options: { parallelRequests: 3 } }), input: urlsInput(urls) });
		sim.setBeforeSettleHook(undefined);
		expect(result.error).toBeUndefined();
		// Three at a time, never more.
		expect(Math.max(...inFlight)).toBe(3);
		expect(jsonOf(result.items).map((j) => j.url)).toEqual(urls);
		expect(result.items.map((i) => i.pairedItem)).toEqual(urls.map((_, item) => ({ item })));
		const after = await balances(sim, wallet.address);
		expect(before.payer - after.payer).toBe(6n * PRICE);
		const requests = requestsSince(sim, logStart);
		expect(requests.filter((r) => r.status === 402)).toHaveLength(1);
		expect(signedRequests(sim, logStart)).toHaveLength(6);
	});

	test('max total spend per execution stops before signing the over-budget item', async () => {
		const wallet = sim.testWallets[2];
		const before = await balances(sim, wallet.address);
		const logStart = sim.server.log.entries.length;
		const settlementsStart = sim.settlements.length;
		const urls = ['https://example.com/b1', 'https://example.com/b2', 'https://example.com/b3'];
		const result = await run(2, { parameters: fetchParams({ options: { maxTotalSpend: 0.02 } }), input: urlsInput(urls), continueOnFail: true });
		expect(result.error).toBeUndefined();
		const json = jsonOf(result.items);
		expect(json[0].payment).toBeDefined();
		expect(json[1].payment).toBeDefined();
		expect(json[2].error).toMatch(/^Spending limit reached, nothing was signed for this item: this item would cost 0\.01 USDC and 0\.02 USDC of the 0\.02 USDC allowed per execution/);
		expect(result.items[2].pairedItem).toEqual({ item: 2 });
		const after = await balances(sim, wallet.address);
		expect(before.payer - after.payer).toBe(2n * PRICE);
		expect(sim.settlements.length - settlementsStart).toBe(2);
		// The third item never reached the gateway.
		expect(requestsSince(sim, logStart)).toHaveLength(3);
		expect(requestsSince(sim, logStart).map((r) => (r.body as IDataObject).url)).not.toContain(urls[2]);
	});
});

describe('Page: Fetch of a page in another charset', () => {
	test.each(Object.entries(CHARSET_SAMPLES).flatMap(([charset, sample]) => [
		[`declared in its Content-Type (${charset})`, `https://shop.example.com/sim-charset-${charset}/menu`, sample.text],
		[`declared in its <meta> (${charset})`, `https://shop.example.com/sim-meta-charset-${charset}/menu`, sample.text],
	]))('%s: the text the gateway read arrives intact in html and markdown, never garbled', async (_declared, url, text) => {
		const { items, error } = await run(0, { parameters: fetchParams({ additionalFields: { html: true } }), input: urlsInput([url]) });
		expect(error).toBeUndefined();
		expect(items[0].json.markdown).toBe(text);
		expect(String(items[0].json.html)).toContain(`<p>${text}</p>`);
		expect(JSON.stringify(items[0].json)).not.toContain('\uFFFD');
	});
});

describe('secrets', () => {
test('the private keys never appear in any output, error, request or log line of this file', () => {
	const everything = [...seen, gw.output(), allText(sim.server.log.entries)].join('\n');
	expect(seen.length).toBeGreaterThan(5);
	for (const wallet of sim.testWallets) expect(containsKey(everything, wallet.privateKey)).toBe(false);
	// The check can fail: the key is found when present.
	expect(containsKey(`x ${sim.testWallets[0].privateKey} y`, sim.testWallets[0].privateKey)).toBe(true);
});
});
