/**
 * The platform's bulk routes: the two bulk starts (`scrapers-manual-rerun/bulk`, and `scrapers-ai-rerun/bulk` from
 * the public facts), answered per `bulkStartAnswer`, and the two cancels (by scraper, and by bulk result id).
 */
import type { SimReply, SimRequest } from '../../core/http';
import type { SimServer } from '../../core/server';
import { cancelBulkJob, type BulkJob } from '../bulk';
import { notFound, validationFailed } from '../errors';
import { startBulkJob } from '../scrape';
import type { PlatformState, ScraperKind } from '../state';
import { omit, type StoredResult } from '../store';
import type { BulkStartData, CancelBulkResult } from '../types';
import { Issues, bodyObject, isUuid } from '../validation';
import { ok, type Caller, type Guard } from './guard';

/** Both bulk starts: body (422), scraper of the right kind (404/403/422), then the job, answered per `bulkStartAnswer`. */
function bulkRerun(state: PlatformState, req: SimRequest, caller: Caller, kind: ScraperKind): SimReply {
	const issues = new Issues();
	const body = bodyObject(req, issues);
	if (!issues.ok) return validationFailed(issues.list);
	const started = startBulkJob(state, body, caller, kind);
	if ('error' in started) return started.error;
	const record = started.record;
	let data: BulkStartData = record;
	if (state.options.bulkStartAnswer === 'bulkResultId') data = omit(record, 'id');
	else if (state.options.bulkStartAnswer === 'bulkResultIdOnly') data = { bulkResultId: record.bulkResultId };
	return ok('Bulk rerun started successfully', data, state.options.bulkStartStatus);
}

/**
 * `scrapers-bulks/{scraperId}/cancel`: the path id is the scraper's (as the interface names it). Cancels the still
 * Pending URLs of every bulk job of that scraper (manual or AI bulk); `bulkUrls` lists all their URLs in job creation
 * order. A scraper without bulk jobs answers empty lists. Unknown or someone else's scraper: 404 (403 is not
 * documented for cancel).
 */
function cancelScraperBulks(state: PlatformState, req: SimRequest, { user }: Caller): SimReply {
	const id = req.params.scraperId;
	if (!isUuid(id)) return validationFailed([{ field: 'scraperId', rule: 'isUuid', message: 'scraperId must be a UUID' }]);
	const scraper = state.scrapers.get(id);
	if (!scraper || scraper.userId !== user.id) return notFound();
	const now = state.clock.now();
	// Insertion order breaks createdAt ties (the sort is stable).
	const jobs = state
		.userResults(user)
		.filter((r): r is StoredResult & { bulk: BulkJob } => r.scraperId === id && r.bulk !== undefined)
		.sort((a, b) => a.createdAt - b.createdAt);
	const result: CancelBulkResult = {
		id,
		bulkUrls: jobs.flatMap((job) => job.bulk.urls),
		canceledUrls: jobs.flatMap((job) => cancelBulkJob(job.bulk, now)),
	};
	return ok('Bulk rerun canceled successfully', result);
}

/** `scrapers-bulks/result/{resultId}/cancel`: one bulk job by its record id. Someone else's or not a bulk job: 404. */
function cancelBulkResult(state: PlatformState, req: SimRequest, { user }: Caller): SimReply {
	const id = req.params.resultId;
	if (!isUuid(id)) return validationFailed([{ field: 'resultId', rule: 'isUuid', message: 'resultId must be a UUID' }]);
	const stored = state.results.get(id);
	if (!stored || !stored.bulk || stored.userId !== user.id) return notFound();
	const canceledUrls = cancelBulkJob(stored.bulk, state.clock.now());
	const result: CancelBulkResult = { id: stored.id, bulkUrls: [...stored.bulk.urls], canceledUrls };
	return ok('Bulk rerun canceled successfully', result);
}

export function registerBulkRoutes(server: SimServer, guard: Guard, state: PlatformState): void {
	const starting = { rateLimited: true, permission: 'bulkRerun', spendsTokens: true } as const;
	server.route('POST', '/api/v1/scrapers-ai-rerun/bulk', guard(starting, (req, caller) => bulkRerun(state, req, caller, 'ai')));
	server.route('POST', '/api/v1/scrapers-manual-rerun/bulk', guard(starting, (req, caller) => bulkRerun(state, req, caller, 'manual')));
	server.route('PATCH', '/api/v1/scrapers-bulks/:scraperId/cancel', guard({ rateLimited: true }, (req, caller) => cancelScraperBulks(state, req, caller)));
	server.route(
		'PATCH',
		'/api/v1/scrapers-bulks/result/:resultId/cancel',
		guard({ rateLimited: true }, (req, caller) => cancelBulkResult(state, req, caller)),
	);
}
