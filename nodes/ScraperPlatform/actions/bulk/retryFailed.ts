import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { optionsCollection } from '../../../shared/descriptions/collections';
import { nodeOperationError, refusal } from '../../../shared/execution/errors';
import type { Operation } from '../../../shared/execution/operation';
import { field, rules } from '../../../shared/input/fields';
import { collection, Moved } from '../../../shared/input/fieldSets';
import { readBulkJob, urlsDone } from '../../jobs/job';
import type { BulkJob } from '../../jobs/job';
import { bulkWait } from '../../jobs/wait';
import { resultsPages } from '../../transport/api';
import { AI_RESULT_TYPES, isCanceledStatus, isFailedStatus, isTerminalStatus } from '../../transport/vocabulary';
import { BULK_ID } from '../../descriptions/ids';
import { FROM_OPTIONS, PLATFORM_VERSIONS } from '../../versions';
import { bulkFinishProperties, readBulkFinish } from './common';
import type { BulkFinish } from './common';
import { SCRAPER_KINDS, startBulkJob } from './startJob';
import type { ScraperKind } from './startJob';
import type { ExecutionCall } from '../../../shared/execution/call';

const INCLUDE_CANCELED = new Moved(
	field({
		displayName: 'Include Canceled URLs',
		name: 'includeCanceled',
		type: 'boolean',
		default: false,
		description: 'Whether to retry the URLs that were canceled before they ran, too',
	}),
	PLATFORM_VERSIONS.options,
);

const KIND_CHOICES = ['detect', ...SCRAPER_KINDS] as const;

/**
 * A bulk job's record is `Bulk-AI` whatever its scraper's kind, so the kind is read elsewhere: from the scraper's own
 * results (Detect), or chosen by the user when those no longer tell.
 */
const SCRAPER_KIND = new Moved(
	field(
		{
			displayName: 'Scraper Kind',
			name: 'retryScraperKind',
			type: 'options',
			default: 'detect',
			options: [
				{ name: 'Detect', value: 'detect', description: "Read from the scraper's results: an AI scraper's first result is its creation" },
				{ name: 'Manual', value: 'manual', description: 'A scraper built by hand in the dashboard' },
				{ name: 'AI', value: 'ai', description: 'A scraper made by AI Scraper > Create and Run' },
			],
			description: 'The kind of scraper the job ran: each kind has its own bulk endpoint',
		},
		rules.oneOf(KIND_CHOICES),
	),
	PLATFORM_VERSIONS.options,
);

const OPTIONS = collection((options) => optionsCollection(options, { displayOptions: { show: FROM_OPTIONS } }), [
	INCLUDE_CANCELED,
	...bulkWait.options,
	SCRAPER_KIND,
]);

/** What a retry needs, read and checked before any request. */
interface RetryPlan {
	bulkId: string;
	includeCanceled: boolean;
	kind: (typeof KIND_CHOICES)[number];
	finish: BulkFinish;
}

/** Read one by one: Max Wait and Poll Interval count only with Wait for Completion on (`readBulkFinish`). */
function readPlan(ctx: IExecuteFunctions, itemIndex: number): RetryPlan {
	return {
		bulkId: BULK_ID.read(ctx, itemIndex),
		includeCanceled: INCLUDE_CANCELED.read(ctx, itemIndex) ?? false,
		kind: SCRAPER_KIND.read(ctx, itemIndex) ?? 'detect',
		finish: readBulkFinish(ctx, itemIndex),
	};
}

/** The job to retry: a bulk job that has ended (only then are its failed URLs known), with its scraper. */
async function readEndedJob(call: ExecutionCall, bulkId: string, itemIndex: number): Promise<BulkJob> {
	const { ctx } = call;
	const job = await readBulkJob(call, bulkId, itemIndex);
	// Nothing is started after a refusal: the job was only read.
	const refuse = (message: string, description: string): never => {
		throw refusal(nodeOperationError(ctx.getNode(), message, { description, itemIndex }));
	};
	if (job.urlDetails.length === 0) {
		refuse(`Result "${bulkId}" is not a bulk job: it lists no URLs`, `Pick a bulk job in '${BULK_ID.label}', e.g. from the output of Bulk > Start.`);
	}
	if (!job.completed) {
		refuse(
			`Bulk job "${bulkId}" is still running: ${urlsDone(job)} of ${job.urlDetails.length} URLs done`,
			`Its failed URLs are known once every URL has ended. Wait for it first (Bulk > Get with '${bulkWait.waitSwitch.label}'), or cancel its pending URLs with Bulk > Cancel One Job.`,
		);
	}
	if (job.scraperId === '') refuse(`Bulk job "${bulkId}" names no scraper`, 'Start the URLs again with Bulk > Start and the scraper it ran.');
	return job;
}

/** The URLs to retry, in the job's order: the failed ones, and the canceled ones when asked. */
function urlsToRetry(job: BulkJob, withCanceled: boolean): string[] {
	return job.urlDetails
		.filter((u) => isFailedStatus(u.status) || (withCanceled && isCanceledStatus(u.status)))
		.map((u) => u.url)
		.filter((url) => typeof url === 'string' && url !== '');
}

/** The one item of a job with nothing to retry: says so, with the job's counts; no job is started. */
function nothingToRetry(job: BulkJob, withCanceled: boolean): INodeExecutionData {
	const count = (test: (status: unknown) => boolean) => job.urlDetails.filter((u) => test(u.status)).length;
	const failedUrls = count(isFailedStatus);
	const canceledUrls = count(isCanceledStatus);
	const what = withCanceled ? 'no failed or canceled URLs' : 'no failed URLs';
	const json: IDataObject = {
		retried: false,
		message: `Bulk job "${job.id}" has ${what}: no job was started`,
		bulkJobId: job.id,
		scraperId: job.scraperId,
		status: job.status,
		totalUrls: job.urlDetails.length,
		successfulUrls: count(isTerminalStatus) - failedUrls - canceledUrls,
		failedUrls,
		canceledUrls,
	};
	return { json };
}

/**
 * The scraper's kind from its oldest results (one page, the scraper's id as the search): an AI scraper's first
 * result is its creation (`AI`) and its reruns are `Rerun-AI`; a scraper with neither is a manual one.
 */
async function detectKind(call: ExecutionCall, scraperId: string, itemIndex: number): Promise<ScraperKind> {
	const readPage = resultsPages(call, { pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC', search: scraperId }, itemIndex);
	const { records } = await readPage(1);
	const own = records.filter((record) => record.scraperId === scraperId);
	return own.some((record) => AI_RESULT_TYPES.includes(String(record.type))) ? 'ai' : 'manual';
}

export const bulkRetryFailed: Operation = {
	value: 'retryFailed',
	name: 'Retry Failed URLs',
	action: 'Retry failed URLs of bulk job',
	description: 'Start one new bulk job, on the same scraper, for the URLs of an ended job that failed',
	properties: [...BULK_ID.properties, INCLUDE_CANCELED.legacy, SCRAPER_KIND.legacy, ...bulkFinishProperties, OPTIONS.property],
	async execute(itemIndex, call) {
		const plan = readPlan(this, itemIndex);
		const job = await readEndedJob(call, plan.bulkId, itemIndex);
		const urls = urlsToRetry(job, plan.includeCanceled);
		if (urls.length === 0) return [nothingToRetry(job, plan.includeCanceled)];
		const kind = plan.kind === 'detect' ? await detectKind(call, job.scraperId, itemIndex) : plan.kind;
		return await startBulkJob(call, { kind, scraperId: job.scraperId, urls, finish: plan.finish, retryOf: job.id }, itemIndex);
	},
};
