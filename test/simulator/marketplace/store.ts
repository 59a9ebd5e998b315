import type { SimClock } from '../core/clock';
import { cronFirings, nextCronFiring, parseCron, NEXT_FIRING_HORIZON_MS, type CronExpression } from './cron';
import {
	ALTERNATIVE_KEYWORD_SUFFIXES,
	pageHtml,
	pdfPool,
	portalListings,
	searchLeads,
	socialLeads,
	type PortalTarget,
} from './content';
import type {
	PdfLink,
	RunListRecord,
	RunResult,
	RunStatus,
	ScraperConfiguration,
	ScraperObject,
	ScraperSchedule,
	ScraperType,
	ScrapingRunRecord,
} from './types';
import type { PdfInput, PdfKeyword, PortalInput, SearchLeadsInput, SocialLeadsInput } from './validation';

/** Text that makes a run fail when it appears in a scraper name, URL, location or keyword (case-insensitive). */
export const FAIL_MARKER = 'sim-fail';

/** How many PDFs a PDF scraper looks for per keyword when `expected_pdf` is not given. */
export const DEFAULT_PDFS_PER_KEYWORD = 5;

export interface RunTimings {
	/** Simulated ms a run result stays `queued`. */
	queuedMs: number;
	/** Simulated ms it then stays `running` before it is `succeeded` or `failed`. */
	runMs: number;
	/** Extra simulated ms per result index within one scraping run, so results of one run can finish one by one. */
	runStaggerMs: number;
	/**
	 * Most scheduled runs one scraper's schedule creates at one catch-up (one read after the clock moved); when
	 * more firings are due, only the newest this many are created and the older ones are skipped (counted in
	 * `firingsSkipped`), as a service that was down would not have run them either.
	 */
	scheduleCatchUpLimit: number;
}

/** Default of `scheduleCatchUpLimit`: a week of an every-minute schedule, 35 days of an every-5-minutes one. */
export const SCHEDULE_CATCH_UP_LIMIT = 10_000;

/** A scraper's schedule (`scheduled`, `cron`, `cron_timezone` and the `cron_*` parts of its configuration). */
export interface StoredSchedule {
	cron: CronExpression;
	/** Canonical IANA name (`UTC` by default). */
	timezone: string;
	/** When the schedule was turned on: only firings strictly after it make runs. */
	since: number;
	/** Every firing <= this instant has been handled (run created, or skipped by the catch-up limit). */
	handledUntil: number;
	/** The next firing after `handledUntil` (or a re-check point when none comes within the look-ahead). */
	nextAt: number;
	/** Every `failEvery`-th scheduled run (1-based count since `since`) fails; undefined: none forced. */
	failEvery?: number;
	runsCreated: number;
	firingsSkipped: number;
}

export type ScraperSpec =
	| { type: 'real_estate_portal'; input: PortalInput }
	| { type: 'pdf'; input: PdfInput }
	| { type: 'leads_search'; input: SearchLeadsInput }
	| { type: 'leads_social'; input: SocialLeadsInput };

export interface StoredScraper {
	id: number;
	user_id: number;
	name: string;
	spec: ScraperSpec;
	/** Default URLs (`url`/`urls` of the scraper object). */
	urls: string[];
	created_at: number;
	updated_at: number;
	/** Set while the scraper is scheduled. */
	schedule?: StoredSchedule;
}

export interface StoredResult {
	id: number;
	scraping_run_id: number;
	scraper_id: number;
	user_id: number;
	scraper_name: string;
	scraped_url: string;
	created_at: number;
	startsAt: number;
	endsAt: number;
	fails: boolean;
	/** The extracted records, computed on first read (PDF runs compute them up front, see `startRun`). */
	records: () => unknown[];
}

export interface StoredRun {
	id: number;
	user_id: number;
	scraper_id: number;
	created_at: number;
	results: StoredResult[];
}

