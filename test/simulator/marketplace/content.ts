import { SeededRandom, hashString } from '../core/random';
import { PROPERTY_TYPES, type PdfKeyword, type PortalInput } from './inputs';
import type { PdfLink, PortalListing } from './records';

/**
 * Extracted data of section C runs, shaped like real data and deterministic per input: the same scraper input
 * and target always yield the same records (seeded from a hash of them), so tests can compare runs. Here the shared
 * vocabulary, portal listings and PDF links; leads are in `leads.ts`, the HTML endpoint's page in `pageHtml.ts`.
 */

/** Dates in generated records count back from this fixed day, so content does not change from day to day. */
const BASE_DAY = Date.UTC(2025, 0, 15);
const DAY_MS = 86_400_000;

export const STREETS = ['Beach Road', 'Station Street', 'Park Avenue', 'High Street', 'Church Lane', 'Ocean Parade', 'Hill Crescent', 'Elm Court', 'River Terrace', 'Victoria Street', 'Wattle Grove', 'Banksia Way'];
export const SUBURBS = ['Bondi', 'Richmond', 'Fitzroy', 'Paddington', 'Manly', 'Carlton', 'Newtown', 'Brunswick', 'Glebe', 'Subiaco', 'Fremantle', 'Norwood'];
export const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS'];
export const FIRST_NAMES = ['Olivia', 'Liam', 'Charlotte', 'Noah', 'Amelia', 'Jack', 'Isla', 'William', 'Mia', 'Oliver', 'Ava', 'Lucas', 'Grace', 'Henry', 'Chloe', 'Leo'];
export const LAST_NAMES = ['Smith', 'Nguyen', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Martin', 'Anderson', 'Thompson', 'Walker', 'Harris', 'Lee', 'Kelly', 'Patel'];
const AGENCIES = ['Harbour Realty', 'Coastal Property Group', 'Urban Nest Agents', 'Summit Real Estate', 'Greenfield Partners', 'Bayside Homes'];
const DOC_KINDS = ['Annual Report', 'Guidelines', 'Fact Sheet', 'White Paper', 'Technical Specification', 'Policy', 'Case Study', 'Brochure'];
const DOC_HOSTS = ['docs.example.org', 'publications.example.gov', 'library.example.edu', 'files.example.com', 'resources.example.net'];
const PORTAL_HOST = 'www.realestate-portal.example';

export function rngFor(...parts: Array<string | number>): SeededRandom {
	return new SeededRandom(hashString(parts.join('\u241f')));
}

export function slug(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'item';
}

function titleCase(text: string): string {
	return text.replace(/\b\w/g, (ch) => ch.toUpperCase());
}

export function isoDay(offsetDays: number): string {
	return new Date(BASE_DAY - offsetDays * DAY_MS).toISOString();
}

function money(value: number): string {
	return `$${value.toLocaleString('en-US')}`;
}

export function phone(rng: SeededRandom): string {
	return `+61 4${rng.int(10, 99)} ${rng.int(100, 999)} ${rng.int(100, 999)}`;
}

function originOf(url: string): string {
	return new URL(url).origin;
}

function hostOf(url: string): string {
	return new URL(url).hostname;
}

// ---------------------------------------------------------------------------------------------------------------
// Real-estate portal listings

/** One portal target: a listing URL (links mode or a URL override) or the scraper's localities (locations mode). */
export type PortalTarget = { url: string } | { localities: string[] };

/** A listing's price for the channel (weekly rent, asking or sold price), hidden now and then unless only priced ones are wanted. */
function listingPrice(rng: SeededRandom, input: PortalInput): { price: string; priceValue: number | null } {
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
	return { price, priceValue };
}

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
			const { price, priceValue } = listingPrice(rng, input);
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
