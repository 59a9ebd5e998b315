/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test support in plain Node: it reads the files n8n wrote */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { N8nRun } from '../../../scripts/demo/n8n-run';
import { FETCH_ROUTES, PLATFORM_DEMO_TOKEN, type RunningSimulator } from '../../simulator/index';
import { renderHtml, renderMarkdown } from '../../simulator/platform/content';
import { screenshotOf } from '../../simulator/platform/fetchPages';
import { fetchCost, parseFetchQuery } from '../../simulator/platform/fetchQuery';
import { keysOf, nodeOutput } from './workflows';

/**
 * What example 9 (the Cloud user's page fetch) must produce wherever n8n runs it: one GET per page on the fetch
 * host with the API token, and one sheet row per page whose Markdown is what n8n's own Markdown node makes of the
 * simulator's page. The caller clears the fetch log first.
 */

const EXAMPLE_9_URLS = ['https://example.com/pricing', 'https://example.org/about', 'https://example.net/blog'];

/** Tokens the simulator charges for a fetch of `url` with `options` added, as it parses the query it received. */
function tokensFor(url: string, options: Record<string, string> = {}): number {
	const parsed = parseFetchQuery(new URLSearchParams({ url, ...options }));
	if (!('query' in parsed)) throw new Error(`the simulator refuses ${url}`);
	return fetchCost(parsed.query).tokens;
}

/** Example 9: Page > Fetch of three URLs -> n8n's Markdown node -> one sheet row per page. */
export function expectExample9(run: N8nRun, sim: RunningSimulator): void {
	const urls = EXAMPLE_9_URLS;
	const fetches = sim.fetch.server.log.for(FETCH_ROUTES.fetch);
	// Exactly one request per page (the node may send them at once, so in any order), with the platform's token and
	// only the URL: the example adds no option, so nothing else is sent.
	expect(fetches.map((r) => r.query.url).sort()).toEqual([...urls].sort());
	for (const request of fetches) {
		expect(request.query).toEqual({ url: request.query.url });
		expect(request.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
		expect(request.status).toBe(200);
	}
	expect(sim.fetch.server.log.count()).toBe(urls.length);

	// Simplify on (the default): the page's HTML and what the answer's headers report.
	const pages = nodeOutput(run, 'Fetch Page');
	expect(keysOf(pages)).toEqual(urls.map(() => ['url', 'statusCode', 'html', 'tokenUsage', 'runtime', 'resultId']));
	expect(pages.map((p) => p.json.html)).toEqual(urls.map(renderHtml));

	const rows = nodeOutput(run, 'Google Sheets Rows');
	expect(rows.map((r) => r.json)).toEqual(
		urls.map((url) => ({
			URL: url,
			'Status Code': 200,
			// n8n's Markdown node (node-html-markdown) writes the simulator's own Markdown of the page, with its
			// default bullet '*' where the simulator writes '-', and no trailing newline.
			Markdown: renderMarkdown(url).replace(/^- /gm, '* ').trimEnd(),
			'Token Usage': tokensFor(url),
		})),
	);
	for (const row of rows) {
		expect(row.json.Markdown).toMatch(/^# \S/);
		// No tag left (Markdown's autolinks, <https://…>, are not tags).
		expect(row.json.Markdown).not.toMatch(/<\/?[a-z][a-z0-9]*[\s/>]/i);
		expect(row.json['Token Usage']).toBeGreaterThan(0);
	}
}

/** What example 11 asks of each page: no HTML, its Markdown and a full-page screenshot, in the order the node sends them. */
const EXAMPLE_11_QUERY = { html: 'false', markdown: 'true', screenshot: 'full' };

/**
 * Example 11: Page > Fetch with Markdown and a full-page screenshot -> n8n's Read/Write Files from Disk node -> one
 * sheet row per page. Each file on disk, under n8n's `.n8n-files` in `userFolder` (where n8n runs), is byte for byte
 * the PNG the simulator served for that page.
 */
export function expectExample11(run: N8nRun, sim: RunningSimulator, userFolder: string): void {
	const urls = EXAMPLE_9_URLS;
	const fetches = sim.fetch.server.log.for(FETCH_ROUTES.fetch);
	expect(fetches.map((r) => r.query.url).sort()).toEqual([...urls].sort());
	for (const request of fetches) {
		expect(request.query).toEqual({ url: request.query.url, ...EXAMPLE_11_QUERY });
		expect(request.headers['x-api-token']).toBe(PLATFORM_DEMO_TOKEN);
	}
	expect(sim.fetch.server.log.count()).toBe(urls.length);

	// The screenshot is a binary file of the item, never base64 in its JSON.
	for (const page of nodeOutput(run, 'Fetch Page With Screenshot')) {
		expect(page.binary?.screenshot).toMatchObject({ mimeType: 'image/png', fileExtension: 'png' });
		expect(JSON.stringify(page.json)).not.toMatch(/iVBORw0KGgo/);
	}
	const rows = nodeOutput(run, 'Google Sheets Rows');
	expect(keysOf(rows)).toEqual(urls.map(() => ['URL', 'Markdown', 'Screenshot File', 'Screenshot Bytes', 'Token Usage']));
	expect(rows.map((r) => r.json.URL)).toEqual(urls);
	for (const [i, row] of rows.entries()) {
		const url = urls[i];
		const expected = screenshotOf(url, 'full');
		expect(row.json).toMatchObject({ Markdown: renderMarkdown(url), 'Screenshot Bytes': expected.length, 'Token Usage': tokensFor(url, EXAMPLE_11_QUERY) });
		const file = String(row.json['Screenshot File']);
		expect(file).toMatch(/^\.n8n-files\/[\w.-]+-screenshot\.png$/);
		expect(readFileSync(path.join(userFolder, file)).equals(expected)).toBe(true);
	}
}