/** What one result of a run scrapes: its `scraped_url` label, whether it fails, and how to extract its records. */
interface Target {
	scrapedUrl: string;
	fails: boolean;
	records: () => unknown[];
}

function hasMarker(...texts: Array<string | undefined>): boolean {
	return texts.some((text) => text !== undefined && text.toLowerCase().includes(FAIL_MARKER));
}

function memo<T>(compute: () => T): () => T {
	let done = false;
	let value: T;
	return () => {
		if (!done) {
			value = compute();
			done = true;
		}
		return value;
	};
}

/**
 * The state of the section C service: users (by token), scrapers, scraping runs and their results. Statuses are
 * derived from the clock when read, from the instants stamped on each result at creation.
 */
export class MarketplaceStore {
	private readonly tokens = new Map<string, number>();
	private readonly scrapers = new Map<number, StoredScraper>();
	private readonly runs = new Map<number, StoredRun>();
	/** Scrapers with a schedule, by id. */
	private readonly scheduled = new Map<number, StoredScraper>();
	private results: StoredResult[] = [];
	/** PDF URLs already returned to each user, for `unique`. */
	private readonly returnedPdfs = new Map<number, Set<string>>();
	// Distinct ranges so a test that mixes up scraper, run and result ids fails loudly.
	private nextScraperId = 101;
	private nextRunId = 5001;
	private nextResultId = 90001;
	private demoSeeded = false;

	constructor(
		private readonly clock: SimClock,
		private readonly timings: () => RunTimings,
	) {}

	addToken(token: string, userId: number): void {
		this.tokens.set(token, userId);
	}

	userFor(token: string): number | undefined {
		return this.tokens.get(token);
	}

	/** Forgets scrapers, runs and returned PDFs; tokens stay. */
	reset(): void {
		this.scrapers.clear();
		this.scheduled.clear();
		this.runs.clear();
		this.results = [];
		this.returnedPdfs.clear();
		this.nextScraperId = 101;
		this.nextRunId = 5001;
		this.nextResultId = 90001;
		this.demoSeeded = false;
	}

	createScraper(userId: number, spec: ScraperSpec): StoredScraper {
		this.materialize();
		const now = this.clock.now();
		let urls: string[] = [];
		if (spec.type === 'real_estate_portal' && spec.input.options === 'links') urls = [...spec.input.urls];
		if (spec.type === 'leads_search' && spec.input.url !== undefined) urls = [spec.input.url];
		const scraper: StoredScraper = { id: this.nextScraperId++, user_id: userId, name: spec.input.name, spec, urls, created_at: now, updated_at: now };
		this.scrapers.set(scraper.id, scraper);
		return scraper;
	}

	/** The user's scraper, or undefined when it does not exist or belongs to someone else (both answer 404). */
	scraperOf(userId: number, id: number): StoredScraper | undefined {
		this.materialize();
		const scraper = this.scrapers.get(id);
		return scraper && scraper.user_id === userId ? scraper : undefined;
	}

	runOf(userId: number, id: number): StoredRun | undefined {
		this.materialize();
		const run = this.runs.get(id);
		return run && run.user_id === userId ? run : undefined;
	}

	/** The user's result, or undefined when it does not exist (or was deleted) or belongs to someone else. */
	resultOf(userId: number, id: number): StoredResult | undefined {
		this.materialize();
		return this.results.find((r) => r.id === id && r.user_id === userId);
	}

	/**
	 * The user's scrapers, newest first: `created_at` descending, then `id` descending (scrapers created at the same
	 * instant: the one created last first), then paged like the results list.
	 */
	listScrapers(userId: number, page: number, perPage: number): ScraperObject[] {
		this.materialize();
		return [...this.scrapers.values()]
			.filter((s) => s.user_id === userId)
			.sort((a, b) => b.created_at - a.created_at || b.id - a.id)
			.slice((page - 1) * perPage, page * perPage)
			.map((s) => this.scraperObject(s));
	}

