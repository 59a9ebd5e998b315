import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { FROM_OPTIONS, movedToOptions, optionsCollection, readMoved } from '../../../shared/descriptions/collections';
import { nodeOperationError, refusal } from '../../../shared/execution/errors';
import type { Operation } from '../../../shared/execution/operation';
import { InputValidator } from '../../../shared/input/validation';
import { getResult, resultsPages, toBulkJob, urlsDone } from '../../transport/api';
import type { BulkJob } from '../../transport/api';
import { AI_RESULT_TYPES, ID_KINDS, isCanceledStatus, isFailedStatus, isTerminalStatus } from '../../transport/vocabulary';
import { bulkIdOf, bulkIdParameter } from '../../descriptions/ids';
import { bulkJobSimplifyProperties, bulkOutputProperty, bulkWaitOptions, readBulkFinish, waitProperties } from './common';
import type { BulkFinish } from './common';
import { SCRAPER_KINDS, startBulkJob } from './startJob';
import type { ScraperKind } from './startJob';
import type { ExecutionCall } from '../../../shared/execution/call';

const includeCanceled = movedToOptions({
	displayName: 'Include Canceled URLs',
	name: 'includeCanceled',
	type: 'boolean',
	default: false,
	description: 'Whether to retry the URLs that were canceled before they ran, too',
});

/**
 * A bulk job's record is `Bulk-AI` whatever its scraper's kind, so the kind is read elsewhere: from the scraper's own
 * results (Detect), or chosen by the user when those no longer tell.
 */
const scraperKind = movedToOptions({
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
});

const KIND_CHOICES = ['detect', ...SCRAPER_KINDS] as const;

const retryOptions: INodeProperties = optionsCollection([includeCanceled.option, ...bulkWaitOptions, scraperKind.option], {
	displayOptions: { show: FROM_OPTIONS },
});

/** What a retry needs, read and checked before any request. */
interface RetryPlan {
	bulkId: string;
	includeCanceled: boolean;
	kind: (typeof KIND_CHOICES)[number];
	finish: BulkFinish;
}

function readPlan(ctx: IExecuteFunctions, itemIndex: number): RetryPlan {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	return {
		bulkId: bulkIdOf(ctx, itemIndex),
		includeCanceled: v.boolean(readMoved(ctx, 'includeCanceled', itemIndex, false), 'Include Canceled URLs'),
		kind: v.oneOf(readMoved(ctx, 'retryScraperKind', itemIndex, 'detect'), 'Scraper Kind', KIND_CHOICES),
		finish: readBulkFinish(ctx, itemIndex),
	};
}

/** The job to retry: a bulk job that has ended (only then are its failed URLs known), with its scraper. */
async function readEndedJob(call: ExecutionCall, bulkId: string, itemIndex: number): Promise<BulkJob> {
	const { ctx } = call;
	const job = toBulkJob(await getResult(call, bulkId, itemIndex, ID_KINDS.bulkJob));
	// Nothing is started after a refusal: the job was only read.
	const refuse = (message: string, description: string): never => {
		throw refusal(nodeOperationError(ctx.getNode(), message, { description, itemIndex }));
	};
	if (job.urlDetails.length === 0) {
		refuse(`Result "${bulkId}" is not a bulk job: it lists no URLs`, "Pick a bulk job in 'Bulk Job ID', e.g. from the output of Bulk > Start.");
	}
	if (!job.completed) {
		refuse(
			`Bulk job "${bulkId}" is still running: ${urlsDone(job)} of ${job.urlDetails.length} URLs done`,
			"Its failed URLs are known once every URL has ended. Wait for it first (Bulk > Get with 'Wait for Completion'), or cancel its pending URLs with Bulk > Cancel One Job.",
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
	properties: [
		...bulkIdParameter,
		includeCanceled.legacy,
		scraperKind.legacy,
		...waitProperties,
		bulkOutputProperty,
		...bulkJobSimplifyProperties,
		retryOptions,
	],
	async execute(itemIndex, call) {
		const plan = readPlan(this, itemIndex);
		const job = await readEndedJob(call, plan.bulkId, itemIndex);
		const urls = urlsToRetry(job, plan.includeCanceled);
		if (urls.length === 0) return [nothingToRetry(job, plan.includeCanceled)];
		const kind = plan.kind === 'detect' ? await detectKind(call, job.scraperId, itemIndex) : plan.kind;
		return await startBulkJob(call, { kind, scraperId: job.scraperId, urls, finish: plan.finish }, itemIndex);
	},
};
