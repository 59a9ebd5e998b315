import type { FieldError } from './types';

/**
 * Request validation for section C, rule by rule from the interface's field tables. Every invalid field is
 * reported (not only the first), each with its path, a short rule name and a readable message.
 */

export const PORTAL_OPTIONS = ['locations', 'links'] as const;
export const PORTAL_CHANNELS = ['buy', 'rent', 'sold'] as const;
export const PROPERTY_TYPES = [
	'all',
	'house',
	'townhouse',
	'unit apartment',
	'villa',
	'retire',
	'land',
	'acreage',
	'rural',
	'unitblock',
] as const;
export const LAND_SIZES = [
	'any',
	'200',
	'300',
	'400',
	'500',
	'600',
	'700',
	'800',
	'900',
	'1000',
	'1200',
	'1500',
	'1750',
	'2000',
	'3000',
	'4000',
	'5000',
	'10000',
	'20000',
	'30000',
	'40000',
	'50000',
	'100000',
	'200000',
	'300000',
	'400000',
	'500000',
	'600000',
	'700000',
	'800000',
	'900000',
	'1000000',
	'1500000',
	'2000000',
	'3000000',
	'5000000',
	'10000000',
	'30000000',
	'50000000',
	'100000000',
] as const;
export const SEARCH_TYPES = ['url', 'keywords'] as const;
export const SENTIMENT_TYPES = ['all', 'positive', 'neutral', 'negative'] as const;
export const SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const;

export const JOB_BOARD_DEFAULTS = { min: 10, max: 20, timeout: 180 } as const;
export const JOB_BOARD_TIMEOUT_RANGE = { min: 60, max: 600 } as const;
export const RESULTS_PAGING = { defaultPerPage: 15, maxPerPage: 100 } as const;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface PortalInput {
	name: string;
	options: (typeof PORTAL_OPTIONS)[number];
	urls: string[];
	locations: string[];
	channel: (typeof PORTAL_CHANNELS)[number];
	property_types: string[];
	including_surrounding_areas: boolean;
	only_show_properties_with_a_price: boolean;
	landsize_minimum?: string;
	landsize_maximum?: string;
}

export interface PdfKeyword {
	keyword: string;
	prompt: string;
}

export interface PdfInput {
	name: string;
	keywords: PdfKeyword[];
	unique: boolean;
	expected_pdf?: number;
}

export interface SearchLeadsInput {
	name: string;
	search_type: (typeof SEARCH_TYPES)[number];
	limit_pages: number;
	keywords?: string;
	url?: string;
}

export interface SocialLeadsInput {
	name: string;
	keywords: string;
	sentiment_type: (typeof SENTIMENT_TYPES)[number];
	expected_data: number;
}

export type JsonSchema = Record<string, unknown>;

export interface JobBoardInput {
	urls: string[];
	schema: JsonSchema;
	min: number;
	max: number;
	timeout: number;
}

export interface RunInput {
	urls?: string[];
}