	/** Deletes a scraping run and every result of it: reads of either answer 404 from now on. */
	deleteRun(run: StoredRun): void {
		this.runs.delete(run.id);
		this.results = this.results.filter((r) => r.scraping_run_id !== run.id);
	}

	/** Deletes one result; a scraping run left without results is deleted with it (nothing of it is left to read). */
	deleteResult(result: StoredResult): void {
		this.results = this.results.filter((r) => r !== result);
		const run = this.runs.get(result.scraping_run_id);
		if (!run) return;
		run.results = run.results.filter((r) => r !== result);
		if (run.results.length === 0) this.runs.delete(run.id);
	}

	/**
	 * Starts a scraping run of the scraper now (POST run, create-and-run): one result per target (URL, location group
	 * or keyword). Due scheduled runs are created first, so they come before it.
	 */
	startRun(scraper: StoredScraper, overrideUrls?: string[]): StoredRun {
		this.materialize();
		return this.createRun(scraper, overrideUrls, this.clock.now());
	}

	/** A scraping run created at `at`; `forceFail` makes every result fail (a schedule's `failEvery`). */
	private createRun(scraper: StoredScraper, overrideUrls: string[] | undefined, at: number, forceFail = false): StoredRun {
		const { queuedMs, runMs, runStaggerMs } = this.timings();
		const run: StoredRun = { id: this.nextRunId++, user_id: scraper.user_id, scraper_id: scraper.id, created_at: at, results: [] };
		this.targets(scraper, overrideUrls, forceFail).forEach((target, index) => {
			const startsAt = at + queuedMs;
			run.results.push({
				id: this.nextResultId++,
				scraping_run_id: run.id,
				scraper_id: scraper.id,
				user_id: scraper.user_id,
				scraper_name: scraper.name,
				scraped_url: target.scrapedUrl,
				created_at: at,
				startsAt,
				endsAt: startsAt + runMs + index * runStaggerMs,
				fails: target.fails,
				records: memo(target.records),
			});
		});
		this.runs.set(run.id, run);
		this.results.push(...run.results);
		scraper.updated_at = at;
		return run;
	}

