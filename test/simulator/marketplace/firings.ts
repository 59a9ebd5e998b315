/**
 * The firings of a parsed cron expression (`cron.ts`): the instants in a span of time, which the store turns into
 * scraping runs on the simulated clock, and the next one after an instant.
 *
 * Time zones: any IANA zone the runtime's Intl knows (default `UTC`). A firing is a UTC minute whose wall-clock time
 * in the zone matches: a local time skipped by a daylight-saving change never fires that day, a local time that
 * occurs twice (clocks going back) fires twice.
 */
import { CronError, attempt, parseCron, type CronExpression } from './cron';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
	let f = formatters.get(timeZone);
	if (!f) {
		f = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formatters.set(timeZone, f);
	}
	return f;
}

/** The zone's canonical name (as Intl resolves it, e.g. `utc` -> `UTC`); throws CronError for an unknown zone. */
export function resolveTimeZone(timeZone: string): string {
	if (typeof timeZone !== 'string' || timeZone.trim() === '') throw new CronError('time zone must be a non-empty IANA name such as UTC or Europe/Berlin');
	const resolved = attempt(() => formatter(timeZone.trim()).resolvedOptions().timeZone);
	if (resolved.error !== undefined) throw new CronError(`unknown time zone "${timeZone}" (use an IANA name such as UTC or Europe/Berlin)`);
	return resolved.value as string;
}

function isUtc(timeZone: string): boolean {
	return timeZone === 'UTC' || timeZone === 'Etc/UTC' || timeZone === 'Etc/GMT' || timeZone === 'GMT';
}

/** Local wall-clock time minus UTC, in ms, at instant `t` in the zone. */
function zoneOffset(timeZone: string, t: number): number {
	if (isUtc(timeZone)) return 0;
	const parts: Record<string, number> = {};
	for (const part of formatter(timeZone).formatToParts(new Date(t))) {
		if (part.type !== 'literal' && part.type !== 'era') parts[part.type] = Number(part.value);
	}
	const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
	return local - Math.floor(t / 1000) * 1000;
}

function dayMatches(cron: CronExpression, dayIndex: number): boolean {
	const date = new Date(dayIndex * DAY_MS);
	if (!cron.months[date.getUTCMonth() + 1]) return false;
	const dom = cron.daysOfMonth[date.getUTCDate()];
	const dow = cron.daysOfWeek[date.getUTCDay()];
	return cron.dayOr ? dom || dow : dom && dow;
}

/** Firings in [from, to] (UTC ms, inclusive) while the zone's offset is `offset` throughout. */
function* fixedOffsetFirings(cron: CronExpression, from: number, to: number, offset: number): Generator<number> {
	const a = from + offset;
	const b = to + offset;
	for (let day = Math.floor(a / DAY_MS); day <= Math.floor(b / DAY_MS); day++) {
		if (!dayMatches(cron, day)) continue;
		const base = day * DAY_MS;
		for (const hour of cron.hours) {
			const hourStart = base + hour * HOUR_MS;
			if (hourStart > b) break;
			if (hourStart + HOUR_MS <= a) continue;
			for (const minute of cron.minutes) {
				const t = hourStart + minute * MINUTE_MS;
				if (t > b) break;
				if (t >= a) yield t - offset;
			}
		}
	}
}

/**
 * The firing instants (UTC ms, whole minutes, ascending) with `after < t <= until`. Lazy: take only what is needed.
 * Work is proportional to the days spanned plus the firings yielded (a time zone adds two offset look-ups a day).
 */
export function* cronFirings(cron: CronExpression | string, after: number, until: number, timeZone = 'UTC'): Generator<number> {
	const parsed = typeof cron === 'string' ? parseCron(cron) : cron;
	const zone = resolveTimeZone(timeZone);
	let start = Math.floor(after) + 1;
	while (start <= until) {
		const end = Math.min(until, start + DAY_MS - 1);
		const offset = zoneOffset(zone, start);
		if (offset === zoneOffset(zone, end)) {
			yield* fixedOffsetFirings(parsed, start, end, offset);
			start = end + 1;
			continue;
		}
		// A daylight-saving change inside [start, end]: find its first instant and take the span before it.
		let lo = start;
		let hi = end;
		while (hi - lo > 1) {
			const mid = Math.floor((lo + hi) / 2);
			if (zoneOffset(zone, mid) === offset) lo = mid;
			else hi = mid;
		}
		yield* fixedOffsetFirings(parsed, start, hi - 1, offset);
		start = hi;
	}
}

/** How far `nextCronFiring` looks ahead: a little over 8 years, enough for a 29 February expression. */
export const NEXT_FIRING_HORIZON_MS = 3_000 * DAY_MS;

/** The first firing strictly after `after`, or undefined when none comes within `horizonMs`. */
export function nextCronFiring(cron: CronExpression | string, after: number, timeZone = 'UTC', horizonMs = NEXT_FIRING_HORIZON_MS): number | undefined {
	for (const t of cronFirings(cron, after, after + horizonMs, timeZone)) return t;
	return undefined;
}
