/**
 * Pages that change between two fetches, for the Scraper Platform Trigger's Page Changed event: a page a test sets
 * (`FetchSimulator.setPage`, until `reset()`), and a product page whose price and stock follow the simulated clock
 * (any URL containing `sim-changing`), for the demo. Other URLs keep the fake web's fixed pages (content.ts).
 */
import { hashString } from '../core/random';
import { pageTitle } from './content';

/** A URL containing this is a product page whose price changes every CHANGE_PERIOD_MS of the simulated clock. */
export const CHANGING_MARKER = 'sim-changing';
export const CHANGE_PERIOD_MS = 10 * 60_000;

/** A page served in place of the fake web's: its HTML, its Markdown ('' when the service would give none), its status. */
export interface ServedPage {
	html: string;
	markdown: string;
	status: number;
}

/** What a test sets: the HTML, and the Markdown and status when they matter (none and 200 unless said). */
export interface PageSpec {
	html: string;
	markdown?: string;
	status?: number;
}

export function servedPage(spec: PageSpec): ServedPage {
	return { html: spec.html, markdown: spec.markdown ?? '', status: spec.status ?? 200 };
}

/** The key a page is set under: the URL as parsed, as the node sends it. */
export function pageKey(url: string): string {
	return new URL(url).href;
}

/** The price and stock of a changing page at a moment: the price moves every period, the stock is out every third. */
export function changingOffer(url: string, now: number): { price: string; inStock: boolean } {
	const period = Math.floor(now / CHANGE_PERIOD_MS);
	const base = 20 + (hashString(`changing|${url}`) % 80);
	return { price: (base + (period % 4) * 5 + 0.99).toFixed(2), inStock: period % 3 !== 2 };
}

/** The changing product page of `url` at `now`; undefined for a URL without the marker. */
export function changingPage(url: string, now: number): ServedPage | undefined {
	if (!url.includes(CHANGING_MARKER)) return undefined;
	const name = pageTitle(url).split(' | ')[0];
	const { price, inStock } = changingOffer(url, now);
	const stock = inStock ? 'In stock' : 'Out of stock';
	return {
		html:
			`<!DOCTYPE html><html><head><title>${pageTitle(url)}</title><style>.price{font-weight:bold}</style></head>` +
			`<body><h1>${name}</h1><p class="price">$${price}</p><p class="stock">${stock}</p>` +
			`<script>window.analytics = ${Number(now)};</script></body></html>`,
		markdown: `# ${name}\n\nPrice: $${price}\n\n${stock}\n`,
		status: 200,
	};
}