	private targets(scraper: StoredScraper, overrideUrls: string[] | undefined, forceFail: boolean): Target[] {
		const spec = scraper.spec;
		// A forced failure counts as a failing name: every result fails (and a failed PDF result returns no files).
		const nameFails = forceFail || hasMarker(scraper.name);
		switch (spec.type) {
			case 'real_estate_portal': {
				const input = spec.input;
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
			case 'pdf':
				return this.pdfTargets(scraper, spec.input, nameFails, overrideUrls);
			case 'leads_search': {
				const input = spec.input;
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
			case 'leads_social': {
				const input = spec.input;
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
		}
	}

	/**
	 * PDF runs pick their files up front, because `unique` depends on what earlier runs returned to the user:
	 * `expected_pdf` is shared out over the keywords (or URLs); when their results run short, alternative
	 * keywords (the keyword plus a word such as `report`) are added as extra results until the total is reached
	 * or the alternatives are used up.
	 */
	private pdfTargets(scraper: StoredScraper, input: PdfInput, nameFails: boolean, overrideUrls?: string[]): Target[] {
		const returned = this.returnedPdfs.get(scraper.user_id) ?? new Set<string>();
		this.returnedPdfs.set(scraper.user_id, returned);
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

	/** Status and `updated_at` of a result at simulated time `now`. */
	state(result: StoredResult, now = this.clock.now()): { status: RunStatus; updatedAt: number } {
		if (now < result.startsAt) return { status: 'queued', updatedAt: result.created_at };
		if (now < result.endsAt) return { status: 'running', updatedAt: result.startsAt };
		return { status: result.fails ? 'failed' : 'succeeded', updatedAt: result.endsAt };
	}

	runStatus(run: StoredRun, now = this.clock.now()): RunStatus {
		const states = run.results.map((r) => this.state(r, now).status);
		const done = states.filter((s) => s === 'succeeded' || s === 'failed').length;
		if (done === states.length) return states.includes('failed') ? 'failed' : 'succeeded';
		if (done > 0 || states.includes('running')) return 'running';
		return 'queued';
	}

	/** A run-list record; `content` is the extracted data, or the page HTML for the HTML endpoint, once succeeded. */
	runListRecord(result: StoredResult, content: 'data' | 'html', now = this.clock.now()): RunListRecord {
		const { status, updatedAt } = this.state(result, now);
		let value: unknown = null;
		if (status === 'succeeded') {
			value = content === 'data' ? result.records() : pageHtml(`${result.scraper_name} - ${result.scraped_url}`, result.scraped_url, result.records());
		}
		return {
			id: result.id,
			scraper_id: result.scraper_id,
			scraping_run_id: result.scraping_run_id,
			scraper_name: result.scraper_name,
			scraped_url: result.scraped_url,
			status,
			content: value,
			created_at: iso(result.created_at),
			updated_at: iso(updatedAt),
		};
	}

	scrapingRunRecord(run: StoredRun, content: 'data' | 'html'): ScrapingRunRecord {
		const now = this.clock.now();
		return {
			id: run.id,
			scraper_id: run.scraper_id,
			status: this.runStatus(run, now),
			results: run.results.map((r) => this.runListRecord(r, content, now)),
			created_at: iso(run.created_at),
		};
	}

	/** A run result as create responses show it; portal and PDF ones carry the nested configuration. */
	runResult(result: StoredResult, scraper: StoredScraper): RunResult {
		const { status, updatedAt } = this.state(result);
		const out: RunResult = {
			scraping_run_id: result.scraping_run_id,
			user_id: result.user_id,
			scraper_name: result.scraper_name,
			scrapped_url: result.scraped_url,
			scraped_url: result.scraped_url,
			scraper_id: result.scraper_id,
			status,
			created_at: iso(result.created_at),
			updated_at: iso(updatedAt),
			id: result.id,
		};
		if (scraper.spec.type === 'real_estate_portal' || scraper.spec.type === 'pdf') out.scraper = this.configuration(scraper);
		return out;
	}

	scraperObject(scraper: StoredScraper): ScraperObject {
		return {
			id: scraper.id,
			name: scraper.name,
			url: [...scraper.urls],
			urls: [...scraper.urls],
			scheduled: scraper.schedule !== undefined,
			schedule: this.scheduleObject(scraper),
			created_at: iso(scraper.created_at),
			updated_at: iso(scraper.updated_at),
		};
	}

	/** `schedule` of the scraper object: null when unscheduled (the interface), else ours (see README). */
	scheduleObject(scraper: StoredScraper): ScraperSchedule | null {
		const schedule = scraper.schedule;
		if (!schedule) return null;
		const next = schedule.nextAt > this.clock.now() ? schedule.nextAt : this.nextFiringAfter(schedule, this.clock.now());
		return { cron: schedule.cron.expression, cron_timezone: schedule.timezone, next_run_at: next === undefined ? null : iso(next) };
	}

	/**
	 * The nested configuration: every named field, observed defaults, else null. Create responses carry it for portal
	 * and PDF scrapers only (`runResult`); the lead kinds get one too (workflow null) for the control methods.
	 */
	configuration(scraper: StoredScraper): ScraperConfiguration {
		const spec = scraper.spec;
		let type: ScraperType;
		let workflow: ScraperConfiguration['workflow'];
		if (spec.type === 'real_estate_portal') {
			const input = spec.input;
			type = 'real_estate_portal';
			workflow = [
				{
					type: 'query',
					data: {
						channel: input.channel,
						localities: input.options === 'locations' ? input.locations.map((searchLocation) => ({ searchLocation })) : [],
						filters: {
							propertyTypes: [...input.property_types],
							surroundingSuburbs: input.including_surrounding_areas,
							excludeNoDisplayPrice: input.only_show_properties_with_a_price,
							landSize: {
								...(input.landsize_minimum !== undefined ? { minimum: input.landsize_minimum } : {}),
								maximum: input.landsize_maximum ?? 'any',
							},
						},
					},
				},
			];
		} else if (spec.type === 'pdf') {
			type = 'pdf';
			workflow = [{ type: 'options', data: { keywords: spec.input.keywords.map((k) => ({ type: 'keyword', data: { keyword: k.keyword, prompt: k.prompt } })) } }];
		} else {
			type = spec.type;
			workflow = null;
		}
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
			scheduled: schedule !== undefined,
			cron: schedule ? schedule.cron.expression : null,
			cron_timezone: schedule ? schedule.timezone : 'UTC',
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
			click_action_enabled: false,
			click_action_selector: null,
			click_action_wait: 'no',
			workflow,
			version: 2,
			proxy_type: 'rotation',
			proxy_host: null,
			proxy_port: null,
			proxy_username: null,
			proxy_password: null,
			parsers: null,
			deleted_at: null,
			external_auth: false,
		};
	}

	/**
	 * The user's results, newest first: `created_at` descending, then `scraping_run_id` descending, then `id`
	 * descending. Every result of a run shares its `created_at` and the run's result ids are consecutive, so the
	 * results of one run are always adjacent (runs created at the same instant never interleave), the run created
	 * last first.
	 */
	listResults(userId: number, page: number, perPage: number): RunListRecord[] {
		this.materialize();
		const now = this.clock.now();
		return this.results
			.filter((r) => r.user_id === userId)
			.sort((a, b) => b.created_at - a.created_at || b.scraping_run_id - a.scraping_run_id || b.id - a.id)
			.slice((page - 1) * perPage, page * perPage)
			.map((r) => this.runListRecord(r, 'data', now));
	}

	/** The newest scraping run of a scraper. */
	latestRun(scraperId: number): StoredRun | undefined {
		this.materialize();
		let latest: StoredRun | undefined;
		for (const run of this.runs.values()) {
			if (run.scraper_id !== scraperId) continue;
			if (!latest || run.created_at > latest.created_at || (run.created_at === latest.created_at && run.id > latest.id)) latest = run;
		}
		return latest;
	}

	/**
	 * Inserts `count` finished single-result runs of one search-lead scraper for the user, one simulated minute
	 * apart and all in the past, so paging tests need no create calls.
	 */
	seedRuns(userId: number, count: number): StoredScraper {
		this.materialize();
		const { queuedMs, runMs } = this.timings();
		const now = this.clock.now();
		const scraper = this.createScraper(userId, {
			type: 'leads_search',
			input: { name: `Seeded scraper ${this.nextScraperId}`, search_type: 'keywords', keywords: 'seeded leads', limit_pages: 1 },
		});
		const finishedBy = now - queuedMs - runMs - 1;
		for (let i = 0; i < count; i++) this.createRun(scraper, undefined, finishedBy - (count - 1 - i) * 60_000);
		scraper.created_at = finishedBy - count * 60_000;
		return scraper;
	}

	/**
	 * Demo data: a portal scraper (two runs), a PDF scraper and a search-lead scraper (one run each) for the user,
	 * created and finished in the last three days, so the demo's lists show several scrapers with results.
	 */
	seedDemo(userId: number): void {
		if (this.demoSeeded) return;
		this.demoSeeded = true;
		const day = 86_400_000;
		const now = this.clock.now();
		const specs: Array<{ spec: ScraperSpec; runsDaysAgo: number[] }> = [
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
		specs.forEach(({ spec, runsDaysAgo }, i) => {
			const scraper = this.createScraper(userId, spec);
			const firstRun = now - runsDaysAgo[0] * day + i * 3_600_000;
			scraper.created_at = firstRun - 60_000;
			// Whole days in the past: every result is long past `queuedMs + runMs`, so succeeded.
			for (const daysAgo of runsDaysAgo) this.createRun(scraper, undefined, now - daysAgo * day + i * 3_600_000);
			if (i === 0) this.schedule(scraper, parseCron(DEMO_SCHEDULE.cron), DEMO_SCHEDULE.timezone);
		});
	}

	// -----------------------------------------------------------------------------------------------------------
	// Schedules

	/**
	 * Turns the scraper's schedule on (or replaces it) from now: due runs are created first, then only firings
	 * strictly after now make runs. `cron` is parsed already; `timezone` canonical.
	 */
	schedule(scraper: StoredScraper, cron: CronExpression, timezone: string, failEvery?: number): void {
		this.materialize();
		const now = this.clock.now();
		const schedule: StoredSchedule = { cron, timezone, since: now, handledUntil: now, nextAt: now, failEvery, runsCreated: 0, firingsSkipped: 0 };
		schedule.nextAt = this.nextFiringAfter(schedule, now) ?? now + NEXT_FIRING_HORIZON_MS;
		scraper.schedule = schedule;
		scraper.updated_at = now;
		this.scheduled.set(scraper.id, scraper);
	}

	/** Turns the schedule off after creating the runs already due; the configuration goes back to the defaults. */
	unschedule(scraper: StoredScraper): void {
		this.materialize();
		if (!scraper.schedule) return;
		scraper.schedule = undefined;
		scraper.updated_at = this.clock.now();
		this.scheduled.delete(scraper.id);
	}

	private nextFiringAfter(schedule: StoredSchedule, after: number): number | undefined {
		return nextCronFiring(schedule.cron, after, schedule.timezone);
	}

	/**
	 * Creates every scheduled run whose firing time is <= now and not yet created, each with `created_at` = its
	 * firing time, in time order over all scrapers (ties: lower scraper id first), so run and result ids grow with
	 * `created_at`. Every public method that reads or writes scrapers or runs calls it first; nothing runs on
	 * timers. Cheap when nothing is due (one comparison per scheduled scraper).
	 */
	materialize(): void {
		if (this.scheduled.size === 0) return;
		const now = this.clock.now();
		const due: Array<{ at: number; scraper: StoredScraper }> = [];
		for (const scraper of this.scheduled.values()) {
			const schedule = scraper.schedule as StoredSchedule;
			if (schedule.nextAt > now) continue;
			const limit = Math.max(1, Math.floor(this.timings().scheduleCatchUpLimit));
			let firings: number[] = [];
			let dropped = 0;
			for (const at of cronFirings(schedule.cron, schedule.handledUntil, now, schedule.timezone)) {
				firings.push(at);
				// Keep only the newest `limit` (trimmed in batches, so a huge jump stays linear).
				if (firings.length >= 2 * limit) {
					dropped += firings.length - limit;
					firings = firings.slice(firings.length - limit);
				}
			}
			if (firings.length > limit) {
				dropped += firings.length - limit;
				firings = firings.slice(firings.length - limit);
			}
			schedule.firingsSkipped += dropped;
			schedule.handledUntil = now;
			schedule.nextAt = this.nextFiringAfter(schedule, now) ?? now + NEXT_FIRING_HORIZON_MS;
			for (const at of firings) due.push({ at, scraper });
		}
		due.sort((a, b) => a.at - b.at || a.scraper.id - b.scraper.id);
		for (const { at, scraper } of due) {
			const schedule = scraper.schedule as StoredSchedule;
			schedule.runsCreated++;
			const fail = schedule.failEvery !== undefined && schedule.runsCreated % schedule.failEvery === 0;
			this.createRun(scraper, undefined, at, fail);
		}
	}
}

/** The demo's portal scraper (`Inner-city rentals`) runs on this schedule from `seedDemo()` on: 6 runs an hour. */
export const DEMO_SCHEDULE = { cron: '*/10 * * * *', timezone: 'UTC' } as const;

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}
