/**
 * Validation of the platform's query parameters (results listing, analytics, proxy bandwidth) and the date forms
 * they take: ISO 8601 timestamps and `yyyy-MM-dd HH:mm:ss` UTC date-times.
 */
import type { Issues } from './validation';

/** A required query parameter that is a whole number of at least `min`. */
export function requireQueryInteger(issues: Issues, query: URLSearchParams, field: string, min: number): number | undefined {
	const raw = query.get(field);
	if (raw === null || raw === '') {
		issues.add(field, 'required', `${field} is required`);
		return undefined;
	}
	if (!/^\d+$/.test(raw) || Number(raw) < min) {
		issues.add(field, 'isInt', `${field} must be an integer of at least ${min}`);
		return undefined;
	}
	return Number(raw);
}

export function requireQueryEnum<T extends string>(
	issues: Issues,
	query: URLSearchParams,
	field: string,
	allowed: readonly T[],
): T | undefined {
	const raw = query.get(field);
	if (raw === null || raw === '') {
		issues.add(field, 'required', `${field} is required`);
		return undefined;
	}
	if (!(allowed as readonly string[]).includes(raw)) {
		issues.add(field, 'isIn', `${field} must be one of: ${allowed.join(', ')}`);
		return undefined;
	}
	return raw as T;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or timestamp as epoch ms. A timestamp without a zone is read as UTC (the simulator must not
 * depend on the machine's time zone).
 */
export function parseIsoTimestamp(raw: string): number | undefined {
	if (!ISO_8601.test(raw)) return undefined;
	let text = raw.replace(' ', 'T');
	if (/T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/i.test(text)) text += 'Z';
	const ms = Date.parse(text);
	if (Number.isNaN(ms)) return undefined;
	// Reject dates Date.parse rolls over (e.g. February 30th).
	const [y, m, d] = raw.slice(0, 10).split('-').map(Number);
	const check = new Date(Date.UTC(y, m - 1, d));
	if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return undefined;
	return ms;
}

const UTC_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
export const UTC_DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/** A `yyyy-MM-dd HH:mm:ss` UTC date-time (analytics, proxy bandwidth) as epoch ms, or undefined if not one. */
export function parseUtcDateTime(raw: string): number | undefined {
	const m = UTC_DATE_TIME.exec(raw);
	if (!m) return undefined;
	const [y, mo, d, hh, mm, ss] = m.slice(1).map(Number);
	const ms = Date.UTC(y, mo - 1, d, hh, mm, ss);
	const check = new Date(ms);
	if (
		check.getUTCFullYear() !== y ||
		check.getUTCMonth() !== mo - 1 ||
		check.getUTCDate() !== d ||
		check.getUTCHours() !== hh ||
		check.getUTCMinutes() !== mm ||
		check.getUTCSeconds() !== ss
	) {
		return undefined;
	}
	return ms;
}
