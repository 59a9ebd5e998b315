import type { FaultSpec } from '../../simulator/core/faults';
import { FETCH_ROUTES, TIMEOUT_MARKER } from '../../simulator/platform/fetch';
import { fetchesOf, pollError, productHtml, useWatchHosts, WatchTrigger } from './helpers';

/**
 * A check that gives no page text is never a change: the fetch failed, the page answered an error status, the service
 * reported its own error, or the page is a file. The poll fails with what happened, the state stays as it was, and
 * the next good check compares with the text recorded before.
 */

const ctx = useWatchHosts();
const URL = 'https://shop.example.com/products/classic-chair';
const KEPT = /^Nothing was compared and the last recorded text is kept/;

/** A trigger that has recorded the product page at 49.99. */
async function recorded(): Promise<WatchTrigger> {
	ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
	const trigger = new WatchTrigger(ctx, { url: URL });
	await trigger.poll();
	return trigger;
}

/** After a failed check: the same state, and the unchanged page starts nothing. */
async function expectNoFalseChange(trigger: WatchTrigger, before: unknown): Promise<void> {
	expect(trigger.watchState()).toEqual(before);
	ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
	expect(await trigger.poll()).toEqual([]);
}

describe('Page Changed: failed checks', () => {
	it.each<[string, FaultSpec, RegExp]>([
		['a 500 from the fetch host', { kind: 'status', status: 500 }, /500/],
		['a lost connection', { kind: 'reset' }, /connection|reach/i],
	])('%s: the poll fails, is not sent again, and no change is reported afterwards', async (_name, fault, message) => {
		const trigger = await recorded();
		const before = trigger.watchState();
		ctx.fetchHost.server.faults.add({ ...fault, routes: [FETCH_ROUTES.fetch], times: 1 });
		const error = await pollError(trigger);
		expect(error.message).toMatch(message);
		expect(error.description).toMatch(KEPT);
		// A fetch spends tokens: it is never sent twice in one poll.
		expect(fetchesOf(ctx)).toBe(2);
		await expectNoFalseChange(trigger, before);
	});

	it('the page answering 503 (its x-status-code) is a failed check, not a change to an error page', async () => {
		const trigger = await recorded();
		const before = trigger.watchState();
		ctx.fetchHost.setPage(URL, { html: '<html><body><h1>503 Service Unavailable</h1></body></html>', status: 503 });
		const error = await pollError(trigger);
		expect(error.message).toBe(`${URL} answered 503`);
		expect(error.description).toMatch(KEPT);
		expect(error.description).toMatch(/try Browser Rendering, Country or Super Mode in Options/);
		await expectNoFalseChange(trigger, before);
	});

	it('the service reporting its own error in the answer is a failed check', async () => {
		const trigger = await recorded();
		const before = trigger.watchState();
		const body = { html: '', markdown: '', screenshot: null, error: 'Blocked by the target site', token_usage: 5 };
		ctx.fetchHost.server.faults.add({ kind: 'status', status: 200, body, routes: [FETCH_ROUTES.fetch], times: 1 });
		const error = await pollError(trigger);
		expect(error.message).toBe(`The service could not fetch ${URL}: Blocked by the target site`);
		expect(error.description).toMatch(KEPT);
		await expectNoFalseChange(trigger, before);
	});

	it('a page that has no text left (a script-only shell) is a failed check, with how to fix it', async () => {
		const trigger = await recorded();
		const before = trigger.watchState();
		ctx.fetchHost.setPage(URL, { html: '<html><head></head><body><div id="app"></div><script>boot()</script></body></html>' });
		const error = await pollError(trigger);
		expect(error.message).toBe(`${URL} gave no text`);
		expect(error.description).toMatch(/Browser Rendering or Wait for Selector/);
		await expectNoFalseChange(trigger, before);
	});

	it.each([
		['a page that never loads (sim-timeout)', `https://shop.example.com/${TIMEOUT_MARKER}/chair`, /504|timeout/i],
		['a page answering 503 (sim-status-503)', 'https://shop.example.com/sim-status-503/chair', /answered 503$/],
		['a PDF', 'https://shop.example.com/catalog.pdf', /is a file \(application\/pdf\), not a page with text$/],
	])('%s on the first poll records nothing', async (_name, url, message) => {
		const trigger = new WatchTrigger(ctx, { url });
		const error = await pollError(trigger);
		expect(error.message).toMatch(message);
		expect(error.description).toMatch(KEPT);
		expect(trigger.watchState()).toBeUndefined();
		expect(fetchesOf(ctx)).toBe(1);
	});
});
