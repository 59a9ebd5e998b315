/**
 * The nested configuration of a section C scraper (`scraper` of a portal or PDF create's run results, and the
 * control methods' `configuration`): every field the interface names, in its order; observed defaults, else null.
 */
import { iso, type StoredScraper } from './stored';
import type { ScraperConfiguration, ScraperType } from './types';

/** The page settings of the configuration: none is shown by the interface. */
const PAGE_DEFAULTS = {
	pdf_urls: null,
	ai_prompt: null,
	ai_scope: null,
	headers: null,
	cookies: null,
	user_agent: null,
	disabled_resources: null,
	delay: 0,
	html_wanted: false,
	screenshot_wanted: false,
	screenshot_type: null,
	locale: null,
} as const;

/** Pagination settings: none. */
const PAGINATION_DEFAULTS = {
	paginate: 0,
	pagination_type: null,
	infinite_pagination_type: null,
	infinite_pagination_seconds: null,
	infinite_pagination_text: null,
	infinite_pagination_css_selector: null,
	infinite_pagination_n_selector: null,
	load_more_selector: null,
	pagination_query_parameter: null,
	pagination_next_page_selector: null,
	pagination_limit_type: null,
	pagination_max_page: null,
	max_next_page: null,
	pagination_max_variable: null,
} as const;

/** The click action: off. */
const CLICK_DEFAULTS = { click_action_enabled: false, click_action_selector: null, click_action_wait: 'no' } as const;

/** Version, proxy and the rest: a rotating proxy, nothing else set. */
const PROXY_DEFAULTS = {
	version: 2,
	proxy_type: 'rotation',
	proxy_host: null,
	proxy_port: null,
	proxy_username: null,
	proxy_password: null,
	parsers: null,
	deleted_at: null,
	external_auth: false,
} as const;

/** The scraper's type and `workflow`: the portal's query, the PDF keywords; null for the lead kinds. */
function workflowOf(scraper: StoredScraper): { type: ScraperType; workflow: ScraperConfiguration['workflow'] } {
	const spec = scraper.spec;
	if (spec.type === 'pdf') {
		const keywords = spec.input.keywords.map((k) => ({ type: 'keyword' as const, data: { keyword: k.keyword, prompt: k.prompt } }));
		return { type: 'pdf', workflow: [{ type: 'options', data: { keywords } }] };
	}
	if (spec.type !== 'real_estate_portal') return { type: spec.type, workflow: null };
	const input = spec.input;
	const filters = {
		propertyTypes: [...input.property_types],
		surroundingSuburbs: input.including_surrounding_areas,
		excludeNoDisplayPrice: input.only_show_properties_with_a_price,
		landSize: {
			...(input.landsize_minimum !== undefined ? { minimum: input.landsize_minimum } : {}),
			maximum: input.landsize_maximum ?? 'any',
		},
	};
	const localities = input.options === 'locations' ? input.locations.map((searchLocation) => ({ searchLocation })) : [];
	return { type: 'real_estate_portal', workflow: [{ type: 'query', data: { channel: input.channel, localities, filters } }] };
}

/**
 * The nested configuration: every named field, observed defaults, else null. Create responses carry it for portal
 * and PDF scrapers only; the lead kinds get one too (workflow null) for the control methods.
 */
export function configuration(scraper: StoredScraper): ScraperConfiguration {
	const { type, workflow } = workflowOf(scraper);
	const schedule = scraper.schedule;
	const [cronMinutes, cronHours, cronDayOfMonth, cronMonth, cronDayOfWeek] = schedule?.cron.fields ?? ['*', '*', '*', '*', '*'];
	return {
		id: scraper.id,
		user_id: scraper.user_id,
		sharing: false,
		share_uuid: null,
		name: scraper.name,
		type,
		urls: [...scraper.urls],
		...PAGE_DEFAULTS,
		scheduled: schedule !== undefined,
		cron: schedule ? schedule.cron.expression : null,
		cron_timezone: schedule ? schedule.timezone : 'UTC',
		...PAGINATION_DEFAULTS,
		created_at: iso(scraper.created_at),
		updated_at: iso(scraper.updated_at),
		cron_minutes: cronMinutes,
		cron_minutes_n_detail: null,
		cron_minutes_x_detail: null,
		cron_hours: cronHours,
		cron_hours_n_detail: null,
		cron_hours_x_detail: null,
		cron_day_of_month: cronDayOfMonth,
		cron_day_of_month_x_detail: null,
		cron_month: cronMonth,
		cron_month_x_detail: null,
		cron_day_of_week: cronDayOfWeek,
		cron_day_of_week_x_detail: null,
		...CLICK_DEFAULTS,
		workflow,
		...PROXY_DEFAULTS,
	};
}
