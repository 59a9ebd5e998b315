/**
 * Records of section C of the interface (the marketplace API), as the simulator answers them.
 * Field names are the interface's, snake_case as the real service spells them. The records a run extracts are
 * in `records.ts`.
 */

/** `status` of a run-list record and of a scraping run. */
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** `type` of a created scraper. The portal and PDF names are the interface's; the two lead kinds are ours. */
export type ScraperType = 'real_estate_portal' | 'pdf' | 'leads_search' | 'leads_social';

/** C. Scraper object (`scraper` in create responses). */
export interface ScraperObject {
	id: number;
	name: string;
	url: string[];
	urls: string[];
	scheduled: boolean;
	/** Null when unscheduled (the interface); the shape when scheduled is not shown, this one is ours. */
	schedule: ScraperSchedule | null;
	created_at: string;
	updated_at: string;
}

/**
 * `schedule` of a scheduled scraper (the interface shows only `null`, for unscheduled ones): the configuration's
 * `cron` and `cron_timezone`, and the firing time of its next scheduled run (null if none within 8 years).
 */
export interface ScraperSchedule {
	cron: string;
	cron_timezone: string;
	next_run_at: string | null;
}

/** One entry of a portal scraper's `workflow`. */
export interface PortalWorkflowEntry {
	type: 'query';
	data: {
		channel: string;
		localities: Array<{ searchLocation: string }>;
		filters: {
			propertyTypes: string[];
			surroundingSuburbs: boolean;
			excludeNoDisplayPrice: boolean;
			landSize: { minimum?: string; maximum: string };
		};
	};
}

/** One entry of a PDF scraper's `workflow`. */
export interface PdfWorkflowEntry {
	type: 'options';
	data: { keywords: Array<{ type: 'keyword'; data: { keyword: string; prompt: string } }> };
}

/**
 * The nested configuration portal and PDF creates return in each run result. Every field the interface names is
 * present; values the interface does not show are null.
 */
export interface ScraperConfiguration {
	id: number;
	user_id: number;
	sharing: boolean;
	share_uuid: string | null;
	name: string;
	type: ScraperType;
	urls: string[];
	pdf_urls: string[] | null;
	ai_prompt: string | null;
	ai_scope: string | null;
	headers: Record<string, string> | null;
	cookies: string | null;
	user_agent: string | null;
	disabled_resources: string[] | null;
	delay: number;
	html_wanted: boolean;
	screenshot_wanted: boolean;
	screenshot_type: string | null;
	locale: string | null;
	scheduled: boolean;
	cron: string | null;
	cron_timezone: string;
	paginate: number;
	pagination_type: string | null;
	infinite_pagination_type: string | null;
	infinite_pagination_seconds: number | null;
	infinite_pagination_text: string | null;
	infinite_pagination_css_selector: string | null;
	infinite_pagination_n_selector: string | null;
	load_more_selector: string | null;
	pagination_query_parameter: string | null;
	pagination_next_page_selector: string | null;
	pagination_limit_type: string | null;
	pagination_max_page: number | null;
	max_next_page: number | null;
	pagination_max_variable: string | null;
	created_at: string;
	updated_at: string;
	cron_minutes: string;
	cron_minutes_n_detail: string | null;
	cron_minutes_x_detail: string | null;
	cron_hours: string;
	cron_hours_n_detail: string | null;
	cron_hours_x_detail: string | null;
	cron_day_of_month: string;
	cron_day_of_month_x_detail: string | null;
	cron_month: string;
	cron_month_x_detail: string | null;
	cron_day_of_week: string;
	cron_day_of_week_x_detail: string | null;
	click_action_enabled: boolean;
	click_action_selector: string | null;
	click_action_wait: string;
	workflow: PortalWorkflowEntry[] | PdfWorkflowEntry[] | null;
	version: number;
	proxy_type: string;
	proxy_host: string | null;
	proxy_port: number | null;
	proxy_username: string | null;
	proxy_password: string | null;
	parsers: unknown[] | null;
	deleted_at: string | null;
	external_auth: boolean;
}

/** C. Run result (`results[]` in create responses). */
export interface RunResult {
	scraping_run_id: number;
	user_id: number;
	scraper_name: string;
	/** The real service's misspelt twin of `scraped_url`; same value. */
	scrapped_url: string;
	scraped_url: string;
	scraper_id: number;
	status: RunStatus;
	created_at: string;
	updated_at: string;
	id: number;
	/** Portal and PDF creates only. */
	scraper?: ScraperConfiguration;
}

/** C. Run-list record (`/api/results`, `/api/scrapers/{id}/run`, the HTML endpoint). */
export interface RunListRecord {
	id: number;
	scraper_id: number;
	scraping_run_id: number;
	scraper_name: string;
	scraped_url: string;
	status: RunStatus;
	/** Null until the run is done; then the extracted data (or the page HTML on the HTML endpoint). */
	content: unknown;
	created_at: string;
	updated_at: string;
}

/** `data` of GET `/api/scraping-runs/html/{id}` and GET `/api/scraping-runs/{id}`. */
export interface ScrapingRunRecord {
	id: number;
	scraper_id: number;
	status: RunStatus;
	results: RunListRecord[];
	created_at: string;
}

/**
 * `data` of GET `/api/account` (public facts: the account, the cheapest read for a credential test). The shape is
 * not published; this small one is ours: the user's id (the integer `user_id` of their scrapers and runs), name,
 * e-mail, plan name and when the account was created.
 */
export interface MarketplaceAccount {
	id: number;
	name: string;
	email: string;
	/** `free`, `pro` or `enterprise`. */
	plan: string;
	created_at: string;
}

/** Content type of the section C JSON answers: `text/plain` is what the vendor's 2024 OpenAPI declares. */
export type MarketplaceContentType = 'application/json' | 'text/plain';

/** Response of every create-and-run endpoint. */
export interface CreateAndRunResponse {
	message: 'Scraping queued successfully';
	scraper: ScraperObject;
	results: RunResult[];
}

/** Response of POST `/api/job-board-scrape`. */
export interface JobBoardResponse {
	result: unknown;
	tokenUsage: number;
	totalDone: number;
}

/** One invalid field of a 422 answer. */
export interface FieldError {
	/** Path of the field in the request, e.g. `keywords[0].prompt`, `schema.properties.jobs.items`. */
	field: string;
	/** Short rule name, e.g. `required`, `in`, `integer`, `min`, `url`. */
	rule: string;
	message: string;
}

/** Error body of every section C error status (same style as section B). */
export interface MarketplaceErrorBody {
	message: string;
	error?: string;
	statusCode?: number;
	errors?: FieldError[];
}