export interface PagingInput {
	page: number;
	per_page: number;
}

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
class Checker {
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

function bodyChecker(body: unknown): Checker {
	return new Checker(isPlainObject(body) ? body : {});
}

/** `any` is unbounded; every other land size is a number of square metres. */
function landSizeNumber(value: string | undefined): number | undefined {
	return value === undefined || value === 'any' ? undefined : Number(value);
}

export function validatePortal(body: unknown): Validated<PortalInput> {
	const c = bodyChecker(body);
	const name = c.requiredString('name');
	const options = c.requiredEnum('options', PORTAL_OPTIONS);
	// Both lists are named in the field list; the one matching `options` is required, the other is checked if sent.
	const locations = c.stringList('locations', { required: options === 'locations' });
	const urls = c.urlList('urls', { required: options === 'links' });
	const channel = c.requiredEnum('channel', PORTAL_CHANNELS);

	let propertyTypes: string[] | undefined;
	if (!c.present('property_types')) {
		c.fail('property_types', 'required', 'The property_types field is required.');
	} else if (!Array.isArray(c.body.property_types)) {
		c.fail('property_types', 'array', 'The property_types field must be an array.');
	} else if (c.body.property_types.length === 0) {
		c.fail('property_types', 'required', 'The property_types field must contain at least one value.');
	} else {
		const list = c.body.property_types as unknown[];
		let ok = true;
		list.forEach((item, i) => {
			if (typeof item !== 'string' || !(PROPERTY_TYPES as readonly string[]).includes(item)) {
				c.fail(`property_types[${i}]`, 'in', `Each property_types value must be one of: ${PROPERTY_TYPES.join(', ')}.`);
				ok = false;
			}
		});
		if (ok) propertyTypes = list as string[];
	}

	const surrounding = c.optionalBoolean('including_surrounding_areas');
	const withPrice = c.optionalBoolean('only_show_properties_with_a_price');

	const landSize = (field: string): string | undefined => {
		if (!c.present(field)) return undefined;
		const value = c.body[field];
		if (typeof value !== 'string' || !(LAND_SIZES as readonly string[]).includes(value)) {
			c.fail(field, 'in', `The ${field} field must be one of the listed land sizes (any, 200, 300, ... 100000000).`);
			return undefined;
		}
		return value;
	};
	const landMin = landSize('landsize_minimum');
	const landMax = landSize('landsize_maximum');
	const minNumber = landSizeNumber(landMin);
	const maxNumber = landSizeNumber(landMax);
	if (minNumber !== undefined && maxNumber !== undefined && minNumber >= maxNumber) {
		c.fail('landsize_minimum', 'lt', 'The landsize_minimum field must be smaller than landsize_maximum.');
		c.fail('landsize_maximum', 'gt', 'The landsize_maximum field must be larger than landsize_minimum.');
	}

	return c.result(() => ({
		name: name as string,
		options: options as PortalInput['options'],
		urls: urls ?? [],
		locations: locations ?? [],
		channel: channel as PortalInput['channel'],
		property_types: propertyTypes as string[],
		including_surrounding_areas: surrounding ?? false,
		only_show_properties_with_a_price: withPrice ?? false,
		...(landMin !== undefined ? { landsize_minimum: landMin } : {}),
		...(landMax !== undefined ? { landsize_maximum: landMax } : {}),
	}));
}

export function validatePdf(body: unknown): Validated<PdfInput> {
	const c = bodyChecker(body);
	const name = c.requiredString('name');

	const keywords: PdfKeyword[] = [];
	if (!c.present('keywords')) {
		c.fail('keywords', 'required', 'The keywords field is required.');
	} else if (!Array.isArray(c.body.keywords)) {
		c.fail('keywords', 'array', 'The keywords field must be an array of {keyword, prompt} objects.');
	} else if (c.body.keywords.length === 0) {
		c.fail('keywords', 'required', 'The keywords field must contain at least one {keyword, prompt} object.');
	} else {
		(c.body.keywords as unknown[]).forEach((item, i) => {
			if (!isPlainObject(item)) {
				c.fail(`keywords[${i}]`, 'object', 'Each keywords item must be an object with keyword and prompt.');
				return;
			}
			let ok = true;
			for (const part of ['keyword', 'prompt'] as const) {
				const value = item[part];
				if (typeof value !== 'string' || value.trim() === '') {
					c.fail(`keywords[${i}].${part}`, value === undefined || value === null ? 'required' : 'string', `Each keywords item needs a non-empty ${part} string.`);
					ok = false;
				}
			}
			if (ok) keywords.push({ keyword: item.keyword as string, prompt: item.prompt as string });
		});
	}

	const unique = c.optionalBoolean('unique');
	let expected: number | undefined;
	if (c.present('expected_pdf')) {
		const value = c.body.expected_pdf;
		if (typeof value !== 'number' || !Number.isFinite(value)) c.fail('expected_pdf', 'numeric', 'The expected_pdf field must be a number.');
		else if (value <= 0) c.fail('expected_pdf', 'min', 'The expected_pdf field must be greater than 0.');
		else expected = value;
	}

	return c.result(() => ({
		name: name as string,
		keywords,
		unique: unique ?? false,
		...(expected !== undefined ? { expected_pdf: expected } : {}),
	}));
}

export function validateSearchLeads(body: unknown): Validated<SearchLeadsInput> {
	const c = bodyChecker(body);
	const name = c.requiredString('name');
	const searchType = c.requiredEnum('search_type', SEARCH_TYPES);
	const limitPages = c.integer('limit_pages', { required: true, min: 1 });

	let keywords: string | undefined;
	let url: string | undefined;
	// The field matching search_type is required; the other one is checked only when sent with a value.
	const sent = (field: string): boolean => c.present(field) && c.body[field] !== '';
	if (searchType === 'keywords') keywords = c.requiredString('keywords');
	else if (sent('keywords') && typeof c.body.keywords !== 'string') c.fail('keywords', 'string', 'The keywords field must be a string.');
	if (searchType === 'url') {
		const value = c.requiredString('url');
		if (value !== undefined && !isHttpUrl(value)) c.fail('url', 'url', 'The url field must be an http or https URL.');
		else url = value;
	} else if (sent('url') && !isHttpUrl(c.body.url)) {
		c.fail('url', 'url', 'The url field must be an http or https URL.');
	}

	return c.result(() => ({
		name: name as string,
		search_type: searchType as SearchLeadsInput['search_type'],
		limit_pages: limitPages as number,
		...(keywords !== undefined ? { keywords } : {}),
		...(url !== undefined ? { url } : {}),
	}));
}

export function validateSocialLeads(body: unknown): Validated<SocialLeadsInput> {
	const c = bodyChecker(body);
	const name = c.requiredString('name');
	const keywords = c.requiredString('keywords');
	const sentiment = c.requiredEnum('sentiment_type', SENTIMENT_TYPES);
	const expected = c.integer('expected_data', { required: true, min: 1 });
	return c.result(() => ({
		name: name as string,
		keywords: keywords as string,
		sentiment_type: sentiment as SocialLeadsInput['sentiment_type'],
		expected_data: expected as number,
	}));
}

/**
 * Checks a caller's JSON Schema: known `type` names, an `object` needs a `properties` object, an `array` needs an
 * `items` schema, `enum` is a non-empty list; nested properties and items are checked the same way.
 */
function checkSchema(c: Checker, schema: unknown, path: string, depth: number): void {
	if (depth > 16) {
		c.fail(path, 'max_depth', 'The schema is nested too deeply (more than 16 levels).');
		return;
	}
	if (!isPlainObject(schema)) {
		c.fail(path, 'object', `${path} must be a JSON Schema object.`);
		return;
	}
	const types = schemaTypes(schema);
	if (schema.type !== undefined && types.length === 0) {
		c.fail(`${path}.type`, 'in', `${path}.type must be one of: ${SCHEMA_TYPES.join(', ')}.`);
	}
	if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0)) {
		c.fail(`${path}.enum`, 'array', `${path}.enum must be a non-empty array.`);
	}
	if (types.includes('object') || (schema.type === undefined && schema.properties !== undefined)) {
		if (!isPlainObject(schema.properties)) {
			c.fail(`${path}.properties`, 'required', `${path} has type object and needs a properties object.`);
		} else {
			for (const [key, child] of Object.entries(schema.properties)) checkSchema(c, child, `${path}.properties.${key}`, depth + 1);
		}
	}
	if (types.includes('array') || (schema.type === undefined && schema.items !== undefined)) {
		if (!isPlainObject(schema.items)) {
			c.fail(`${path}.items`, 'required', `${path} has type array and needs an items schema.`);
		} else {
			checkSchema(c, schema.items, `${path}.items`, depth + 1);
		}
	}
}

