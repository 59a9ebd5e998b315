import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../../simulator/platform';
import { FetchSimulator } from '../../../simulator/platform/fetch';
import type { BenchSettings } from '../../lib/stats';
import { median } from '../../lib/stats';
import { MB, growthMeasure, mb, retainedMeasure, series } from './measures';
import type { CaseResults, CaseSeries } from './measures';

/**
 * Figure 5's Page > Fetch case: 100 full-page screenshots in one execution, each a binary file of its item. With
 * binary data on disk (n8n 2.x's default) an execution of many screenshots should hold about one at a time, not all.
 */

const PAGES = 100;
/** Rows of each screenshot: 120 x 2,770 pixels stored uncompressed, about 1 MB of PNG (a long page's real size). */
const FULL_PAGE_HEIGHT = 2_770;
const WARM_PAGES = 3;

export async function pageScreenshotCases(settings: BenchSettings): Promise<CaseResults> {
	// Rate window raised: this case measures memory, not 429s.
	const platform = new PlatformSimulator({ rateLimit: 1_000_000 });
	const fetchHost = new FetchSimulator(platform);
	await Promise.all([platform.listen(), fetchHost.listen()]);
	try {
		const credentials = { scraperPlatformApi: { apiToken: PLATFORM_DEMO_TOKEN, baseUrl: platform.url, fetchBaseUrl: fetchHost.url, searchBaseUrl: fetchHost.url } };
		let run = 0;
		// Pages no other run asked for, so nothing a process cached could stand in for them.
		const pages = () => {
			run++;
			const list = (kind: string, count: number) => Array.from({ length: count }, (_, i) => `https://gallery.example.com/${kind}-${run}/page-${i}`);
			return { urls: list('bench', PAGES), warmUrls: list('warm', WARM_PAGES) };
		};
		const results = await series(
			settings,
			`${PAGES} page screenshots`,
			{
				nodeFilesystem: () => ({ kind: 'page-screenshots-node', binaryMode: 'filesystem', credentials, ...pages() }),
				nodeMemory: () => ({ kind: 'page-screenshots-node', binaryMode: 'memory', credentials, ...pages() }),
			},
			() => (fetchHost.fullPageHeight = FULL_PAGE_HEIGHT),
			() => (fetchHost.fullPageHeight = undefined),
		);
		const payload = median(results.nodeMemory.payload);
		for (const [name, s] of Object.entries(results)) {
			if (s.items.some((items) => items !== PAGES) || s.payload.some((bytes) => bytes !== payload)) throw new Error(`${name} got ${s.items.join(', ')} items, ${s.payload.join(', ')} bytes of screenshots`);
		}
		const each = `${PAGES} full-page screenshots of ${(payload / PAGES / MB).toFixed(2)} MB -> binary, Page > Fetch`;
		return {
			measures: [
				growthMeasure('5.pageShotsFs', `${each} (binary data on disk)`, results.nodeFilesystem, payload, { label: 'the same in memory mode', series: results.nodeMemory }, true),
				growthMeasure('5.pageShotsMemory', `${each} (binary data in memory)`, results.nodeMemory, payload),
				retainedMeasure('5.pageShotsFsRetained', `${PAGES} screenshots, binary data on disk`, results.nodeFilesystem, payload),
				retainedMeasure('5.pageShotsMemoryRetained', `${PAGES} screenshots, binary data in memory`, results.nodeMemory, payload),
			],
			notes: [
				`Page > Fetch screenshots: ${PAGES} items in one execution of Scraper Platform Page > Fetch (Screenshot: Full Page, HTML off), each a different page whose screenshot the fetch simulator serves as a ${(payload / PAGES).toLocaleString('en-US')}-byte PNG, base64 in its JSON answer (FetchSimulator fullPageHeight ${FULL_PAGE_HEIGHT}); ${(payload / MB).toFixed(1)} MB of images in all. Multiples are of that total.`,
			],
			analysis: pageScreenshotNotes(results, payload),
		};
	} finally {
		await fetchHost.close();
		await platform.close();
	}
}

function pageScreenshotNotes(results: Record<string, CaseSeries>, payload: number): string[] {
	const perShot = (s: CaseSeries) => (median(s.growth) / (payload / PAGES)).toFixed(1);
	return [
		`**${PAGES} screenshots in one execution.** With binary data on disk the node peaks at ${mb(results.nodeFilesystem)} (${perShot(results.nodeFilesystem)} screenshots' worth) and its items keep ${(median(results.nodeFilesystem.retained) / MB).toFixed(1)} MB after GC: each image goes to n8n's binary store as its item is made, and the items hold only a reference. In memory mode n8n keeps every image in its item as base64 text (\`prepareBinaryData\`): ${mb(results.nodeMemory)} at the peak, ${(median(results.nodeMemory.retained) / MB).toFixed(1)} MB kept.`,
	];
}
