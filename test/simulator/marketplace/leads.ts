/**
 * Leads a section C run extracts, deterministic per input: search-engine leads (result pages of a keyword search
 * or a start URL) and social-platform leads (posts mentioning the keywords, by sentiment).
 */
import type { SeededRandom } from '../core/random';
import { FIRST_NAMES, LAST_NAMES, STATES, STREETS, SUBURBS, isoDay, phone, rngFor, slug } from './content';
import type { SearchLead, SocialLead } from './records';

const COMPANY_WORDS = ['Acme', 'Northwind', 'Bluepeak', 'Orbit', 'Silverline', 'Brightpath', 'Ironbark', 'Keystone', 'Lumen', 'Redgum', 'Tidewater', 'Vertex'];
const COMPANY_KINDS = ['Consulting', 'Logistics', 'Labs', 'Digital', 'Solutions', 'Holdings', 'Media', 'Analytics'];
const JOB_TITLES = ['Marketing Manager', 'Head of Sales', 'Operations Director', 'Founder', 'Chief Technology Officer', 'Procurement Lead', 'Business Development Manager', 'Product Owner'];
const SEARCH_HOST = 'search.example.com';
const SOCIAL_HOST = 'social.example.com';

const SENTIMENT_PHRASES = {
	positive: ['Really impressed with', 'Loving the results from', 'Highly recommend', 'Best decision this year:'],
	neutral: ['Anyone have experience with', 'Comparing options for', 'Reading up on', 'Notes from a meeting about'],
	negative: ['Disappointed with', 'Still waiting on support for', 'Not happy about', 'Frustrating week dealing with'],
} as const;

function companyName(rng: SeededRandom): string {
	return `${rng.pick(COMPANY_WORDS)} ${rng.pick(COMPANY_KINDS)}`;
}

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
