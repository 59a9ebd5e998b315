import type { IDataObject } from 'n8n-workflow';

import { renderMarkdown } from '../../simulator/platform/content';
import { FETCH_ROUTES } from '../../simulator/platform/fetch';
import { CHARSET_SAMPLES, fileAt, screenshotOf } from '../../simulator/platform/fetchPages';
import { useTokenHosts } from '../tokenHosts';

/**
 * Page > Fetch's answer in every shape the fetch host is known to give, through n8n's engine: the page as text in its
 * own charset, a file that is no text, and JSON carrying HTML, Markdown and a base64 screenshot (flat, or under
 * `data` as the same service's gateway answers), the screenshot and the file as binary properties.
 */

const ctx = useTokenHosts();
const fetchOf = (url: string, options: IDataObject = {}, extra: IDataObject = {}): IDataObject => ({ resource: 'page', operation: 'fetch', url, options, ...extra });
const fetches = () => ctx.fetchHost.server.log.for(FETCH_ROUTES.fetch);
const bytesOf = (data: string) => Buffer.from(data, 'base64');

describe('Markdown and HTML', () => {
	it('Markdown is a field of the item, beside the HTML', async () => {
		const url = 'https://shop.example.com/products';
		const result = await ctx.run(fetchOf(url, { markdown: true }));
		expect(result.error).toBeUndefined();
		const { json } = result.items[0];
		expect(json.markdown).toBe(renderMarkdown(url));
		expect(json.html).toMatch(/^<!DOCTYPE html><html><head><title>Products \| shop\.example\.com/);
		expect(Object.keys(json)).toEqual(['url', 'statusCode', 'html', 'markdown', 'tokenUsage', 'runtime', 'resultId']);
		expect(result.items[0].binary).toBeUndefined();
	});

	it('HTML off: html is empty, Markdown alone is what the page gives', async () => {
		const url = 'https://news.example.com/story';
		const result = await ctx.run(fetchOf(url, { html: false, markdown: true }));
		expect(result.items[0].json).toMatchObject({ html: '', markdown: renderMarkdown(url) });
	});

	it('Markdown asked for, answered with the page alone: markdown is null, never a guess', async () => {
		ctx.fetchHost.server.afterHandle = (_request, reply) => ({ status: 200, text: '<html><body>plain</body></html>', headers: { ...reply.headers, 'content-type': 'text/html' } });
		try {
			const result = await ctx.run(fetchOf('https://shop.example.com/', { markdown: true }));
			expect(result.items[0].json).toMatchObject({ html: '<html><body>plain</body></html>', markdown: null });
		} finally {
			ctx.fetchHost.server.afterHandle = undefined;
		}
	});
});

describe('screenshots are binary files, never base64 in the JSON', () => {
	it.each([
		['full', 'image/png', 'png'],
		['top', 'image/jpeg', 'jpg'],
	] as const)('Screenshot %s: a binary %s property holding exactly the image the service sent', async (kind, mimeType, extension) => {
		const url = 'https://shop.example.com/products';
		const result = await ctx.run(fetchOf(url, { screenshot: kind }));
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		const binary = item.binary?.screenshot;
		const fileName = `shop-example-com-products-screenshot.${extension}`;
		expect(binary).toMatchObject({ mimeType, fileName, fileExtension: extension });
		const expected = screenshotOf(url, kind);
		expect(bytesOf(binary!.data).equals(expected)).toBe(true);
		expect(item.json.screenshot).toEqual({ binaryProperty: 'screenshot', fileName, mimeType, bytes: expected.length });
		expect(JSON.stringify(item.json)).not.toContain(expected.toString('base64').slice(0, 40));
	});

	it('the JSON under data, as the gateway answers, and a data URL: read the same way', async () => {
		const png = screenshotOf('https://a.example.com/', 'full');
		ctx.fetchHost.server.afterHandle = (_request, reply) => ({
			...reply,
			json: { ok: true, data: { html: '<p>x</p>', markdown: 'x', screenshot: `data:image/png;base64,${png.toString('base64')}`, token_usage: 7, runtime: 1.5, error: null } },
		});
		try {
			const result = await ctx.run(fetchOf('https://a.example.com/', { markdown: true, screenshot: 'full' }, { simplify: false }));
			const [item] = result.items;
			expect(item.json).toMatchObject({ html: '<p>x</p>', markdown: 'x', screenshot: { mimeType: 'image/png', bytes: png.length } });
			// The usage figures the headers give win; the body's stand in for a header that is missing.
			expect(item.json.tokenUsage).toEqual(expect.any(Number));
			expect(bytesOf(item.binary!.screenshot.data).equals(png)).toBe(true);
		} finally {
			ctx.fetchHost.server.afterHandle = undefined;
		}
	});

	it('usage figures only in the JSON body are read from it', async () => {
		ctx.fetchHost.server.afterHandle = () => ({ status: 200, json: { html: '<p>x</p>', markdown: 'x', screenshot: null, token_usage: 7, runtime: 1.5 } });
		try {
			const result = await ctx.run(fetchOf('https://a.example.com/', { markdown: true, screenshot: 'top' }));
			expect(result.items[0].json).toMatchObject({ tokenUsage: 7, runtime: 1.5, screenshot: null, statusCode: null, resultId: null });
			expect(result.items[0].binary).toBeUndefined();
		} finally {
			ctx.fetchHost.server.afterHandle = undefined;
		}
	});

	it('an error inside a 200 is the service failing the fetch: a clear error, sent once', async () => {
		ctx.fetchHost.server.afterHandle = (_request, reply) => ({ ...reply, json: { html: '', markdown: '', screenshot: null, error: 'Navigation timeout of 30000 ms exceeded' } });
		try {
			const result = await ctx.run(fetchOf('https://a.example.com/', { markdown: true }));
			expect(result.error?.message).toBe('The service could not fetch https://a.example.com/: Navigation timeout of 30000 ms exceeded [item 0]');
			expect(result.error?.description).toMatch(/may have used tokens, so the node did not send it again/);
			expect(fetches()).toHaveLength(1);
		} finally {
			ctx.fetchHost.server.afterHandle = undefined;
		}
	});

	it('cookies asked for come as a field', async () => {
		const result = await ctx.run(fetchOf('https://shop.example.com/', { returnCookie: true }));
		expect(result.items[0].json.cookies).toEqual([{ name: 'session', value: expect.any(String), domain: 'shop.example.com' }]);
	});
});

