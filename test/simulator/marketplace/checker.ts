/**
 * The field checks of section C's validation: a `Checker` collects the errors of one request body, each with its
 * path, a short rule name and a readable message, as the real service's validation names them.
 */
import type { FieldError } from './types';
import type { Validated } from './inputs';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isHttpUrl(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
	} catch {
		return false;
	}
}

/** Collects the errors of one request body. Null counts as absent, as the real service's nullable rules do. */
export class Checker {
	readonly errors: FieldError[] = [];

	constructor(readonly body: Record<string, unknown>) {}

	fail(field: string, rule: string, message: string): void {
		this.errors.push({ field, rule, message });
	}

	present(field: string): boolean {
		return this.body[field] !== undefined && this.body[field] !== null;
	}

	/** A required non-blank string. */
	requiredString(field: string): string | undefined {
		const value = this.body[field];
		if (value === undefined || value === null) {
			this.fail(field, 'required', `The ${field} field is required.`);
			return undefined;
		}
		if (typeof value !== 'string') {
			this.fail(field, 'string', `The ${field} field must be a string.`);
			return undefined;
		}
		if (value.trim() === '') {
			this.fail(field, 'required', `The ${field} field is required.`);
			return undefined;
		}
		return value;
	}

	/** A required string from a list of allowed values. */
	requiredEnum<T extends string>(field: string, allowed: readonly T[]): T | undefined {
		const value = this.body[field];
		if (value === undefined || value === null || value === '') {
			this.fail(field, 'required', `The ${field} field is required.`);
			return undefined;
		}
		if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
			this.fail(field, 'in', `The ${field} field must be one of: ${allowed.join(', ')}.`);
			return undefined;
		}
		return value as T;
	}

	optionalBoolean(field: string): boolean | undefined {
		if (!this.present(field)) return undefined;
		const value = this.body[field];
		if (typeof value !== 'boolean') {
			this.fail(field, 'boolean', `The ${field} field must be true or false.`);
			return undefined;
		}
		return value;
	}

	/** An integer (a JSON number without fraction) of at least `min`; `required` decides whether absence is an error. */
	integer(field: string, options: { required: boolean; min?: number; max?: number }): number | undefined {
		if (!this.present(field)) {
			if (options.required) this.fail(field, 'required', `The ${field} field is required.`);
			return undefined;
		}
		const value = this.body[field];
		if (typeof value !== 'number' || !Number.isInteger(value)) {
			this.fail(field, 'integer', `The ${field} field must be an integer.`);
			return undefined;
		}
		if (options.min !== undefined && value < options.min) {
			this.fail(field, 'min', `The ${field} field must be at least ${options.min}.`);
			return undefined;
		}
		if (options.max !== undefined && value > options.max) {
			this.fail(field, 'max', `The ${field} field must not be greater than ${options.max}.`);
			return undefined;
		}
		return value;
	}

	/** A non-empty array of non-blank strings. */
	stringList(field: string, options: { required: boolean }): string[] | undefined {
		if (!this.present(field)) {
			if (options.required) this.fail(field, 'required', `The ${field} field is required.`);
			return undefined;
		}
		const value = this.body[field];
		if (!Array.isArray(value)) {
			this.fail(field, 'array', `The ${field} field must be an array of strings.`);
			return undefined;
		}
		if (value.length === 0) {
			// An empty list is as good as absent when the list is optional.
			if (options.required) this.fail(field, 'required', `The ${field} field must contain at least one item.`);
			return options.required ? undefined : [];
		}
		let ok = true;
		value.forEach((item, i) => {
			if (typeof item !== 'string' || item.trim() === '') {
				this.fail(`${field}[${i}]`, 'string', `Each ${field} item must be a non-empty string.`);
				ok = false;
			}
		});
		return ok ? (value as string[]) : undefined;
	}

	/** A non-empty array of http(s) URLs. */
	urlList(field: string, options: { required: boolean }): string[] | undefined {
		if (!this.present(field)) {
			if (options.required) this.fail(field, 'required', `The ${field} field is required.`);
			return undefined;
		}
		const value = this.body[field];
		if (!Array.isArray(value)) {
			this.fail(field, 'array', `The ${field} field must be an array of URLs.`);
			return undefined;
		}
		if (value.length === 0) {
			if (options.required) this.fail(field, 'required', `The ${field} field must contain at least one URL.`);
			return options.required ? undefined : [];
		}
		let ok = true;
		value.forEach((item, i) => {
			if (!isHttpUrl(item)) {
				this.fail(`${field}[${i}]`, 'url', `Each ${field} item must be an http or https URL.`);
				ok = false;
			}
		});
		return ok ? (value as string[]) : undefined;
	}

	result<T>(value: () => T): Validated<T> {
		return this.errors.length > 0 ? { ok: false, errors: this.errors } : { ok: true, value: value() };
	}
}

export function bodyChecker(body: unknown): Checker {
	return new Checker(isPlainObject(body) ? body : {});
}
