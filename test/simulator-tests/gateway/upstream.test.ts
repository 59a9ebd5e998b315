import { decodePaymentResponseHeader } from '@x402/core/http';
import { sleep } from 'n8n-workflow';

import { signPayment } from '../../simulator/gateway/client';
import {
	decodeJpeg,
	GatewaySimulator,
	PRICE_ATOMIC,
	RESULTS_PER_PAGE,
	SCREENSHOT_HEIGHT,
	SCREENSHOT_WIDTH,
	type FetchData,
	type SearchData,
} from '../../simulator/gateway';

/** The simulated upstream, reached through real paid requests (each one settles on the local chain). */
let sim: GatewaySimulator;

beforeAll(async () => {
	sim = await GatewaySimulator.start({ testWalletCount: 2 });
}, 60_000);

afterAll(async () => {
	await sim?.close();
});

beforeEach(() => sim.reset());

interface Envelope<T> {
	ok: boolean;
	service: string;
	data: T;
}

async function paid<T>(
	service: 'scraperAPI' | 'webSearch',
	body: Record<string, unknown>,
	init: { signal?: AbortSignal } = {},
): Promise<{ status: number; envelope: Envelope<T>; receiptHeader: string | null }> {
	const { header } = await signPayment(sim, sim.testWallets[0], { service });
	const response = await fetch(`${sim.url}/api/service/${service}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': header },
		body: JSON.stringify(body),
		signal: init.signal,
	});
	return {
		status: response.status,
		envelope: (await response.json()) as Envelope<T>,
		receiptHeader: response.headers.get('payment-response'),
	};
}

const fetchPage = (body: Record<string, unknown>) => paid<FetchData>('scraperAPI', body);
const search = (body: Record<string, unknown>) => paid<SearchData>('webSearch', body);

describe('scraperAPI upstream', () => {
	test('defaults: html, markdown and a JPEG screenshot, with runtime, token usage and retry count', async () => {
		const { status, envelope, receiptHeader } = await fetchPage({ url: 'https://news.example.org/world/river-cleanup' });
		expect(status).toBe(200);
		expect(receiptHeader).toBeTruthy();
		expect(envelope.ok).toBe(true);
		const { data } = envelope;
		expect(data.html).toMatch(/^<!DOCTYPE html>/);
		expect(data.html).toContain('<title>River Cleanup | News</title>');
		expect(data.html).toContain('<h1>River Cleanup</h1>');
		expect(data.html).toMatch(/<a href="https:\/\/news\.example\.org\/[a-z-]+-1">/);
		expect(data.markdown).toMatch(/^# River Cleanup\n/);
		expect(data.markdown).toMatch(/\n- \[[A-Z][a-z]+ [A-Z][a-z]+\]\(https:\/\/news\.example\.org\/[a-z-]+-1\)\n/);
		expect(typeof data.screenshot).toBe('string');
		expect(data.runtime).toBeGreaterThan(0);
		expect(Number.isInteger(data.runtime * 1000)).toBe(true);
		expect(Number.isInteger(data.token_usage)).toBe(true);
		expect(data.token_usage).toBeGreaterThan(0);
		expect(data.retry_count).toBe(0);
		expect(data.error).toBeNull();
	});

	test('the screenshot is a real baseline JPEG that decodes to the rendered page', async () => {
		const { envelope } = await fetchPage({ url: 'https://example.com/pricing' });
		const bytes = Buffer.from(envelope.data.screenshot as string, 'base64');
		expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
		expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
		const image = decodeJpeg(bytes);
		expect(image.width).toBe(SCREENSHOT_WIDTH);
		expect(image.height).toBe(SCREENSHOT_HEIGHT);
		expect(image.markers).toEqual(['SOI', 'APP0', 'DQT', 'DQT', 'SOF0', 'DHT', 'SOS', 'EOI']);
		// The page background is white and the browser toolbar light grey: the pixels are really there.
		const pixel = (x: number, y: number) => [...image.pixels.subarray((y * image.width + x) * 3, (y * image.width + x) * 3 + 3)];
		for (const channel of pixel(SCREENSHOT_WIDTH - 3, 120)) expect(channel).toBeGreaterThan(235);
		for (const channel of pixel(4, 8)) expect(Math.abs(channel - 224)).toBeLessThan(14);
	});

	test('toggles off give "", "" and null; the fields stay present', async () => {
		const { envelope } = await fetchPage({ url: 'https://example.com/a', html: false, markdown: false, screenshot: false });
		expect(envelope.ok).toBe(true);
		expect(envelope.data).toEqual({
			html: '',
			markdown: '',
			screenshot: null,
			runtime: expect.any(Number),
			token_usage: expect.any(Number),
			retry_count: 0,
			error: null,
		});
	});

	test.each([
		[{ html: false }, { html: '' }],
		[{ markdown: false }, { markdown: '' }],
		[{ screenshot: false }, { screenshot: null }],
	])('%j disables only its own field', async (toggle, disabled) => {
		const { envelope } = await fetchPage({ url: 'https://example.com/b', ...toggle });
		const [[name, value]] = Object.entries(disabled);
		for (const field of ['html', 'markdown', 'screenshot'] as const) {
			if (field === name) expect(envelope.data[field]).toBe(value);
			else expect(typeof envelope.data[field]).toBe('string');
		}
	});

	test('deterministic per URL; a different URL gives a different page', async () => {
		const first = await fetchPage({ url: 'https://example.com/same' });
		const second = await fetchPage({ url: 'https://example.com/same' });
		const other = await fetchPage({ url: 'https://example.com/other' });
		expect(second.envelope.data).toEqual(first.envelope.data);
		expect(other.envelope.data.html).not.toBe(first.envelope.data.html);
		expect(other.envelope.data.screenshot).not.toBe(first.envelope.data.screenshot);
	});

	test('proxyCountry defaults to us and is forwarded upstream as geoCode', async () => {
		const us = await fetchPage({ url: 'https://example.com/geo' });
		expect(us.envelope.data.html).toContain('Served from US');
		expect(us.envelope.data.markdown).toContain('Served from US');
		const de = await fetchPage({ url: 'https://example.com/geo', proxyCountry: 'de' });
		expect(de.envelope.data.html).toContain('Served from DE');
		expect(sim.upstreamRequests.map((u) => u.forwarded.geoCode)).toEqual(['us', 'de']);
	});

	test('optional upstream settings are forwarded only when supplied', async () => {
		await fetchPage({ url: 'https://example.com/opts' });
		await fetchPage({ url: 'https://example.com/opts', blockResources: true, waitUntil: 'networkidle', tokenCap: 50, super: false });
		expect(sim.upstreamRequests[0].forwarded).toEqual({ url: 'https://example.com/opts', geoCode: 'us' });
		expect(sim.upstreamRequests[1].forwarded).toEqual({
			url: 'https://example.com/opts',
			geoCode: 'us',
			blockResources: true,
			waitUntil: 'networkidle',
			tokenCap: 50,
			super: false,
		});
	});

	test('sim-flaky: retries recover with the default; maxRetries 0 fails after one attempt (still charged)', async () => {
		const recovered = await fetchPage({ url: 'https://example.com/sim-flaky' });
		expect(recovered.envelope).toMatchObject({ ok: true, data: { retry_count: 2, error: null } });
		const before = await sim.balanceOf(sim.testWallets[0].address);
		const failed = await fetchPage({ url: 'https://example.com/sim-flaky', maxRetries: 0 });
		expect(failed.envelope).toMatchObject({ ok: false, data: { retry_count: 0, html: '', error: expect.stringContaining('1 attempt') } });
		expect(failed.receiptHeader).toBeTruthy();
		expect(await sim.balanceOf(sim.testWallets[0].address)).toBe(before - PRICE_ATOMIC);
	});

	test('sim-timeout reports the page timeout as the upstream error', async () => {
		const { envelope } = await fetchPage({ url: 'https://example.com/sim-timeout', timeout: 5, maxRetries: 0 });
		expect(envelope).toMatchObject({ ok: false, data: { screenshot: null, error: expect.stringContaining('5000 ms') } });
		expect(envelope.data.runtime).toBeGreaterThanOrEqual(5);
	});

	test('sim-slow: settlement happens first, the answer comes later; a client deadline does not undo the charge', async () => {
		const wallet = sim.testWallets[0];
		const before = await sim.balanceOf(wallet.address);
		const started = Date.now();
		await expect(paid('scraperAPI', { url: 'https://example.com/sim-slow-4000' }, { signal: AbortSignal.timeout(1_500) })).rejects.toThrow();
		expect(Date.now() - started).toBeLessThan(4_000);
		// The gateway does not notice the caller gave up: the payment settles (it may still be in flight).
		for (let waited = 0; sim.settlements.length === 0 && waited < 10_000; waited += 50) await sleep(50);
		expect(sim.settlements).toHaveLength(1);
		expect(await sim.balanceOf(wallet.address)).toBe(before - PRICE_ATOMIC);
		expect(await sim.txExists(sim.settlements[0].transaction)).toBe(true);
	});

	test('upstreamDelayMs delays every paid answer in real time', async () => {
		sim.options.upstreamDelayMs = 700;
		const started = Date.now();
		const { status } = await fetchPage({ url: 'https://example.com/delayed', screenshot: false });
		expect(status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(700);
	});

	test('screenshotBytes grows the screenshot to an exact size that still decodes', async () => {
		sim.options.screenshotBytes = 3_000_000;
		const { envelope, receiptHeader } = await fetchPage({ url: 'https://example.com/big' });
		expect(decodePaymentResponseHeader(receiptHeader as string).success).toBe(true);
		const bytes = Buffer.from(envelope.data.screenshot as string, 'base64');
		expect(bytes.length).toBe(3_000_000);
		const image = decodeJpeg(bytes);
		expect(image.width).toBe(SCREENSHOT_WIDTH);
		expect(image.commentBytes).toBeGreaterThan(2_900_000);
		expect(image.markers.slice(0, 3)).toEqual(['SOI', 'APP0', 'COM']);
	});
});

describe('webSearch upstream', () => {
	test('10 results per page with rank, title, url, siteName, displayUrl, snippet', async () => {
		const { status, envelope, receiptHeader } = await search({ query: 'espresso machine' });
		expect(status).toBe(200);
		expect(receiptHeader).toBeTruthy();
		expect(envelope).toMatchObject({ ok: true, service: 'webSearch' });
		const { data } = envelope;
		expect(data).toMatchObject({ query: 'espresso machine', country: 'us', language: 'en', page: 1, error: null });
		expect(data.results).toHaveLength(RESULTS_PER_PAGE);
		expect(data.results.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		for (const result of data.results) {
			expect(Object.keys(result).sort()).toEqual(['displayUrl', 'rank', 'siteName', 'snippet', 'title', 'url']);
			expect(result.url).toMatch(/^https:\/\/www\.[a-z]+\.com\/en\/espresso-machine-\d+$/);
			expect(result.displayUrl).toContain(new URL(result.url).hostname);
			expect(result.title.toLowerCase()).toContain('espresso machine');
			expect(result.snippet.length).toBeGreaterThan(20);
		}
	});

	test('localized by country and language', async () => {
		const { envelope } = await search({ query: 'fahrrad', country: 'de', language: 'de' });
		const { results } = envelope.data;
		for (const result of results) expect(new URL(result.url).hostname).toMatch(/\.de$/);
		expect(results.some((r) => /Alles über|im Vergleich|Einführung/.test(r.snippet))).toBe(true);
		const gb = await search({ query: 'bicycle', country: 'GB', language: 'en-GB' });
		for (const result of gb.envelope.data.results) expect(new URL(result.url).hostname).toMatch(/\.co\.uk$/);
	});

	test('paging continues the ranking, is deterministic, and ends', async () => {
		const page1 = await search({ query: 'hiking boots' });
		const page2 = await search({ query: 'hiking boots', page: 2 });
		const again = await search({ query: 'hiking boots', page: 2 });
		expect(page2.envelope.data.results[0].rank).toBe(11);
		expect(again.envelope.data.results).toEqual(page2.envelope.data.results);
		const urls1 = new Set(page1.envelope.data.results.map((r) => r.url));
		for (const r of page2.envelope.data.results) expect(urls1.has(r.url)).toBe(false);
		const total = page1.envelope.data.totalResults;
		const beyond = await search({ query: 'hiking boots', page: Math.ceil(total / RESULTS_PER_PAGE) + 1 });
		expect(beyond.envelope).toMatchObject({ ok: true, data: { results: [] } });
	});

	test('an upstream search failure after settlement: 200, ok false, error, charged', async () => {
		const { status, envelope, receiptHeader } = await search({ query: 'sim-fail please' });
		expect(status).toBe(200);
		expect(envelope).toMatchObject({ ok: false, data: { results: [], error: expect.stringContaining('503') } });
		expect(decodePaymentResponseHeader(receiptHeader as string).success).toBe(true);
		expect(sim.settlements).toEqual([expect.objectContaining({ service: 'webSearch', upstreamOk: false })]);
	});
});
