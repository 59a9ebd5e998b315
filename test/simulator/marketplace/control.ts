/**
 * The checks and answers of the marketplace simulator's control methods (schedules, scraper info, account limits):
 * what they throw names the method called (`MarketplaceSimulator.<method>: ...`).
 */
import { configuration } from './configuration';
import { CronError, attempt, parseCron, type CronExpression } from './cron';
import { resolveTimeZone } from './firings';
import type { MarketplaceScraperInfo, ScheduleOptions } from './options';
import type { MarketplaceStore } from './store';
import type { ScraperSpec, StoredScraper } from './stored';
import type { ScraperType } from './types';
import { validatePdf, validatePortal, validateSearchLeads, validateSocialLeads } from './validation';
import { scraperObject } from './views';

/** Runs a cron check, prefixing its CronError with the control method that was called. */
function named<T>(method: string, check: () => T): T {
	const outcome = attempt(check);
	if (outcome.error instanceof CronError) throw new CronError(`MarketplaceSimulator.${method}: ${outcome.error.message}`);
	if (outcome.error !== undefined) throw outcome.error as Error;
	return outcome.value as T;
}

/** The user of a token, or throws. */
export function requireUser(store: MarketplaceStore, token: string, method: string): number {
	const userId = store.userFor(token);
	if (userId === undefined) throw new Error(`MarketplaceSimulator.${method}: unknown token`);
	return userId;
}

/** The user's scraper, or throws (unknown, or another account's). */
export function requireScraper(store: MarketplaceStore, userId: number, scraperId: number, method: string): StoredScraper {
	const scraper = store.scraperOf(userId, scraperId);
	if (!scraper) throw new Error(`MarketplaceSimulator.${method}: no scraper ${scraperId} for this token's account`);
	return scraper;
}

/** A schedule's expression, canonical time zone and `failEvery`, or throws CronError / Error. */
export function checkSchedule(method: string, cron: string, options: ScheduleOptions): { expression: CronExpression; timezone: string; failEvery?: number } {
	const expression = named(method, () => parseCron(cron));
	const timezone = named(method, () => resolveTimeZone(options.timezone ?? 'UTC'));
	const failEvery = options.failEvery;
	if (failEvery !== undefined && !(Number.isInteger(failEvery) && failEvery >= 1)) {
		throw new Error(`MarketplaceSimulator.${method}: failEvery must be an integer >= 1, got ${String(failEvery)}`);
	}
	return { expression, timezone, failEvery };
}

/** A create-and-run body of the kind, validated as its endpoint does; throws naming every invalid field. */
export function validSpec(method: string, type: ScraperType, input: Record<string, unknown>): ScraperSpec {
	const fail = (errors: Array<{ field: string; message: string }>): never => {
		throw new Error(`MarketplaceSimulator.${method}: invalid input: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
	};
	switch (type) {
		case 'real_estate_portal': {
			const v = validatePortal(input);
			return v.ok ? { type, input: v.value } : fail(v.errors);
		}
		case 'pdf': {
			const v = validatePdf(input);
			return v.ok ? { type, input: v.value } : fail(v.errors);
		}
		case 'leads_search': {
			const v = validateSearchLeads(input);
			return v.ok ? { type, input: v.value } : fail(v.errors);
		}
		case 'leads_social': {
			const v = validateSocialLeads(input);
			return v.ok ? { type, input: v.value } : fail(v.errors);
		}
		default:
			throw new Error(`MarketplaceSimulator.${method}: type must be real_estate_portal, pdf, leads_search or leads_social, got ${String(type)}`);
	}
}

/** The scraper as the API would show it, with its schedule's counters (due scheduled runs created first). */
export function scraperInfo(store: MarketplaceStore, scraper: StoredScraper, now: number): MarketplaceScraperInfo {
	store.materialize();
	const schedule = scraper.schedule;
	return {
		scraper: scraperObject(scraper, now),
		configuration: configuration(scraper),
		schedule: schedule
			? {
					since: new Date(schedule.since).toISOString(),
					runsCreated: schedule.runsCreated,
					firingsSkipped: schedule.firingsSkipped,
					failEvery: schedule.failEvery ?? null,
				}
			: null,
	};
}
