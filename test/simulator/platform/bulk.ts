import { bulkUrlRecords, failureFor, scrapeCost } from './content';
import type { BulkData, BulkUrlDetail, BulkUrlStatus, ResultStatus } from './types';

/**
 * A bulk rerun job. Its progress is a pure function of its start time and the clock: URLs run `concurrency` at a
 * time in list order, each taking `durationMs`, so URL i runs from `startedAt + floor(i / concurrency) *
 * durationMs` for `durationMs`. Duration and concurrency are fixed when the job starts; changing the simulator's
 * options later affects only new jobs.
 */
export interface BulkJob {
	urls: string[];
	startedAt: number;
	durationMs: number;
	concurrency: number;
	/** Per URL index: when it was canceled (it was still Pending then), or undefined. */
	canceledAt: Array<number | undefined>;
}

export interface BulkState {
	status: ResultStatus;
	error: string | null;
	data: BulkData;
	tokenUsage: number;
	/** Seconds from start to completion, or to now while running. */
	runtime: number;
	/** Epoch ms of the last record-level status change: the start, or the completion once every URL is terminal. */
	updatedAt: number;
	done: boolean;
}

export function createBulkJob(urls: string[], startedAt: number, durationMs: number, concurrency: number): BulkJob {
	return { urls: [...urls], startedAt, durationMs, concurrency, canceledAt: urls.map(() => undefined) };
}

function slot(job: BulkJob, index: number): { start: number; end: number } {
	const start = job.startedAt + Math.floor(index / job.concurrency) * job.durationMs;
	return { start, end: start + job.durationMs };
}

export function urlStatus(job: BulkJob, index: number, now: number): BulkUrlStatus {
	if (job.canceledAt[index] !== undefined) return 'Canceled';
	const { start, end } = slot(job, index);
	if (now < start) return 'Pending';
	if (now < end) return 'Running';
	return failureFor(job.urls[index]) === undefined ? 'Finished' : 'Failed';
}

/** Cancels the URLs still Pending at `now`; returns them (running URLs finish normally). */
export function cancelBulkJob(job: BulkJob, now: number): string[] {
	const canceled: string[] = [];
	job.urls.forEach((url, i) => {
		if (urlStatus(job, i, now) !== 'Pending') return;
		job.canceledAt[i] = now;
		canceled.push(url);
	});
	return canceled;
}

export function bulkState(job: BulkJob, now: number): BulkState {
	const urlDetails: BulkUrlDetail[] = [];
	const mergedData: Array<Record<string, unknown>> = [];
	let successfulUrls = 0;
	let failedUrls = 0;
	let canceledUrls = 0;
	let totalTokenUsage = 0;
	// The moment the last URL became (or will become) terminal: a run's end, or a cancel.
	let completion = job.startedAt;
	job.urls.forEach((url, i) => {
		const status = urlStatus(job, i, now);
		const canceledAt = job.canceledAt[i];
		completion = Math.max(completion, canceledAt ?? slot(job, i).end);
		let error: string | null = null;
		if (status === 'Finished') {
			successfulUrls++;
			totalTokenUsage += scrapeCost('bulk-url', url).tokenUsage;
			mergedData.push(...bulkUrlRecords(url));
		} else if (status === 'Failed') {
			failedUrls++;
			error = failureFor(url) ?? null;
		} else if (status === 'Canceled') {
			canceledUrls++;
		}
		urlDetails.push({ url, status, error });
	});
	const total = job.urls.length;
	const done = successfulUrls + failedUrls + canceledUrls === total;
	let status: ResultStatus = 'Running';
	if (done) status = canceledUrls > 0 ? 'Canceled' : failedUrls === total ? 'Failed' : 'Finished';
	const end = done ? completion : now;
	return {
		status,
		error: status === 'Failed' ? `All ${total} URLs failed` : null,
		data: {
			mergedData,
			urlDetails,
			summary: {
				totalUrls: total,
				successfulUrls,
				failedUrls,
				scrapedCount: successfulUrls + failedUrls,
				totalTokenUsage,
				estimatedFinishAt: new Date(completion).toISOString(),
			},
		},
		tokenUsage: totalTokenUsage,
		runtime: Math.round(Math.max(0, end - job.startedAt)) / 1000,
		updatedAt: done ? completion : job.startedAt,
		done,
	};
}
