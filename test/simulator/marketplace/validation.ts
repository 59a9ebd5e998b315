/**
 * Request validation for section C's create bodies (the four scraper kinds) and the job-board scrape, rule by rule
 * from the interface's field tables. Every invalid field is reported (not only the first), each with its path, a
 * short rule name and a readable message (`checker.ts`).
 */
import { bodyChecker, isHttpUrl, isPlainObject, type Checker } from './checker';
import {
	JOB_BOARD_DEFAULTS,
	JOB_BOARD_TIMEOUT_RANGE,
	LAND_SIZES,
	PORTAL_CHANNELS,
	PORTAL_OPTIONS,
	PROPERTY_TYPES,
	SEARCH_TYPES,
	SENTIMENT_TYPES,
	type JobBoardInput,
	type JsonSchema,
	type PdfInput,
	type PdfKeyword,
	type PortalInput,
	type SearchLeadsInput,
	type SocialLeadsInput,
	type Validated,
} from './inputs';
import { checkSchema, schemaTypes } from './jsonSchema';

/** `any` is unbounded; every other land size is a number of square metres. */
function landSizeNumber(value: string | undefined): number | undefined {
	return value === undefined || value === 'any' ? undefined : Number(value);
}

/** `property_types`: a non-empty list of the listed types. */
function propertyTypesOf(c: Checker): string[] | undefined {
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
		if (ok) return list as string[];
	}
	return undefined;
}

/** `landsize_minimum` and `landsize_maximum`: listed sizes, the minimum below the maximum. */
function landSizesOf(c: Checker): { landMin?: string; landMax?: string } {
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
	return { landMin, landMax };
}

export function validatePortal(body: unknown): Validated<PortalInput> {
	const c = bodyChecker(body);
	const name = c.requiredString('name');
	const options = c.requiredEnum('options', PORTAL_OPTIONS);
	// Both lists are named in the field list; the one matching `options` is required, the other is checked if sent.
	const locations = c.stringList('locations', { required: options === 'locations' });
	const urls = c.urlList('urls', { required: options === 'links' });
	const channel = c.requiredEnum('channel', PORTAL_CHANNELS);
	const propertyTypes = propertyTypesOf(c);
	const surrounding = c.optionalBoolean('including_surrounding_areas');
	const withPrice = c.optionalBoolean('only_show_properties_with_a_price');
	const { landMin, landMax } = landSizesOf(c);

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
