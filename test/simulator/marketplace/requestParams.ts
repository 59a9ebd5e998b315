/**
 * Validation of what section C reads besides create bodies: the run body with its path id (POST
 * `/api/scrapers/{id}/run`), path ids, and the `page` / `per_page` query parameters of the lists.
 */
import { bodyChecker, isPlainObject } from './checker';
import { RESULTS_PAGING, type PagingInput, type RunInput, type Validated } from './inputs';
import type { FieldError } from './types';

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
