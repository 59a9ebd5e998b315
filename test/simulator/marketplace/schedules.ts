/**
 * The schedules of section C scrapers on the simulated clock: turning one on (or replacing it) and off, and the
 * catch-up that lists every scheduled run due by now, in firing order over all scrapers, so the store creates them
 * before it is read or written. Nothing runs on timers.
 */
import type { SimClock } from '../core/clock';
import type { CronExpression } from './cron';
import { NEXT_FIRING_HORIZON_MS, cronFirings, nextCronFiring } from './firings';
import type { RunTimings, StoredSchedule, StoredScraper } from './stored';

/** A scheduled run to create: its scraper, its firing time (`created_at`) and whether the schedule forces it to fail. */
interface DueRun {
	scraper: StoredScraper;
	at: number;
	fail: boolean;
}

/** The firings of a schedule in (handledUntil, now], only the newest `limit` of them; `dropped` counts the rest. */
function dueFirings(schedule: StoredSchedule, now: number, limit: number): { firings: number[]; dropped: number } {
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
	return { firings, dropped };
}

function nextFiringAfter(schedule: StoredSchedule, after: number): number {
	return nextCronFiring(schedule.cron, after, schedule.timezone) ?? after + NEXT_FIRING_HORIZON_MS;
}

export class Schedules {
	/** Scrapers with a schedule, by id. */
	private readonly scheduled = new Map<number, StoredScraper>();

	constructor(
		private readonly clock: SimClock,
		private readonly timings: () => RunTimings,
	) {}

	clear(): void {
		this.scheduled.clear();
	}

	/** Turns the scraper's schedule on (or replaces it) from now: only firings strictly after now make runs. */
	schedule(scraper: StoredScraper, cron: CronExpression, timezone: string, failEvery?: number): void {
		const now = this.clock.now();
		const schedule: StoredSchedule = { cron, timezone, since: now, handledUntil: now, nextAt: now, failEvery, runsCreated: 0, firingsSkipped: 0 };
		schedule.nextAt = nextFiringAfter(schedule, now);
		scraper.schedule = schedule;
		scraper.updated_at = now;
		this.scheduled.set(scraper.id, scraper);
	}

	/** Turns the schedule off; the configuration goes back to the defaults. */
	unschedule(scraper: StoredScraper): void {
		if (!scraper.schedule) return;
		scraper.schedule = undefined;
		scraper.updated_at = this.clock.now();
		this.scheduled.delete(scraper.id);
	}

	/**
	 * Every scheduled run whose firing time is <= now and not yet listed, in time order over all scrapers (ties: lower
	 * scraper id first), each schedule's bookkeeping moved on. Cheap when nothing is due (one comparison per scraper).
	 */
	due(): DueRun[] {
		if (this.scheduled.size === 0) return [];
		const now = this.clock.now();
		const due: Array<{ at: number; scraper: StoredScraper }> = [];
		for (const scraper of this.scheduled.values()) {
			const schedule = scraper.schedule as StoredSchedule;
			if (schedule.nextAt > now) continue;
			const { firings, dropped } = dueFirings(schedule, now, Math.max(1, Math.floor(this.timings().scheduleCatchUpLimit)));
			schedule.firingsSkipped += dropped;
			schedule.handledUntil = now;
			schedule.nextAt = nextFiringAfter(schedule, now);
			for (const at of firings) due.push({ at, scraper });
		}
		due.sort((a, b) => a.at - b.at || a.scraper.id - b.scraper.id);
		return due.map(({ at, scraper }) => {
			const schedule = scraper.schedule as StoredSchedule;
			schedule.runsCreated++;
			return { at, scraper, fail: schedule.failEvery !== undefined && schedule.runsCreated % schedule.failEvery === 0 };
		});
	}
}