describe("a page's declared charset is honoured", () => {
	it.each([
		['iso-8859-1', 'in the Content-Type', 'sim-charset-iso-8859-1'],
		['windows-1252', 'in the Content-Type', 'sim-charset-windows-1252'],
		['shift_jis', 'in the Content-Type', 'sim-charset-shift_jis'],
		['iso-8859-1', 'only in <meta http-equiv>', 'sim-meta-charset-iso-8859-1'],
		['windows-1252', 'only in <meta http-equiv>', 'sim-meta-charset-windows-1252'],
		['shift_jis', 'only in <meta http-equiv>', 'sim-meta-charset-shift_jis'],
	])('%s declared %s', async (charset, _where, marker) => {
		const result = await ctx.run(fetchOf(`https://old.example.com/${marker}`));
		expect(result.error).toBeUndefined();
		const html = result.items[0].json.html as string;
		expect(html).toContain(`<p>${CHARSET_SAMPLES[charset].text}</p>`);
		expect(html).not.toContain('\ufffd');
	});

	it('<meta charset> and an XML declaration are read too; undeclared is UTF-8', async () => {
		const pages: Array<[string, Buffer, string]> = [
			['https://a.example.com/meta', Buffer.concat([Buffer.from('<html><head><meta charset="ISO-8859-1"></head><body>'), Buffer.from('Straße', 'latin1')]), 'Straße'],
			['https://a.example.com/feed', Buffer.concat([Buffer.from("<?xml version='1.0' encoding='iso-8859-1'?><rss>"), Buffer.from('Café', 'latin1')]), 'Café'],
			['https://a.example.com/utf8', Buffer.from('<p>Grüße 日本</p>', 'utf8'), 'Grüße 日本'],
		];
		for (const [url, bytes, text] of pages) {
			ctx.fetchHost.server.afterHandle = () => ({ status: 200, buffer: bytes, headers: { 'content-type': url.endsWith('feed') ? 'application/rss+xml' : 'text/html' } });
			const result = await ctx.run(fetchOf(url));
			expect(result.items[0].json.html).toContain(text);
		}
		ctx.fetchHost.server.afterHandle = undefined;
	});
});

describe('a page that is no text is a binary file with its content type', () => {
	it.each([
		['a PDF', 'https://docs.example.com/reports/annual-2025.pdf', 'application/pdf', 'annual-2025.pdf'],
		['a PNG', 'https://cdn.example.com/logo.png', 'image/png', 'logo.png'],
	])('%s', async (_name, url, mimeType, fileName) => {
		const result = await ctx.run(fetchOf(url));
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		const expected = fileAt(url)!.bytes;
		expect(item.binary?.data).toMatchObject({ mimeType, fileName });
		expect(bytesOf(item.binary!.data.data).equals(expected)).toBe(true);
		// Simplify keeps the file's description, so its type is seen; no garbled text in html.
		expect(item.json).toMatchObject({ html: null, file: { binaryProperty: 'data', fileName, mimeType, bytes: expected.length } });
	});

	it('a file whose URL holds an escape that is no UTF-8 (%C3 alone) still comes out, named by a slug of its URL', async () => {
		const result = await ctx.run(fetchOf('https://docs.example.com/%C3-report.pdf'));
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data).toMatchObject({ mimeType: 'application/pdf', fileName: 'docs-example-com-c3-report-pdf.pdf' });
	});

	it('a PDF labelled text/html by the service is still a PDF', async () => {
		const pdf = fileAt('https://docs.example.com/a.pdf')!.bytes;
		ctx.fetchHost.server.afterHandle = (_request, reply) => ({ ...reply, buffer: pdf, headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' } });
		try {
			const result = await ctx.run(fetchOf('https://docs.example.com/download?id=7', {}, { simplify: false }));
			expect(result.items[0].json).toMatchObject({ html: null, contentType: 'application/pdf', file: { fileName: 'docs-example-com-download-id-7.pdf' } });
		} finally {
			ctx.fetchHost.server.afterHandle = undefined;
		}
	});
});
