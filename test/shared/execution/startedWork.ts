import type { IDataObject } from 'n8n-workflow';

import type { MarketplaceSimulatorOptions } from '../../simulator/marketplace';
import { DEMO_MANUAL_SCRAPER_IDS } from '../../simulator/platform';
import type { PlatformSimulatorOptions } from '../../simulator/platform';

/**
 * Work the node started is never lost: once a bulk job or a scraping run exists, status reads that fail are ridden
 * out with backoff up to Max Wait, and a wait that still cannot confirm the end names what was started, says not to
 * start it again, and (Continue On Fail) carries its ids and latest state. Nothing is ever started twice.
 *
 * What the files holding those tests share (one simulator per file, so they run in parallel):
 * `startedJobFailingReads.test.ts` and `startedJobWaitEnds.test.ts` for Bulk > Start, `startedRunFailingReads.test.ts`
 * and `startedRunEveryOperation.test.ts` for the operations that start scraping runs.
 */

/** A bulk URL takes 1.5 s, two at a time: a job of two URLs ends 1.5 s after it starts. */
export const PLATFORM_TIMINGS = { bulkUrlDurationMs: 1_500, bulkConcurrency: 2 } satisfies PlatformSimulatorOptions;
/** A run is queued 50 ms and runs 1.5 s. */
export const MARKETPLACE_TIMINGS = { queuedMs: 50, runMs: 1_500 } satisfies MarketplaceSimulatorOptions;

export const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];

/** Bulk > Start of two URLs with Wait for Completion, polling every second, and `options`. */
export const bulkStart = (options: IDataObject) => ({
	resource: 'bulk',
	operation: 'start',
	scraperId,
	urls: 'https://a.example.com/1\nhttps://a.example.com/2',
	waitForCompletion: true,
	options: { pollIntervalSeconds: 1, ...options },
});

/** Lead > Create and Run Search Engine Scraper with Wait for Completion, polling every second, and `options`. */
export const search = (options: IDataObject) => ({
	resource: 'lead',
	operation: 'createAndRunSearch',
	name: 'Roofers',
	searchType: 'keywords',
	keywords: 'roofers austin',
	limitPages: 1,
	waitForCompletion: true,
	options: { pollIntervalSeconds: 1, ...options },
});
