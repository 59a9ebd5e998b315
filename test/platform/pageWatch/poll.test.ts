import { CHANGE_PERIOD_MS, changingOffer } from '../../simulator/platform/changingPages';
import { fetchesOf, productHtml, useWatchHosts, WatchTrigger } from './helpers';

/**
 * The Scraper Platform Trigger's Page Changed event, through n8n-core's PollContext against the simulated fetch host:
 * the first poll records, an unchanged page starts nothing, a change starts one execution with its diff and usage.
 */

const ctx = useWatchHosts();
const URL = 'https://shop.example.com/products/classic-chair';

describe('Page Changed: polls', () => {
	it('the first poll records the page with one fetch and starts nothing', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		const trigger = new WatchTrigger(ctx, { url: URL });
		expect(await trigger.poll()).toEqual([]);
		expect(fetchesOf(ctx)).toBe(1);
		const state = trigger.watchState()!;
		expect(state).toMatchObject({ version: 1, url: URL, text: 'Classic Chair\n$49.99\nIn stock', truncated: false });
		expect(state.hash).toMatch(/^[0-9a-f]{16}$/);
		expect(Date.parse(String(state.checkedAt))).not.toBeNaN();
		// Saved as n8n saves an activation's static data.
		expect(trigger.database.saves).toBe(1);
	});

	it('an unchanged page starts nothing, however its scripts and spacing change; one fetch a poll', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		const trigger = new WatchTrigger(ctx, { url: URL });
		await trigger.poll();
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99').replace('<p>In stock', '<p>\n   In   stock ') });
		expect(await trigger.poll()).toEqual([]);
		expect(await trigger.poll()).toEqual([]);
		expect(fetchesOf(ctx)).toBe(3);
	});

	it('a change starts exactly one execution with the old and new text, the diff and the usage; then nothing again', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		const trigger = new WatchTrigger(ctx, { url: URL });
		await trigger.poll();
		const first = String(trigger.watchState()!.checkedAt);
		ctx.fetchHost.setPage(URL, { html: productHtml('44.99', 'Only 2 left') });
		const items = await trigger.poll();
		expect(items).toHaveLength(1);
		const { json } = items[0];
		expect(json).toMatchObject({
			url: URL,
			changed: true,
			text: 'Classic Chair\n$44.99\nOnly 2 left',
			previousText: 'Classic Chair\n$49.99\nIn stock',
			diff: '-$49.99\n-In stock\n+$44.99\n+Only 2 left',
			addedLines: ['$44.99', 'Only 2 left'],
			removedLines: ['$49.99', 'In stock'],
			previousCheckedAt: first,
			textSource: 'html',
			truncated: false,
			statusCode: 200,
		});
		expect(Date.parse(String(json.checkedAt))).toBeGreaterThanOrEqual(Date.parse(first));
		expect(json.tokenUsage).toEqual(expect.any(Number));
		expect(json.tokenUsage).toBeGreaterThan(0);
		expect(json.bandwidthUsage).toEqual(expect.any(Number));
		expect(json.runtime).toEqual(expect.any(Number));
		expect(json.resultId).toMatch(/^[0-9a-f-]{36}$/);
		expect(Object.keys(json)).toEqual([
			'url', 'changed', 'text', 'previousText', 'diff', 'addedLines', 'removedLines', 'checkedAt', 'previousCheckedAt',
			'textSource', 'truncated', 'statusCode', 'tokenUsage', 'bandwidthUsage', 'runtime', 'resultId',
		]);
		expect(await trigger.poll()).toEqual([]);
		expect(fetchesOf(ctx)).toBe(3);
	});

	it('compares the Markdown when the service gives one, and asks for it (and the HTML) as Page > Fetch does', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99'), markdown: '# Classic Chair\n\n\n\nPrice: $49.99  \n' });
		const trigger = new WatchTrigger(ctx, { url: URL, options: { browserRendering: true, geoCode: 'de', waitForSelector: '.price' } });
		await trigger.poll();
		expect(trigger.watchState()!.text).toBe('# Classic Chair\n\nPrice: $49.99');
		const [request] = ctx.fetchHost.server.log.entries;
		expect(request.query).toEqual({ url: URL, geoCode: 'de', browserRendering: 'true', waitForSelector: '.price', html: 'true', markdown: 'true' });
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99'), markdown: '# Classic Chair\n\nPrice: $39.99\n' });
		const [item] = await trigger.poll();
		expect(item.json).toMatchObject({ textSource: 'markdown', diff: '-Price: $49.99\n+Price: $39.99' });
	});

	it("the simulator's changing page: nothing within a period, one change at the next", async () => {
		const changing = 'https://shop.example.com/sim-changing/desk-lamp';
		const trigger = new WatchTrigger(ctx, { url: changing });
		await trigger.poll();
		const before = changingOffer(changing, ctx.platform.clock.now());
		expect(await trigger.poll()).toEqual([]);
		ctx.platform.clock.advance(CHANGE_PERIOD_MS);
		const after = changingOffer(changing, ctx.platform.clock.now());
		const items = await trigger.poll();
		expect(items).toHaveLength(1);
		expect(items[0].json.removedLines).toContain(`Price: $${before.price}`);
		expect(items[0].json.addedLines).toContain(`Price: $${after.price}`);
	});
});

describe('Page Changed: Fetch Test Event', () => {
	it('with nothing recorded: one fetch, the text the first poll would record, and the state untouched', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		const trigger = new WatchTrigger(ctx, { url: URL });
		const [item] = await trigger.fetchTestEvent();
		expect(item.json).toMatchObject({ url: URL, changed: false, text: 'Classic Chair\n$49.99\nIn stock', previousText: null, diff: '', previousCheckedAt: null });
		expect(item.json.note).toMatch(/^Nothing is recorded for this URL yet: the first poll after activation records this text/);
		expect(trigger.watchState()).toBeUndefined();
		expect(fetchesOf(ctx)).toBe(1);
		// The first active poll still only records.
		expect(await trigger.poll()).toEqual([]);
	});

	it('after a change: the item that would fire, and the change is still there for the next poll', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		const trigger = new WatchTrigger(ctx, { url: URL });
		await trigger.poll();
		const before = trigger.watchState();
		ctx.fetchHost.setPage(URL, { html: productHtml('44.99') });
		const [item] = await trigger.fetchTestEvent();
		expect(item.json).toMatchObject({ changed: true, diff: '-$49.99\n+$44.99' });
		expect(item.json.note).toMatch(/a poll would start the workflow with this item/);
		expect(trigger.watchState()).toEqual(before);
		expect((await trigger.poll()).map((fired) => fired.json.diff)).toEqual(['-$49.99\n+$44.99']);
	});

	it('says when nothing would fire: the page unchanged, or a change Only When leaves out', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		const trigger = new WatchTrigger(ctx, { url: URL, onlyWhen: 'noLongerContains', text: 'In stock' });
		await trigger.poll();
		const [same] = await trigger.fetchTestEvent();
		expect(same.json).toMatchObject({ changed: false, diff: '' });
		expect(same.json.note).toMatch(/has not changed since it was checked at .+: a poll would start nothing/);
		ctx.fetchHost.setPage(URL, { html: productHtml('44.99') });
		const [left] = await trigger.fetchTestEvent();
		expect(left.json).toMatchObject({ changed: true });
		expect(left.json.note).toBe('The page changed, but not as Only When asks: a poll would record it and start nothing.');
	});
});