/** The `type` of a schema as a list (JSON Schema allows a single name or a list); empty when invalid or absent. */
export function schemaTypes(schema: Record<string, unknown>): string[] {
	const raw = schema.type;
	const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
	if (list.length === 0 || !list.every((t) => typeof t === 'string' && (SCHEMA_TYPES as readonly string[]).includes(t))) return [];
	return list as string[];
}

export function validateJobBoard(body: unknown): Validated<JobBoardInput> {
	const c = bodyChecker(body);
	const urls = c.urlList('urls', { required: true });

	let schema: JsonSchema | undefined;
	if (!c.present('schema')) {
		c.fail('schema', 'required', 'The schema field is required.');
	} else if (!isPlainObject(c.body.schema)) {
		c.fail('schema', 'object', 'The schema field must be a JSON Schema object.');
	} else {
		const candidate = c.body.schema;
		const before = c.errors.length;
		const types = schemaTypes(candidate);
		// The output is a list of records per URL, so the top level must say how records are laid out.
		// (An unknown type name is reported by checkSchema.)
		if (candidate.type === undefined) c.fail('schema.type', 'required', 'schema.type is required: object or array.');
		else if (types.length > 0 && !types.includes('object') && !types.includes('array')) c.fail('schema.type', 'in', 'schema.type must be object or array.');
		checkSchema(c, candidate, 'schema', 0);
		if (c.errors.length === before) schema = candidate;
	}

	const min = c.integer('min', { required: false, min: 1 });
	const max = c.integer('max', { required: false, min: 1 });
	if (min !== undefined && max !== undefined && min > max) {
		c.fail('min', 'lte', 'The min field must not be greater than max.');
		c.fail('max', 'gte', 'The max field must not be smaller than min.');
	}
	// A default never conflicts with a sent value: it yields to it (max 5 alone means min 5; min 30 alone, max 30).
	const effectiveMin = min ?? Math.min(JOB_BOARD_DEFAULTS.min, max ?? JOB_BOARD_DEFAULTS.max);
	const effectiveMax = max ?? Math.max(JOB_BOARD_DEFAULTS.max, min ?? JOB_BOARD_DEFAULTS.min);
	const timeout = c.integer('timeout', { required: false, min: JOB_BOARD_TIMEOUT_RANGE.min, max: JOB_BOARD_TIMEOUT_RANGE.max });

	return c.result(() => ({
		urls: urls as string[],
		schema: schema as JsonSchema,
		min: effectiveMin,
		max: effectiveMax,
		timeout: timeout ?? JOB_BOARD_DEFAULTS.timeout,
	}));
}

