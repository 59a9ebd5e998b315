/**
 * Shapes of the platform API (section B of the interface) as the simulator serves them.
 * Field names are the interface's; where the interface leaves a shape unshown, the choice is documented in
 * `README.md` next to this file.
 */

export type AiAgent = 'general' | 'map' | 'listing';
export const AI_AGENTS: readonly AiAgent[] = ['general', 'map', 'listing'];

/**
 * `AI`, `Rerun-AI` and `Bulk-AI` are the interface's (a bulk job is `Bulk-AI` whether its scraper is manual or AI).
 * `Rerun-Manual` is ours: the interface does not show the type of a manual scraper's single rerun.
 */
export type ResultType = 'AI' | 'Rerun-AI' | 'Rerun-Manual' | 'Bulk-AI';

/**
 * How a bulk start (`scrapers-manual-rerun/bulk`, `scrapers-ai-rerun/bulk`) shapes its `data`. The interface shows the
 * bulk result record; the vendor's clients and live integration test read the job's id from `bulkResultId`.
 * `both`: the record with its `id` and `bulkResultId` (= id). `bulkResultId`: the record without `id`, plus
 * `bulkResultId`. `bulkResultIdOnly`: `{bulkResultId}` alone.
 */
export type BulkStartAnswer = 'both' | 'bulkResultId' | 'bulkResultIdOnly';
export const BULK_START_ANSWERS: readonly BulkStartAnswer[] = ['both', 'bulkResultId', 'bulkResultIdOnly'];

/** The success status of the reruns and bulk starts: the interface says 200, the vendor's docs OpenAPI 201. */
export type CreatedStatus = 200 | 201;

/** Record-level status values. `Finished`, `Processing` and `Failed` are the ones seen on the real service. */
export type ResultStatus = 'Pending' | 'Running' | 'Processing' | 'Finished' | 'Failed' | 'Canceled';

/** Per-URL status inside a bulk job: `Pending` -> `Running` -> `Finished` | `Failed`, or `Pending` -> `Canceled`. */
export type BulkUrlStatus = 'Pending' | 'Running' | 'Finished' | 'Failed' | 'Canceled';

/** The nine columns the results list sorts by. */
export type ResultSortField =
	| 'createdAt'
	| 'updatedAt'
	| 'id'
	| 'type'
	| 'url'
	| 'status'
	| 'error'
	| 'tokenUsage'
	| 'runtime';
export const RESULT_SORT_FIELDS: readonly ResultSortField[] = [
	'createdAt',
	'updatedAt',
	'id',
	'type',
	'url',
	'status',
	'error',
	'tokenUsage',
	'runtime',
];

export interface BulkUrlDetail {
	url: string;
	status: BulkUrlStatus;
	/** The failure text for a `Failed` URL; null otherwise. */
	error: string | null;
}

export interface BulkSummary {
	totalUrls: number;
	successfulUrls: number;
	failedUrls: number;
	/** URLs processed so far (successful + failed). */
	scrapedCount: number;
	totalTokenUsage: number;
	/** ISO timestamp when the last URL is (or was) done. */
	estimatedFinishAt: string;
}

export interface BulkData {
	/** The records extracted from every finished URL, in URL order; each carries its source `url`. */
	mergedData: Array<Record<string, unknown>>;
	urlDetails: BulkUrlDetail[];
	summary: BulkSummary;
}

/**
 * One result record in its detailed form (GET /api/v1/results/:id). Endpoint-specific forms add or drop a few
 * fields: see `CreateAndRunRecord`, `ListedResultRecord` and the notes on the optional fields.
 */
export interface ResultRecord<D = unknown> {
	id: string;
	createdAt: string;
	/** For `Bulk-AI`: the time of the last record-level status change (creation, completion), not per-URL progress. */
	updatedAt: string;
	userId: string;
	scraperId: string;
	type: ResultType;
	url: string;
	status: ResultStatus;
	error: string | null;
	tokenUsage: number;
	/** Seconds. */
	runtime: number;
	data: D;
	htmlPath: string;
	recordingPath: string;
	/** Absent from the bulk-start response, as the interface says. */
	screenshotPath?: string;
	dataPath: string;
	/** The page HTML (null for a bulk job, which has no single page). Absent from the bulk-start response. */
	htmlContent?: string | null;
	/** Bulk-start response only. */
	curl?: string;
	createdById: string;
	updatedById: string;
	deletedAt: string | null;
	deletedById: string | null;
}

