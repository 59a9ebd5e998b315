import type { IDataObject } from 'n8n-workflow';

import type { RecordFields } from '../../shared/descriptions/simplify';

/**
 * The words of the section C API, declared once: its statuses, its record shapes and field names, and where its
 * lists live. The Marketplace node, its pickers and the Marketplace Trigger read the API through these.
 */

/** `status` values of a result; a run has the status its results give it (see `overallStatus`). */
/** A section C id as the service gives it: a positive whole number, also as text; undefined for anything else. */
export function idOf(value: unknown): number | undefined {
	const id = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
	return Number.isInteger(id) && id > 0 ? id : undefined;
}

export const RUN_STATUS = {
	queued: 'queued',
	running: 'running',
	succeeded: 'succeeded',
	failed: 'failed',
} as const;

/** `status` of a section C run result: `queued`, `running`, then `succeeded` or `failed`. */
export type RunStatus = (typeof RUN_STATUS)[keyof typeof RUN_STATUS] | string;

// `failed` is the documented failure; the others are kept terminal in case the service reports them.
export const TERMINAL_STATUSES: readonly string[] = [RUN_STATUS.succeeded, RUN_STATUS.failed, 'error', 'canceled', 'cancelled'];

export function isTerminalStatus(status: unknown): boolean {
	return TERMINAL_STATUSES.includes(String(status ?? '').toLowerCase());
}

/** What a request is about, for the "was not found (404)" message. */
export const SUBJECT = { scraper: 'scraper', scrapingRun: 'scraping run', result: 'result' } as const;

/** The most records one page of GET /api/results carries: the service recommends at most 100 against time-outs. */
export const LARGEST_RESULTS_PAGE = 100;

/** The most scrapers one page of GET /api/scrapers carries (`per_page`, paged as the results list is). */
export const LARGEST_SCRAPERS_PAGE = 100;

/** Where a result's `content` keeps its records when it is an object (each scraper names its list its own way). */
export const LIST_KEYS: readonly string[] = ['records', 'items', 'results', 'data', 'listings', 'leads', 'pdfs', 'jobs'];

/** `scraped_url` of a result whose scraper ran on its own query (no URLs given). */
export const DEFAULT_SCRAPED_URL = 'Default';

/** Fields of a run result in a create answer that the run-list shape has not: the nested scraper configuration and the misspelt twin of `scraped_url`. */
export const CREATE_ONLY_FIELDS: readonly string[] = ['scraper', 'scrapped_url'];

/**
 * A started run as a create-and-run outputs it without waiting (Simplify on): its ids, status and counts, flat,
 * instead of the service's whole answer with the new scraper's configuration. `results` is the selectable extra.
 */
export const STARTED_RUN_FIELDS: RecordFields = {
	id: 'scraping_run_id',
	simplified: ['scraping_run_id', 'scraper_id', 'scraper_name', 'status', 'completed', 'results_total', 'created_at', 'message'],
	all: ['scraping_run_id', 'scraper_id', 'scraper_name', 'status', 'completed', 'results_total', 'results', 'created_at', 'message'],
};

/** C. Scraper object: a scraper of the account (GET /api/scrapers, GET /api/scrapers/{id}, `scraper` of a create). */
export interface ScraperRecord extends IDataObject {
	id: number;
	name: string;
	url: string[];
	urls: string[];
	scheduled: boolean;
	/** Null when unscheduled. */
	schedule: IDataObject | null;
	created_at: string;
	updated_at: string;
}

/** The answer of DELETE /api/scraping-runs/{id} and DELETE /api/results/{id}. */
export interface DeleteAnswer extends IDataObject {
	deleted: boolean;
}

/** C. Run-list record: one result (one URL, location query or keyword) of a scraping run. */
export interface RunListRecord extends IDataObject {
	id: number;
	scraper_id: number;
	scraping_run_id: number;
	scraper_name: string;
	scraped_url: string;
	status: RunStatus;
	/** Null until the result is done; then the extracted data (or the page HTML on the HTML endpoint). */
	content: IDataObject | IDataObject[] | string | null;
	created_at: string;
	updated_at: string;
}

/** A scraping run with all its results (GET `/api/scraping-runs/{id}` and the HTML endpoint). */
export interface ScrapingRun extends IDataObject {
	id: number;
	scraper_id: number;
	status: RunStatus;
	results: RunListRecord[];
	created_at: string;
}

/** The ids that say where an extracted record comes from, first in each record item. */
export function recordOrigin(scraperId: number, scrapingRunId: number, result: RunListRecord): IDataObject {
	return {
		scraper_id: scraperId,
		scraping_run_id: scrapingRunId,
		result_id: result.id,
		scraped_url: result.scraped_url,
	};
}
