/**
 * What one scraping run of a scraper scrapes: one target per URL, location group or keyword, each with its
 * `scraped_url` label, whether it fails (the `sim-fail` marker, or a schedule's forced failure) and how its records
 * are extracted. PDF runs pick their files up front, because `unique` depends on what earlier runs returned.
 */
import { ALTERNATIVE_KEYWORD_SUFFIXES, pdfPool, portalListings, type PortalTarget } from './content';
import type { PdfInput, PdfKeyword, PortalInput, SearchLeadsInput, SocialLeadsInput } from './inputs';
import { searchLeads, socialLeads } from './leads';
import type { PdfLink } from './records';
import type { StoredScraper } from './stored';

/** Text that makes a run fail when it appears in a scraper name, URL, location or keyword (case-insensitive). */
export const FAIL_MARKER = 'sim-fail';

/** How many PDFs a PDF scraper looks for per keyword when `expected_pdf` is not given. */
export const DEFAULT_PDFS_PER_KEYWORD = 5;

/** What one result of a run scrapes: its `scraped_url` label, whether it fails, and how to extract its records. */
export interface Target {
	scrapedUrl: string;
	fails: boolean;
	records: () => unknown[];
}

function hasMarker(...texts: Array<string | undefined>): boolean {
	return texts.some((text) => text !== undefined && text.toLowerCase().includes(FAIL_MARKER));
}

function portalTargets(input: PortalInput, nameFails: boolean, overrideUrls: string[] | undefined): Target[] {
	const portal = (target: PortalTarget, label: string, marked: boolean): Target => ({
		scrapedUrl: label,
		fails: nameFails || marked,
		records: () => portalListings(input, target),
	});
	const urls = overrideUrls ?? (input.options === 'links' ? input.urls : undefined);
	if (urls) return urls.map((url) => portal({ url }, url, hasMarker(url)));
	// One query covers every locality (the workflow lists them together), so one `Default` result.
	return [portal({ localities: input.locations }, 'Default', hasMarker(...input.locations))];
}

function searchLeadTargets(input: SearchLeadsInput, nameFails: boolean, overrideUrls: string[] | undefined): Target[] {
	if (overrideUrls) {
		return overrideUrls.map((url) => ({ scrapedUrl: url, fails: nameFails || hasMarker(url), records: () => searchLeads({ url }, input.limit_pages) }));
	}
	const query = input.search_type === 'url' ? { url: input.url } : { keywords: input.keywords };
	return [
		{
			scrapedUrl: input.search_type === 'url' ? (input.url as string) : 'Default',
			fails: nameFails || hasMarker(input.url, input.keywords),
			records: () => searchLeads(query, input.limit_pages),
		},
	];
}

function socialLeadTargets(input: SocialLeadsInput, nameFails: boolean, overrideUrls: string[] | undefined): Target[] {
	const fails = nameFails || hasMarker(input.keywords);
	if (overrideUrls) {
		return overrideUrls.map((url) => ({
			scrapedUrl: url,
			fails: fails || hasMarker(url),
			records: () => socialLeads(input.keywords, input.sentiment_type, input.expected_data, url),
		}));
	}
	return [{ scrapedUrl: 'Default', fails, records: () => socialLeads(input.keywords, input.sentiment_type, input.expected_data) }];
}

/**
 * PDF runs pick their files up front, because `unique` depends on what earlier runs returned to the user
 * (`returned`, updated here): `expected_pdf` is shared out over the keywords (or URLs); when their results run short,
 * alternative keywords (the keyword plus a word such as `report`) are added as extra results until the total is
 * reached or the alternatives are used up.
 */
function pdfTargets(input: PdfInput, nameFails: boolean, returned: Set<string>, overrideUrls?: string[]): Target[] {
	const pickedThisRun = new Set<string>();
	const take = (pool: PdfLink[], quota: number): PdfLink[] => {
		const out: PdfLink[] = [];
		for (const link of pool) {
			if (out.length >= quota) break;
			if (pickedThisRun.has(link.url) || (input.unique && returned.has(link.url))) continue;
			pickedThisRun.add(link.url);
			out.push(link);
		}
		return out;
	};
	const wanted = input.expected_pdf !== undefined ? Math.ceil(input.expected_pdf) : DEFAULT_PDFS_PER_KEYWORD * input.keywords.length;
	const share = (count: number, i: number): number => Math.floor(wanted / count) + (i < wanted % count ? 1 : 0);
	const planned: Array<{ label: string; fails: boolean; links: PdfLink[] }> = [];

	if (overrideUrls) {
		overrideUrls.forEach((url, i) => {
			const pool = input.keywords.flatMap((keyword) => pdfPool(keyword, url));
			planned.push({ label: url, fails: nameFails || hasMarker(url), links: take(pool, share(overrideUrls.length, i)) });
		});
	} else {
		let shortfall = 0;
		input.keywords.forEach((keyword, i) => {
			const quota = share(input.keywords.length, i);
			const links = take(pdfPool(keyword), quota);
			shortfall += quota - links.length;
			planned.push({ label: keyword.keyword, fails: nameFails || hasMarker(keyword.keyword), links });
		});
		for (const suffix of ALTERNATIVE_KEYWORD_SUFFIXES) {
			for (const keyword of input.keywords) {
				if (shortfall <= 0) break;
				const alternative: PdfKeyword = { keyword: `${keyword.keyword} ${suffix}`, prompt: keyword.prompt };
				const links = take(pdfPool(alternative), shortfall);
				if (links.length === 0) continue;
				shortfall -= links.length;
				planned.push({ label: alternative.keyword, fails: nameFails || hasMarker(alternative.keyword), links });
			}
		}
	}
	// A failed result returns nothing, so its files stay available to a later unique run.
	for (const p of planned) if (!p.fails) for (const link of p.links) returned.add(link.url);
	return planned.map((p) => ({ scrapedUrl: p.label, fails: p.fails, records: () => p.links }));
}

/**
 * The targets of a run of `scraper` (its default targets, or `overrideUrls`); `forceFail` makes every result fail.
 * `returnedPdfs` holds the PDF URLs already returned to each user, for `unique`.
 */
export function runTargets(
	scraper: StoredScraper,
	overrideUrls: string[] | undefined,
	forceFail: boolean,
	returnedPdfs: Map<number, Set<string>>,
): Target[] {
	const spec = scraper.spec;
	// A forced failure counts as a failing name: every result fails (and a failed PDF result returns no files).
	const nameFails = forceFail || hasMarker(scraper.name);
	switch (spec.type) {
		case 'real_estate_portal':
			return portalTargets(spec.input, nameFails, overrideUrls);
		case 'pdf': {
			const returned = returnedPdfs.get(scraper.user_id) ?? new Set<string>();
			returnedPdfs.set(scraper.user_id, returned);
			return pdfTargets(spec.input, nameFails, returned, overrideUrls);
		}
		case 'leads_search':
			return searchLeadTargets(spec.input, nameFails, overrideUrls);
		case 'leads_social':
			return socialLeadTargets(spec.input, nameFails, overrideUrls);
	}
}