export function validateRun(scraperId: string, body: unknown): Validated<RunInput & { scraper_id: number }> {
	const c = bodyChecker(body);
	let id: number | undefined;
	if (!/^[1-9]\d{0,15}$/.test(scraperId)) c.fail('scraper_id', 'integer', 'The scraper_id must be a positive integer.');
	else id = Number(scraperId);
	if (body !== undefined && body !== null && !isPlainObject(body)) c.fail('body', 'object', 'The request body must be a JSON object.');
	const urls = c.urlList('urls', { required: false });
	return c.result(() => ({ scraper_id: id as number, ...(urls !== undefined && urls.length > 0 ? { urls } : {}) }));
}

/** A path id (`scraping_run_id`, `scraper_id`, `id`): a positive integer, or a 422 naming it. */
export function validatePathId(field: string, raw: string): Validated<number> {
	if (!/^[1-9]\d{0,15}$/.test(raw)) return { ok: false, errors: [{ field, rule: 'integer', message: `The ${field} must be a positive integer.` }] };
	return { ok: true, value: Number(raw) };
}

export function validatePaging(query: URLSearchParams): Validated<PagingInput> {
	const errors: FieldError[] = [];
	const read = (field: string, fallback: number, max?: number): number => {
		const raw = query.get(field);
		if (raw === null || raw === '') return fallback;
		if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
			errors.push({ field, rule: 'integer', message: `The ${field} parameter must be a positive integer.` });
			return fallback;
		}
		if (max !== undefined && Number(raw) > max) {
			errors.push({ field, rule: 'max', message: `The ${field} parameter must not be greater than ${max}.` });
			return fallback;
		}
		return Number(raw);
	};
	const page = read('page', 1);
	const perPage = read('per_page', RESULTS_PAGING.defaultPerPage, RESULTS_PAGING.maxPerPage);
	return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { page, per_page: perPage } };
}
