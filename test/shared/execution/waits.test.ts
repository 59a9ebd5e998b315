// Every wait of the pack is bounded: the largest Max Wait and Poll Interval the UI accepts make exactly the expected
// requests (no timer overflow turning a long wait into a request storm), and a pause of any length hands Node no
// timer longer than it can hold.
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { MAX_TIMER_MS, pause } from '../../../nodes/shared/execution/pause';
import { MAX_POLL_INTERVAL_SECONDS, MAX_WAIT_SECONDS } from '../../../nodes/shared/execution/waitFields';
import { runNode } from '../../harness';
import { MARKETPLACE_DEMO_TOKEN, MarketplaceSimulator } from '../../simulator/marketplace';
import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';

// Work that never finishes while a test runs: a bulk URL takes an hour, a marketplace run stays queued for a day.
const platform = new PlatformSimulator({ bulkUrlDurationMs: 3_600_000 });
const marketplace = new MarketplaceSimulator({ queuedMs: 86_400_000, runMs: 86_400_000 });
/** How long each run may wait before the test stops it, as the editor's Stop button does. */
const STOP_AFTER_MS = 1_500;

beforeAll(async () => {
	await Promise.all([platform.listen(), marketplace.listen()]);
});

afterAll(async () => {
	await Promise.all([platform.close(), marketplace.close()]);
});

function requestsSeen(): number {
	return platform.server.log.entries.length + marketplace.server.log.entries.length;
}

async function runPlatform(parameters: IDataObject, stopAfterMs: number | undefined = STOP_AFTER_MS) {
	return await runNode({
		nodeType: 'scraperPlatform',
		parameters: parameters as never,
		credentials: { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url } },
		cancelAfterMs: stopAfterMs,
	});
}

/** A bulk job that keeps running while the test does (each URL takes an hour): its id. */
async function startRunningJob(url: string): Promise<string> {
	const started = await runPlatform({ resource: 'bulk', operation: 'start', scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: url }, undefined);
	return started.items[0].json.id as string;
}

async function runMarketplace(parameters: IDataObject) {
	return await runNode({
		nodeType: 'scraperMarketplace',
		parameters: parameters as never,
		credentials: { scraperMarketplaceApi: { apiToken: MARKETPLACE_DEMO_TOKEN, baseUrl: marketplace.url } },
		cancelAfterMs: STOP_AFTER_MS,
	});
}

const LARGEST = { waitForCompletion: true, options: { maxWaitSeconds: MAX_WAIT_SECONDS, pollIntervalSeconds: MAX_POLL_INTERVAL_SECONDS } };

describe('the largest waits the UI accepts', () => {
	it('the UI bounds are a day of waiting and an hour between checks, far inside what a timer holds', () => {
		expect(MAX_WAIT_SECONDS * 1000).toBeLessThan(MAX_TIMER_MS);
		expect(MAX_POLL_INTERVAL_SECONDS * 1000).toBeLessThan(MAX_TIMER_MS);
	});

	// Each wait-capable operation: the request that starts (or reads) the work, then a wait of an hour.
	const cases: Array<{ name: string; run: () => Promise<unknown>; expected: number }> = [
		{
			name: 'Bulk > Start',
			run: async () => await runPlatform({ resource: 'bulk', operation: 'start', scraperId: DEMO_MANUAL_SCRAPER_IDS[0], urls: 'https://a.example.com/1\nhttps://a.example.com/2', ...LARGEST }),
			// The start answer is the first state: the start is the only request before the hour's wait.
			expected: 1,
		},
		{
			name: 'Marketplace Scraper > Run',
			run: async () => {
				const created = await runMarketplace({ resource: 'lead', operation: 'createAndRunSearch', name: 'Soak', searchType: 'keywords', keywords: 'roofers', limitPages: 1, waitForCompletion: false, simplify: false });
				const scraperId = (created.items[0].json.scraper as { id: number }).id;
				marketplace.server.log.clear();
				return await runMarketplace({ resource: 'scraper', operation: 'run', scraperId, ...LARGEST });
			},
			// The run answer is the first state, so the run is the only request before the hour's wait.
			expected: 1,
		},
		{
			name: 'Lead > Create and Run Search Engine Scraper',
			run: async () => await runMarketplace({ resource: 'lead', operation: 'createAndRunSearch', name: 'Soak', searchType: 'keywords', keywords: 'roofers', limitPages: 1, ...LARGEST }),
			expected: 1,
		},
	];

	it.each(cases)('$name makes $expected request(s), then waits until stopped', async ({ run, expected }) => {
		platform.server.log.clear();
		marketplace.server.log.clear();
		const result = (await run()) as { error?: Error & { description?: string | null } };
		// Stopped while waiting: the item fails naming the work that was started and goes on in the service.
		expect(result.error?.message).toMatch(/^(Bulk job "[^"]+"|Scraping runs? [\d, ]+ of scraper \d+) was started; the execution was stopped before it finished/);
		expect(result.error?.description).toMatch(/^Do not start it again: it goes on in the service\./);
		// Longer than a pause step: a wait that noticed the Stop must not send its next read.
		await pause(800);
		expect(requestsSeen()).toBe(expected);
	});

	it('Bulk > Get of a running job: its read is the first state, then the hour between checks', async () => {
		const bulkId = await startRunningJob('https://a.example.com/3');
		const before = requestsSeen();
		await runPlatform({ resource: 'bulk', operation: 'get', bulkId, ...LARGEST });
		await pause(800);
		expect(requestsSeen() - before).toBe(1);
	});
});

describe('generated waits', () => {
	it('any Poll Interval the UI accepts: at most one read per interval while the job runs', async () => {
		const bulkId = await startRunningJob('https://a.example.com/4');
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: MAX_POLL_INTERVAL_SECONDS }), fc.integer({ min: 1, max: MAX_WAIT_SECONDS }), async (pollIntervalSeconds, maxWaitSeconds) => {
				const before = requestsSeen();
				await runPlatform({ resource: 'bulk', operation: 'get', bulkId, waitForCompletion: true, options: { pollIntervalSeconds, maxWaitSeconds } }, 300);
				// 300 ms of waiting: the Get's read and the first poll, nothing more before the interval (1 s or more).
				expect(requestsSeen() - before).toBeLessThanOrEqual(2);
			}),
			{ numRuns: 12 },
		);
	});

	it('a pause of any length hands no timer more than Node holds, and a stop ends it at once', async () => {
		await fc.assert(
			fc.asyncProperty(fc.double({ min: 1_000, max: 2 ** 60, noNaN: true }), async (ms) => {
				const controller = new AbortController();
				const waiting = pause(ms, controller.signal);
				let done = false;
				void waiting.then(() => (done = true));
				// A timer given more than 2^31-1 ms would fire after 1 ms: still waiting after 20 ms means it did not.
				await pause(20);
				expect(done).toBe(false);
				controller.abort();
				await waiting;
			}),
			{ numRuns: 10 },
		);
	});

	it('a pause of nothing, a negative time or NaN returns at once', async () => {
		for (const ms of [0, -1, Number.NaN, Number.NEGATIVE_INFINITY]) await expect(pause(ms)).resolves.toBeUndefined();
	});
});
