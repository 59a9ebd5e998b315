import type { IDataObject } from 'n8n-workflow';

import { TriggerInstance } from '../../harness/trigger';
import type { TriggerDatabase } from '../../harness/trigger';
import { PLATFORM_DEMO_TOKEN, PlatformSimulator } from '../../simulator/platform';
import { FETCH_ROUTES, FetchSimulator } from '../../simulator/platform/fetch';

/** Page Changed through n8n-core's PollContext, against the platform and its page fetch on a host of its own. */

export interface WatchContext {
	platform: PlatformSimulator;
	fetchHost: FetchSimulator;
}

/** A fresh platform and fetch host per test (their own clock, log and pages). */
export function useWatchHosts(): WatchContext {
	const context = {} as WatchContext;
	beforeEach(async () => {
		context.platform = new PlatformSimulator();
		context.fetchHost = new FetchSimulator(context.platform);
		await Promise.all([context.platform.listen(), context.fetchHost.listen()]);
	});
	afterEach(async () => {
		await Promise.all([context.fetchHost.close(), context.platform.close()]);
	});
	return context;
}

/** A Scraper Platform Trigger on Page Changed, its credential's Fetch Base URL at the simulator's fetch host. */
export class WatchTrigger extends TriggerInstance {
	constructor(context: WatchContext, parameters: IDataObject, database?: TriggerDatabase) {
		super({
			baseUrl: context.platform.url,
			apiToken: PLATFORM_DEMO_TOKEN,
			credential: { fetchBaseUrl: context.fetchHost.url },
			parameters: { event: 'pageChanged', ...parameters } as TriggerInstance['node']['parameters'],
			database,
		});
	}

	/** What Page Changed keeps in the node's static data. */
	watchState(): IDataObject | undefined {
		return this.staticData().pageChanged as IDataObject | undefined;
	}
}

/** The fetches the host received (GET /?url=…). */
export function fetchesOf(context: WatchContext): number {
	return context.fetchHost.server.log.for(FETCH_ROUTES.fetch).length;
}

/** A small product page, in HTML only (the service gives no Markdown for it), at a price and stock. */
export function productHtml(price: string, stock = 'In stock'): string {
	return `<!DOCTYPE html><html><head><title>Chair</title><script>var t = ${Math.random()};</script></head><body><h1>Classic Chair</h1><p class="price">$${price}</p><p>${stock}</p></body></html>`;
}

/** The outcome of a poll that should fail: its error, or a test failure when it did not. */
export async function pollError(trigger: WatchTrigger): Promise<Error & { description?: string | null }> {
	try {
		await trigger.poll();
	} catch (error) {
		return error as Error & { description?: string | null };
	}
	throw new Error('the poll did not fail');
}
