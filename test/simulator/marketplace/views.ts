/**
 * The store's records as section C answers them at an instant: a result's status (queued -> running -> succeeded
 * or failed, from the instants stamped on it at creation), run-list records, scraping runs, the run results of a
 * create response, and scraper objects with their schedule.
 */
import { configuration } from './configuration';
import { nextCronFiring } from './firings';
import { pageHtml } from './pageHtml';
import { iso, type StoredResult, type StoredRun, type StoredScraper } from './stored';
import type { RunListRecord, RunResult, RunStatus, ScraperObject, ScraperSchedule, ScrapingRunRecord } from './types';

/** Status and `updated_at` of a result at simulated time `now`. */
function resultState(result: StoredResult, now: number): { status: RunStatus; updatedAt: number } {
	if (now < result.startsAt) return { status: 'queued', updatedAt: result.created_at };
	if (now < result.endsAt) return { status: 'running', updatedAt: result.startsAt };
	return { status: result.fails ? 'failed' : 'succeeded', updatedAt: result.endsAt };
}

function runStatus(run: StoredRun, now: number): RunStatus {
	const states = run.results.map((r) => resultState(r, now).status);
	const done = states.filter((s) => s === 'succeeded' || s === 'failed').length;
	if (done === states.length) return states.includes('failed') ? 'failed' : 'succeeded';
	if (done > 0 || states.includes('running')) return 'running';
	return 'queued';
}

/** A run-list record; `content` is the extracted data, or the page HTML for the HTML endpoint, once succeeded. */
export function runListRecord(result: StoredResult, content: 'data' | 'html', now: number): RunListRecord {
	const { status, updatedAt } = resultState(result, now);
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

export function scrapingRunRecord(run: StoredRun, content: 'data' | 'html', now: number): ScrapingRunRecord {
	return {
		id: run.id,
		scraper_id: run.scraper_id,
		status: runStatus(run, now),
		results: run.results.map((r) => runListRecord(r, content, now)),
		created_at: iso(run.created_at),
	};
}

/** A run result as create responses show it; portal and PDF ones carry the nested configuration. */
export function runResult(result: StoredResult, scraper: StoredScraper, now: number): RunResult {
	const { status, updatedAt } = resultState(result, now);
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
	if (scraper.spec.type === 'real_estate_portal' || scraper.spec.type === 'pdf') out.scraper = configuration(scraper);
	return out;
}

/** `schedule` of the scraper object: null when unscheduled (the interface), else ours (see README). */
function scheduleObject(scraper: StoredScraper, now: number): ScraperSchedule | null {
	const schedule = scraper.schedule;
	if (!schedule) return null;
	const next = schedule.nextAt > now ? schedule.nextAt : nextCronFiring(schedule.cron, now, schedule.timezone);
	return { cron: schedule.cron.expression, cron_timezone: schedule.timezone, next_run_at: next === undefined ? null : iso(next) };
}

export function scraperObject(scraper: StoredScraper, now: number): ScraperObject {
	return {
		id: scraper.id,
		name: scraper.name,
		url: [...scraper.urls],
		urls: [...scraper.urls],
		scheduled: scraper.schedule !== undefined,
		schedule: scheduleObject(scraper, now),
		created_at: iso(scraper.created_at),
		updated_at: iso(scraper.updated_at),
	};
}