/** The create-and-run (`scrapers-ai`) response record: runtime as a string, no screenshotPath, page contents inline. */
export interface CreateAndRunRecord
	extends Omit<ResultRecord<AiExampleData>, 'runtime' | 'screenshotPath' | 'htmlContent'> {
	runtime: string;
	curl: string;
	html: string;
	markdown: string;
	/** Base64 JPEG. */
	screenshot: string;
}

/** What the first (create-and-run) run returns: example code and example output, not final results. */
export interface AiExampleData {
	agent: AiAgent;
	/** The instruction, however it was sent (`prompt` or `message`); absent for the map agent, which takes none. */
	prompt?: string;
	/** The create options the scraper was made with, only those sent; absent when none were. */
	options?: CreateOptions;
	exampleCode: string;
	exampleOutput: unknown;
	note: string;
}

/**
 * Create options of scrapers-ai (public facts): the listing agent's `maxPages`; the map agent's `maxDepth` (0-5),
 * `maxPages` (1-1000), `limit` (1-100000), `includePatterns` and `excludePatterns` (regular expressions).
 */
export interface CreateOptions {
	maxDepth?: number;
	maxPages?: number;
	limit?: number;
	includePatterns?: string;
	excludePatterns?: string;
}

/** The bulk start's record in its fullest form (`bulkStartAnswer: 'both'`): no screenshotPath or htmlContent, with curl. */
export interface BulkStartRecord extends Omit<ResultRecord<BulkData>, 'screenshotPath' | 'htmlContent' | 'curl'> {
	curl: string;
	/** The new job's id (= `id`): what the vendor's clients poll `GET /api/v1/results/{bulkResultId}` with. */
	bulkResultId: string;
}

/** `data` of a bulk start, by `bulkStartAnswer`. */
export type BulkStartData = BulkStartRecord | Omit<BulkStartRecord, 'id'> | Pick<BulkStartRecord, 'bulkResultId'>;

/** A record as the results list returns it: `data` JSON-encoded, no page contents. */
export interface ListedResultRecord extends Omit<ResultRecord, 'data' | 'htmlContent' | 'curl'> {
	data: string;
}

/**
 * `data` of both cancels. `id` is the path id: the scraper's on `scrapers-bulks/{scraperId}/cancel`, the bulk job's on
 * `scrapers-bulks/result/{resultId}/cancel`. `bulkUrls`: every URL of the job(s), in job creation order; `canceledUrls`:
 * those that were still Pending and are now canceled.
 */
export interface CancelBulkResult {
	id: string;
	bulkUrls: string[];
	canceledUrls: string[];
}

export interface SubscriptionAccount {
	id: string;
	userId: string;
	tokenLimit: number;
	tokenUsage: number;
	quantity: number;
	rateLimit: number;
	/** Seconds. */
	rateTtl: number;
	billingSubscriptionId?: string; // the interface's names; the real service's are stripe… (`accountBillingNames`)
	billingStatus?: string;
	stripeSubscriptionId?: string;
	stripeStatus?: string;
	endsAt: string;
	isEnterprise: boolean;
	isAutoRenew: boolean;
	user: {
		id: string;
		name: string;
		email: string;
		/** Masked: the first four characters and an ellipsis, never the whole token. */
		latestApiToken: string;
		isVerified: boolean;
	};
}

export type AnalyticsStatusKey = 'PENDING' | 'RUNNING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
export const ANALYTICS_STATUS_KEYS: readonly AnalyticsStatusKey[] = [
	'PENDING',
	'RUNNING',
	'PROCESSING',
	'COMPLETED',
	'FAILED',
	'CANCELLED',
];

export interface AnalyticsStatusSummary {
	countAll: number;
	/** Percent of COMPLETED among all counted results, two decimals. */
	successRate: number;
	reqPerMinute: number;
	/** Mean runtime in seconds, two decimals. */
	avgLatency: number;
	/** A number for a status with no results; a numeric string (as a SQL count returns it) otherwise. */
	data: Array<{ key: AnalyticsStatusKey; value: number | string }>;
}

export interface ProxyBandwidthRow {
	username: string;
	/** Bytes. */
	total_bandwidth_usage: number;
}

export interface PagedMeta {
	page: number;
	pageSize: number;
	total: number;
	totalPage: number;
}

/** The platform API's error body. `statusCode` is absent on 429 and on the `Unauthorized access` variant of 401. */
export interface PlatformErrorBody {
	message: string;
	error?: string;
	statusCode?: number;
	/** 422 only: each invalid field and the rule it broke. */
	errors?: ValidationIssue[];
}

export interface ValidationIssue {
	field: string;
	rule: string;
	message: string;
}
