/**
 * Standard 5-field cron (`minute hour day-of-month month day-of-week`) for the schedules of section C scrapers
 * (configuration fields `scheduled`, `cron`, `cron_timezone`, `cron_minutes`, ...): parsing, a pure function.
 *
 * Supported per field: `*`, a number, a name (months `JAN`-`DEC`, weekdays `SUN`-`SAT`, any case), a range `a-b`,
 * steps `*\/n`, `a-b/n` and `a/n` (= `a-<field max>/n`), and comma lists of those. Day of week 0-7, 0 and 7 both
 * Sunday. Day of month and day of week combine as in Vixie cron: when both are restricted (neither field starts
 * with `*`) a day matches either; otherwise it must match both. Refused (CronError): another number of fields,
 * macros (`@daily`), `?`, `L`, `W`, `#`, seconds, out-of-range values, reversed ranges (`5-1`), steps of 0 or wider
 * than the field, empty list items, and expressions that can never fire (`0 0 31 2 *`).
 *
 * The firing instants of an expression in a time zone: `firings.ts`.
 */

export class CronError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CronError';
	}
}

/** A parsed expression. `fields` are the five field texts as given (the `cron_*` parts of the configuration). */
export interface CronExpression {
	/** The five fields joined by single spaces: the stored `cron` string. */
	expression: string;
	fields: readonly [minute: string, hour: string, dayOfMonth: string, month: string, dayOfWeek: string];
	minutes: readonly number[];
	hours: readonly number[];
	/** Index 1-31. */
	daysOfMonth: readonly boolean[];
	/** Index 1-12. */
	months: readonly boolean[];
	/** Index 0-6, Sunday 0. */
	daysOfWeek: readonly boolean[];
	/** Both day fields restricted: a day matches either of them (Vixie cron). */
	dayOr: boolean;
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

interface FieldSpec {
	label: string;
	min: number;
	max: number;
	names?: Record<string, number>;
}

const FIELD_SPECS: readonly FieldSpec[] = [
	{ label: 'minute', min: 0, max: 59 },
	{ label: 'hour', min: 0, max: 23 },
	{ label: 'day of month', min: 1, max: 31 },
	{ label: 'month', min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((n, i) => [n, i + 1])) },
	{ label: 'day of week', min: 0, max: 7, names: Object.fromEntries(DAY_NAMES.map((n, i) => [n, i])) },
];

/** Days in each month (index 1-12) in a leap year: a (month, day) pair that never exists cannot fire. */
const MAX_DAYS = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function parseField(text: string, spec: FieldSpec, position: number): boolean[] {
	const where = `field ${position + 1} (${spec.label}) "${text}"`;
	const fail = (why: string): never => {
		throw new CronError(`${where}: ${why}`);
	};
	const value = (raw: string): number => {
		const upper = raw.toUpperCase();
		if (spec.names && upper in spec.names) return spec.names[upper];
		if (!/^\d+$/.test(raw)) {
			fail(`"${raw}" is not a number${spec.names ? ' or a name' : ''} (supported: *, n, a-b, */n, a-b/n, a/n and lists)`);
		}
		const n = Number(raw);
		if (n < spec.min || n > spec.max) fail(`${n} is out of range ${spec.min}-${spec.max}`);
		return n;
	};
	const set = new Array<boolean>(spec.max + 1).fill(false);
	for (const item of text.split(',')) {
		if (item === '') fail('empty list item');
		const [range, stepText, extra] = item.split('/');
		if (extra !== undefined) fail(`"${item}" has more than one "/"`);
		let step = 1;
		if (stepText !== undefined) {
			if (!/^\d+$/.test(stepText)) fail(`step "${stepText}" is not a number`);
			step = Number(stepText);
			if (step < 1 || step > spec.max - spec.min + 1) fail(`step ${step} is out of range 1-${spec.max - spec.min + 1}`);
		}
		let from: number;
		let to: number;
		if (range === '*') {
			from = spec.min;
			to = spec.max;
		} else if (range.includes('-')) {
			const parts = range.split('-');
			if (parts.length !== 2 || parts[0] === '' || parts[1] === '') fail(`"${range}" is not a range a-b`);
			from = value(parts[0]);
			to = value(parts[1]);
			if (from > to) fail(`range ${range} runs backwards (wrap-around ranges are not supported)`);
		} else {
			from = value(range);
			// `a/n` steps from a to the field's end; a bare value is itself.
			to = stepText !== undefined ? spec.max : from;
		}
		for (let v = from; v <= to; v += step) set[v] = true;
	}
	return set;
}

function indices(set: readonly boolean[]): number[] {
	const out: number[] = [];
	set.forEach((on, i) => {
		if (on) out.push(i);
	});
	return out;
}

/** Parses a 5-field expression; throws CronError naming the expression, the field and the reason. */
export function parseCron(text: string): CronExpression {
	if (typeof text !== 'string') throw new CronError(`cron expression must be a string, got ${typeof text}`);
	const fields = text.trim().split(/\s+/).filter((f) => f !== '');
	const outcome = attempt((): CronExpression => {
		if (fields.length === 1 && fields[0].startsWith('@')) throw new CronError(`macros such as ${fields[0]} are not supported; use the 5 fields`);
		if (fields.length !== 5) {
			throw new CronError(`expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`);
		}
		const sets = fields.map((field, i) => parseField(field, FIELD_SPECS[i], i));
		const daysOfWeek = sets[4].slice(0, 7);
		if (sets[4][7]) daysOfWeek[0] = true;
		const domStar = fields[2].startsWith('*');
		const dowStar = fields[4].startsWith('*');
		const parsed: CronExpression = {
			expression: fields.join(' '),
			fields: fields as unknown as CronExpression['fields'],
			minutes: indices(sets[0]),
			hours: indices(sets[1]),
			daysOfMonth: sets[2],
			months: sets[3],
			daysOfWeek,
			dayOr: !domStar && !dowStar,
		};
		// With day of month deciding alone (day of week `*`), every chosen (month, day) pair may not exist.
		if (!parsed.dayOr && !indices(sets[3]).some((month) => indices(sets[2]).some((day) => day <= MAX_DAYS[month]))) {
			throw new CronError('it can never fire: no chosen month has the chosen day of month');
		}
		return parsed;
	});
	if (outcome.error instanceof CronError) throw new CronError(`Invalid cron expression "${text}": ${outcome.error.message}`);
	if (outcome.error !== undefined) throw outcome.error as Error;
	return outcome.value as CronExpression;
}

/** A call's value or what it threw, so the caller can rethrow outside a catch block with more context. */
export function attempt<T>(call: () => T): { value?: T; error?: unknown } {
	try {
		return { value: call() };
	} catch (error) {
		return { error };
	}
}
