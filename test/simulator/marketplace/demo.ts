/**
 * The marketplace simulator's demo data (`seedDemo`, the standalone simulator and the demo): three scrapers of the
 * demo account with their past runs, the portal one on a schedule so new runs appear while the demo runs.
 */
import type { ScraperSpec } from './stored';

/** The demo's portal scraper (`Inner-city rentals`) runs on this schedule from `seedDemo()` on: 6 runs an hour. */
export const DEMO_SCHEDULE = { cron: '*/10 * * * *', timezone: 'UTC' } as const;

/**
 * A portal scraper (two runs), a PDF scraper and a search-lead scraper (one run each), with the days ago of their
 * runs; the first one is scheduled (`DEMO_SCHEDULE`). New objects on every call: the store keeps what it is given.
 */
export function demoScrapers(): Array<{ spec: ScraperSpec; runsDaysAgo: number[] }> {
	return [
		{
			spec: {
				type: 'real_estate_portal',
				input: {
					name: 'Inner-city rentals',
					options: 'locations',
					urls: [],
					locations: ['Surry Hills NSW 2010', 'Newtown NSW 2042'],
					channel: 'rent',
					property_types: ['house', 'unit apartment'],
					including_surrounding_areas: false,
					only_show_properties_with_a_price: true,
				},
			},
			runsDaysAgo: [3, 1],
		},
		{
			spec: {
				type: 'pdf',
				input: {
					name: 'Annual reports',
					keywords: [{ keyword: 'annual report 2024', prompt: 'Is this a company annual report?' }],
					unique: false,
					expected_pdf: 5,
				},
			},
			runsDaysAgo: [2],
		},
		{
			spec: { type: 'leads_search', input: { name: 'Plumbers in Austin', search_type: 'keywords', keywords: 'plumbers austin tx', limit_pages: 2 } },
			runsDaysAgo: [2],
		},
	];
}
