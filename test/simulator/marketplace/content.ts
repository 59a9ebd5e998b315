import { SeededRandom, hashString } from '../core/random';
import type { PdfLink, PortalListing, SearchLead, SocialLead } from './types';
import { PROPERTY_TYPES, type PdfKeyword, type PortalInput } from './validation';

/**
 * Extracted data of section C runs, shaped like real data and deterministic per input: the same scraper input
 * and target always yield the same records (seeded from a hash of them), so tests can compare runs.
 */

/** Dates in generated records count back from this fixed day, so content does not change from day to day. */
const BASE_DAY = Date.UTC(2025, 0, 15);
const DAY_MS = 86_400_000;

const STREETS = ['Beach Road', 'Station Street', 'Park Avenue', 'High Street', 'Church Lane', 'Ocean Parade', 'Hill Crescent', 'Elm Court', 'River Terrace', 'Victoria Street', 'Wattle Grove', 'Banksia Way'];
const SUBURBS = ['Bondi', 'Richmond', 'Fitzroy', 'Paddington', 'Manly', 'Carlton', 'Newtown', 'Brunswick', 'Glebe', 'Subiaco', 'Fremantle', 'Norwood'];
const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS'];
const FIRST_NAMES = ['Olivia', 'Liam', 'Charlotte', 'Noah', 'Amelia', 'Jack', 'Isla', 'William', 'Mia', 'Oliver', 'Ava', 'Lucas', 'Grace', 'Henry', 'Chloe', 'Leo'];
const LAST_NAMES = ['Smith', 'Nguyen', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Martin', 'Anderson', 'Thompson', 'Walker', 'Harris', 'Lee', 'Kelly', 'Patel'];
const AGENCIES = ['Harbour Realty', 'Coastal Property Group', 'Urban Nest Agents', 'Summit Real Estate', 'Greenfield Partners', 'Bayside Homes'];
const COMPANY_WORDS = ['Acme', 'Northwind', 'Bluepeak', 'Orbit', 'Silverline', 'Brightpath', 'Ironbark', 'Keystone', 'Lumen', 'Redgum', 'Tidewater', 'Vertex'];
const COMPANY_KINDS = ['Consulting', 'Logistics', 'Labs', 'Digital', 'Solutions', 'Holdings', 'Media', 'Analytics'];
const JOB_TITLES = ['Marketing Manager', 'Head of Sales', 'Operations Director', 'Founder', 'Chief Technology Officer', 'Procurement Lead', 'Business Development Manager', 'Product Owner'];
const DOC_KINDS = ['Annual Report', 'Guidelines', 'Fact Sheet', 'White Paper', 'Technical Specification', 'Policy', 'Case Study', 'Brochure'];
const DOC_HOSTS = ['docs.example.org', 'publications.example.gov', 'library.example.edu', 'files.example.com', 'resources.example.net'];
const SEARCH_HOST = 'search.example.com';
const SOCIAL_HOST = 'social.example.com';
const PORTAL_HOST = 'www.realestate-portal.example';

const SENTIMENT_PHRASES = {
	positive: ['Really impressed with', 'Loving the results from', 'Highly recommend', 'Best decision this year:'],
	neutral: ['Anyone have experience with', 'Comparing options for', 'Reading up on', 'Notes from a meeting about'],
	negative: ['Disappointed with', 'Still waiting on support for', 'Not happy about', 'Frustrating week dealing with'],
} as const;

export function rngFor(...parts: Array<string | number>): SeededRandom {
	return new SeededRandom(hashString(parts.join('\u241f')));
}

export function slug(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'item';
}

function titleCase(text: string): string {
	return text.replace(/\b\w/g, (ch) => ch.toUpperCase());
}

function isoDay(offsetDays: number): string {
	return new Date(BASE_DAY - offsetDays * DAY_MS).toISOString();
}

function money(value: number): string {
	return `$${value.toLocaleString('en-US')}`;
}

function phone(rng: SeededRandom): string {
	return `+61 4${rng.int(10, 99)} ${rng.int(100, 999)} ${rng.int(100, 999)}`;
}

function originOf(url: string): string {
	return new URL(url).origin;
}

function hostOf(url: string): string {
	return new URL(url).hostname;
}

function companyName(rng: SeededRandom): string {
	return `${rng.pick(COMPANY_WORDS)} ${rng.pick(COMPANY_KINDS)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Real-estate portal listings

/** One portal target: a listing URL (links mode or a URL override) or the scraper's localities (locations mode). */
export type PortalTarget = { url: string } | { localities: string[] };

export function portalListings(input: PortalInput, target: PortalTarget): PortalListing[] {
	const wantedTypes = input.property_types.includes('all') ? PROPERTY_TYPES.filter((t) => t !== 'all') : input.property_types;
	const minLand = input.landsize_minimum && input.landsize_minimum !== 'any' ? Number(input.landsize_minimum) : undefined;
	const maxLand = input.landsize_maximum && input.landsize_maximum !== 'any' ? Number(input.landsize_maximum) : undefined;
	const groups: Array<{ suburb?: string; seed: string; origin: string }> =
		'url' in target
			? [{ seed: target.url, origin: originOf(target.url) }]
			: target.localities.map((locality) => ({ suburb: locality, seed: `locality:${locality.toLowerCase()}`, origin: `https://${PORTAL_HOST}` }));

	const listings: PortalListing[] = [];
	for (const group of groups) {
		const rng = rngFor('portal', group.seed, input.channel, wantedTypes.join(','), input.landsize_minimum ?? '', input.landsize_maximum ?? '');
		const count = rng.int(4, 9);
		for (let i = 0; i < count; i++) {
			const listingId = String(140_000_000 + rng.int(0, 9_999_999));
			const propertyType = rng.pick(wantedTypes);
			const nearby = input.including_surrounding_areas && rng.next() < 0.3;
			const suburb = group.suburb !== undefined && !nearby ? group.suburb : rng.pick(SUBURBS);
			const lo = minLand ?? 120;
			const hi = maxLand !== undefined ? maxLand - 1 : Math.max(lo * 3, 1_200);
			const landSize = propertyType === 'unit apartment' && minLand === undefined && maxLand === undefined ? null : rng.int(lo, Math.max(lo, hi));
			const hidePrice = !input.only_show_properties_with_a_price && rng.next() < 0.2;
			let priceValue: number | null;
			let price: string;
			if (input.channel === 'rent') {
				priceValue = rng.int(35, 150) * 10;
				price = `${money(priceValue)} per week`;
			} else {
				priceValue = rng.int(70, 500) * 5_000;
				price = input.channel === 'sold' ? `Sold for ${money(priceValue)}` : money(priceValue);
			}
			if (hidePrice) {
				priceValue = null;
				price = input.channel === 'sold' ? 'Price withheld' : 'Contact agent';
			}
			const bedrooms = propertyType === 'land' ? 0 : rng.int(1, 5);
			const agentFirst = rng.pick(FIRST_NAMES);
			const agentLast = rng.pick(LAST_NAMES);
			listings.push({
				listing_id: listingId,
				address: `${rng.int(1, 220)} ${rng.pick(STREETS)}, ${suburb}`,
				suburb,
				state: rng.pick(STATES),
				postcode: String(rng.int(2000, 7999)),
				price,
				price_value: priceValue,
				channel: input.channel,
				bedrooms,
				bathrooms: bedrooms === 0 ? 0 : rng.int(1, Math.max(1, bedrooms - 1)),
				parking: propertyType === 'land' ? 0 : rng.int(0, 3),
				land_size: landSize,
				land_size_unit: 'm²',
				property_type: propertyType,
				url: `${group.origin}/property-${slug(propertyType)}-${slug(suburb)}-${listingId}`,
				agent: {
					name: `${agentFirst} ${agentLast}`,
					agency: rng.pick(AGENCIES),
					phone: phone(rng),
				},
				listed_at: isoDay(rng.int(0, 90)),
			});
		}
	}
	return listings;
}

// ---------------------------------------------------------------------------------------------------------------
// PDF links

/**
 * The PDF files a keyword search (or one page, for a URL override) finds, best first. The pool is finite, so a
 * user asking for more files than exist gets what exists (and alternative keywords, see the store).
 */
export function pdfPool(keyword: PdfKeyword, pageUrl?: string): PdfLink[] {
	const rng = rngFor('pdf', pageUrl ?? '', keyword.keyword.toLowerCase());
	const count = rng.int(6, 12);
	const host = pageUrl !== undefined ? hostOf(pageUrl) : rng.pick(DOC_HOSTS);
	const links: PdfLink[] = [];
	for (let i = 0; i < count; i++) {
		const kind = rng.pick(DOC_KINDS);
		const year = 2025 - rng.int(0, 8);
		const title = `${titleCase(keyword.keyword)} ${kind} ${year}`;
		const url = `https://${host}/files/${slug(keyword.keyword)}-${slug(kind)}-${year}-${i + 1}.pdf`;
		links.push({
			title,
			url,
			source_url: pageUrl ?? `https://${host}/${slug(keyword.keyword)}`,
			keyword: keyword.keyword,
			prompt: keyword.prompt,
			// The prompt's yes/no answer: stable per file and prompt, mostly yes (the files were found by keyword).
			matched: hashString(`${url}\u241f${keyword.prompt}`) % 10 < 7,
			size_kb: rng.int(80, 9_000),
			pages: rng.int(1, 180),
		});
	}
	return links;
}

/** Words appended to a keyword when the given keywords cannot supply `expected_pdf` files. */
export const ALTERNATIVE_KEYWORD_SUFFIXES = ['report', 'guide', 'specification', 'overview', 'handbook'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Leads

/** Search-engine leads: result pages of a keyword search or of a start URL, up to `limitPages` pages. */
export function searchLeads(query: { keywords?: string; url?: string }, limitPages: number): SearchLead[] {
	const key = query.url ?? `q:${(query.keywords ?? '').toLowerCase()}`;
	const rng = rngFor('search-leads', key);
	// The engine only has so many result pages for a query.
	const availablePages = rng.int(3, 10);
	const pages = Math.min(limitPages, availablePages);
	const leads: SearchLead[] = [];
	for (let page = 1; page <= pages; page++) {
		const perPage = rng.int(3, 6);
		const sourceUrl =
			query.url !== undefined
				? `${query.url}${query.url.includes('?') ? '&' : '?'}page=${page}`
				: `https://${SEARCH_HOST}/search?q=${encodeURIComponent(query.keywords ?? '')}&page=${page}`;
		for (let i = 0; i < perPage; i++) {
			const first = rng.pick(FIRST_NAMES);
			const last = rng.pick(LAST_NAMES);
			const company = companyName(rng);
			const domain = `${slug(company)}.example.com`;
			leads.push({
				name: `${first} ${last}`,
				company,
				title: rng.pick(JOB_TITLES),
				email: `${first.toLowerCase()}.${last.toLowerCase()}@${domain}`,
				phone: phone(rng),
				website: `https://${domain}`,
				address: `${rng.int(1, 400)} ${rng.pick(STREETS)}, ${rng.pick(SUBURBS)} ${rng.pick(STATES)}`,
				source_url: sourceUrl,
				page,
			});
		}
	}
	return leads;
}

/** Social-platform leads: posts mentioning the keywords, filtered by sentiment, at most `expected` of them. */
export function socialLeads(keywords: string, sentimentType: string, expected: number, pageUrl?: string): SocialLead[] {
	const rng = rngFor('social-leads', pageUrl ?? '', keywords.toLowerCase(), sentimentType);
	// Only so many matching posts exist for a query.
	const available = rng.int(40, 150);
	const count = Math.min(expected, available);
	const sentiments = ['positive', 'neutral', 'negative'] as const;
	const leads: SocialLead[] = [];
	for (let i = 0; i < count; i++) {
		const sentiment = sentimentType === 'all' ? rng.pick(sentiments) : (sentimentType as SocialLead['sentiment']);
		const first = rng.pick(FIRST_NAMES);
		const last = rng.pick(LAST_NAMES);
		const username = `${first.toLowerCase()}_${last.toLowerCase()}${rng.int(1, 999)}`;
		const postId = String(rng.int(10_000_000, 99_999_999));
		leads.push({
			username,
			display_name: `${first} ${last}`,
			profile_url: `https://${SOCIAL_HOST}/@${username}`,
			post_url: `https://${SOCIAL_HOST}/@${username}/posts/${postId}`,
			post_text: `${rng.pick(SENTIMENT_PHRASES[sentiment])} ${keywords} #${slug(keywords).replace(/-/g, '')}`,
			sentiment,
			followers: rng.int(12, 250_000),
			likes: rng.int(0, 4_000),
			posted_at: isoDay(rng.int(0, 60)),
			keyword: keywords,
		});
	}
	return leads;
}

// ---------------------------------------------------------------------------------------------------------------
// Page HTML (the HTML endpoint)

function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function renderValue(value: unknown): string {
	if (typeof value === 'string' && /^https?:\/\//.test(value)) return `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>`;
	if (value !== null && typeof value === 'object') {
		return Object.entries(value as Record<string, unknown>)
			.map(([k, v]) => `<span class="${escapeHtml(k)}">${renderValue(v)}</span>`)
			.join(' ');
	}
	return escapeHtml(String(value));
}

/** The HTML of the page a run scraped, rendered from the records it extracted (one article per record). */
export function pageHtml(title: string, scrapedUrl: string, records: unknown[]): string {
	const articles = records
		.map((record) => {
			const fields = Object.entries(record as Record<string, unknown>)
				.map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${renderValue(value)}</dd>`)
				.join('');
			return `<article class="result"><dl>${fields}</dl></article>`;
		})
		.join('\n');
	const canonical = /^https?:\/\//.test(scrapedUrl) ? `<link rel="canonical" href="${escapeHtml(scrapedUrl)}">` : '';
	return [
		'<!DOCTYPE html>',
		'<html lang="en">',
		`<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${canonical}</head>`,
		`<body><main><h1>${escapeHtml(title)}</h1>`,
		articles,
		'</main></body>',
		'</html>',
	].join('\n');
}
