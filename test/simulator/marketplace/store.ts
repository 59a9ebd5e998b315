/**
 * The state of the section C service: users (by token), scrapers, scraping runs and their results. Statuses are
 * derived from the clock when read (`views.ts`), from the instants stamped on each result at creation; the runs of
 * schedules are created by a catch-up (`schedules.ts`) before every read or write.
 */
import type { SimClock } from '../core/clock';
import { parseCron, type CronExpression } from './cron';
import { DEMO_SCHEDULE, demoScrapers } from './demo';
import { Schedules } from './schedules';
import type { RunTimings, ScraperSpec, StoredResult, StoredRun, StoredScraper } from './stored';
import { runTargets } from './targets';
import type { RunListRecord, ScraperObject } from './types';
import { runListRecord, scraperObject } from './views';

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

export class MarketplaceStore {
	private readonly tokens = new Map<string, number>();
	private readonly scrapers = new Map<number, StoredScraper>();
	private readonly runs = new Map<number, StoredRun>();
	private readonly schedules: Schedules;
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
	) {
		this.schedules = new Schedules(clock, timings);
	}

	addToken(token: string, userId: number): void {
		this.tokens.set(token, userId);
	}

	userFor(token: string): number | undefined {
		return this.tokens.get(token);
	}

	/** Forgets scrapers, runs and returned PDFs; tokens stay. */
	reset(): void {
		this.scrapers.clear();
		this.schedules.clear();
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
		const now = this.clock.now();
		return [...this.scrapers.values()]
			.filter((s) => s.user_id === userId)
			.sort((a, b) => b.created_at - a.created_at || b.id - a.id)
			.slice((page - 1) * perPage, page * perPage)
			.map((s) => scraperObject(s, now));
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
		runTargets(scraper, overrideUrls, forceFail, this.returnedPdfs).forEach((target, index) => {
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
			.map((r) => runListRecord(r, 'data', now));
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
	 * Demo data (`demo.ts`): a portal scraper (two runs), a PDF scraper and a search-lead scraper (one run each) for
	 * the user, created and finished in the last three days, so the demo's lists show several scrapers with results.
	 */
	seedDemo(userId: number): void {
		if (this.demoSeeded) return;
		this.demoSeeded = true;
		const day = 86_400_000;
		const now = this.clock.now();
		demoScrapers().forEach(({ spec, runsDaysAgo }, i) => {
			const scraper = this.createScraper(userId, spec);
			const firstRun = now - runsDaysAgo[0] * day + i * 3_600_000;
			scraper.created_at = firstRun - 60_000;
			// Whole days in the past: every result is long past `queuedMs + runMs`, so succeeded.
			for (const daysAgo of runsDaysAgo) this.createRun(scraper, undefined, now - daysAgo * day + i * 3_600_000);
			if (i === 0) this.schedule(scraper, parseCron(DEMO_SCHEDULE.cron), DEMO_SCHEDULE.timezone);
		});
	}

	/**
	 * Turns the scraper's schedule on (or replaces it) from now: due runs are created first, then only firings
	 * strictly after now make runs. `cron` is parsed already; `timezone` canonical.
	 */
	schedule(scraper: StoredScraper, cron: CronExpression, timezone: string, failEvery?: number): void {
		this.materialize();
		this.schedules.schedule(scraper, cron, timezone, failEvery);
	}

	/** Turns the schedule off after creating the runs already due; the configuration goes back to the defaults. */
	unschedule(scraper: StoredScraper): void {
		this.materialize();
		this.schedules.unschedule(scraper);
	}

	/**
	 * Creates every scheduled run due by now (`Schedules.due`), each with `created_at` = its firing time, so run and
	 * result ids grow with `created_at`. Every public method that reads or writes scrapers or runs calls it first.
	 */
	materialize(): void {
		for (const { scraper, at, fail } of this.schedules.due()) this.createRun(scraper, undefined, at, fail);
	}
}
