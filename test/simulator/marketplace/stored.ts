/**
 * What the marketplace store keeps: scrapers with their spec and schedule, scraping runs and their results (with
 * the instants that decide a result's status), the run timings, and the ISO form of its instants.
 */
import type { CronExpression } from './cron';
import type { PdfInput, PortalInput, SearchLeadsInput, SocialLeadsInput } from './inputs';

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
	/** The extracted records, computed on first read (PDF runs compute them up front, see `targets.ts`). */
	records: () => unknown[];
}

export interface StoredRun {
	id: number;
	user_id: number;
	scraper_id: number;
	created_at: number;
	results: StoredResult[];
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}
