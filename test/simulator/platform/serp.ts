import { hashString } from '../core/random';

/**
 * Deterministic Google results: every query has a fixed number of results (12 to 41, ten a page), each pointing into
 * the platform's fake web (`content.ts`), so a result's URL can be fetched with the page fetch. Region and language
 * show in each snippet, so a test sees they reached the search.
 */

/** A query containing this has no results at all (an empty first page). */
export const EMPTY_MARKER = 'sim-empty';
export const RESULTS_PER_PAGE = 10;

/** One result, with the fields the public facts list. */
export interface SerpResult {
	rank: number;
	title: string;
	url: string;
	siteName: string;
	displayUrl: string;
	snippet: string;
}

export interface SerpAsked {
	query: string;
	region?: string;
	language?: string;
	page: number;
	renderJs: boolean;
}

const SITES = ['outdoor-gear', 'trail-review', 'city-guide', 'tech-daily', 'home-journal', 'market-watch', 'travel-notes', 'shop-compare'];
const SECTIONS = ['guides', 'reviews', 'news', 'blog', 'products'];

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const siteName = (site: string): string => site.split('-').map(capitalised).join(' ');

/** How many results a query has in all. */
export function totalResults(query: string): number {
	return query.includes(EMPTY_MARKER) ? 0 : 12 + (hashString(`serp|${query}`) % 30);
}

function result(asked: SerpAsked, rank: number): SerpResult {
	const n = hashString(`serp|${asked.query}|${rank}`);
	const site = SITES[n % SITES.length];
	const section = SECTIONS[(n >> 4) % SECTIONS.length];
	const slug = asked.query.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'result';
	const host = `${site}.example.com`;
	const name = siteName(site);
	return {
		rank,
		title: `${capitalised(asked.query)}: ${section} #${rank} | ${name}`,
		url: `https://${host}/${section}/${slug}-${rank}`,
		siteName: name,
		displayUrl: `${host} › ${section} › ${slug}-${rank}`,
		snippet: `${name} on "${asked.query}" (${asked.region ?? 'us'}, ${asked.language ?? 'en'}): what to know, compared and explained.`,
	};
}

/** The results of one page (empty past the last one). */
export function serpPage(asked: SerpAsked): SerpResult[] {
	const total = totalResults(asked.query);
	const first = (asked.page - 1) * RESULTS_PER_PAGE + 1;
	const out: SerpResult[] = [];
	for (let rank = first; rank <= Math.min(total, asked.page * RESULTS_PER_PAGE); rank++) out.push(result(asked, rank));
	return out;
}

/** What rendering Google's page in a browser adds (scripts build it): an AI overview. */
export function aiOverview(query: string): string {
	return `AI overview: "${query}" in a few sentences, from the results below.`;
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Google's result page as HTML (`format: "html"`). */
export function serpHtml(asked: SerpAsked, results: SerpResult[]): string {
	const items = results
		.map((r) => `<div class="g" data-rank="${r.rank}"><a href="${escape(r.url)}"><h3>${escape(r.title)}</h3></a><cite>${escape(r.displayUrl)}</cite><p>${escape(r.snippet)}</p></div>`)
		.join('');
	const overview = asked.renderJs ? `<div class="ai-overview">${escape(aiOverview(asked.query))}</div>` : '';
	return (
		`<!DOCTYPE html><html lang="${asked.language ?? 'en'}"><head><title>${escape(asked.query)} - Google Search</title></head>` +
		`<body><div id="search" data-page="${asked.page}">${overview}${items || '<p>No results found.</p>'}</div></body></html>`
	);
}
