import { hashOf } from '../../../nodes/ScraperPlatform/pageWatch/state';
import type { TriggerDatabase } from '../../harness/trigger';
import { productHtml, useWatchHosts, WatchTrigger } from './helpers';

/** What Page Changed keeps between polls: across restarts, per URL, and bounded however long the page. */

const ctx = useWatchHosts();
const URL = 'https://shop.example.com/products/classic-chair';
const OTHER = 'https://shop.example.com/products/modern-lamp';

describe('Page Changed: state', () => {
	it('a restart keeps the recorded text: a change made while n8n was down fires once, and never again after the next restart', async () => {
		const database: TriggerDatabase = { saves: 0 };
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		await new WatchTrigger(ctx, { url: URL }, database).poll();
		ctx.fetchHost.setPage(URL, { html: productHtml('39.99') });
		const restarted = new WatchTrigger(ctx, { url: URL }, database);
		const items = await restarted.poll();
		expect(items.map((item) => item.json.diff)).toEqual(['-$49.99\n+$39.99']);
		expect(await new WatchTrigger(ctx, { url: URL }, database).poll()).toEqual([]);
	});

	it('another URL starts over: its first poll records it and fires nothing', async () => {
		const database: TriggerDatabase = { saves: 0 };
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		ctx.fetchHost.setPage(OTHER, { html: productHtml('12.00') });
		await new WatchTrigger(ctx, { url: URL }, database).poll();
		// The user edits the URL and saves: n8n activates the workflow again over the same static data.
		const edited = new WatchTrigger(ctx, { url: OTHER }, database);
		expect(await edited.poll()).toEqual([]);
		expect(edited.watchState()).toMatchObject({ url: OTHER, text: 'Classic Chair\n$12.00\nIn stock' });
		ctx.fetchHost.setPage(OTHER, { html: productHtml('11.00') });
		expect((await edited.poll()).map((item) => item.json.previousText)).toEqual(['Classic Chair\n$12.00\nIn stock']);
	});

	it('a huge page keeps at most 100,000 characters; a change past them is still found by the hash of the whole text', async () => {
		const lines = (...changed: number[]) => Array.from({ length: 30_000 }, (_, i) => `<p>Line ${i}${changed.includes(i) ? ' changed' : ''}</p>`).join('');
		ctx.fetchHost.setPage(URL, { html: `<html><body>${lines()}</body></html>` });
		const trigger = new WatchTrigger(ctx, { url: URL });
		await trigger.poll();
		const state = trigger.watchState()!;
		expect(String(state.text).length).toBe(100_000);
		expect(state.truncated).toBe(true);
		// Besides the kept text, a few short fields.
		expect(JSON.stringify(trigger.staticData()).length - JSON.stringify(state.text).length).toBeLessThan(300);

		ctx.fetchHost.setPage(URL, { html: `<html><body>${lines(5)}</body></html>` });
		const [early] = await trigger.poll();
		expect(early.json).toMatchObject({ changed: true, truncated: true, diff: '-Line 5\n+Line 5 changed' });
		expect(String(early.json.text).length).toBeGreaterThan(200_000);

		ctx.fetchHost.setPage(URL, { html: `<html><body>${lines(5, 29_000)}</body></html>` });
		const late = await trigger.poll();
		expect(late).toHaveLength(1);
		// Past the kept part: the change is reported, the diff (of the kept part) is empty.
		expect(late[0].json).toMatchObject({ changed: true, truncated: true, diff: '', addedLines: [], removedLines: [] });
		expect(await trigger.poll()).toEqual([]);
	});

	it('sits beside the Bulk Job Completed state of the same node without touching it', async () => {
		ctx.fetchHost.setPage(URL, { html: productHtml('49.99') });
		// n8n keeps a node's static data under `node:<its name>`.
		const bulkState = { version: 1, cursor: 5, seen: { a: 1 } };
		const database: TriggerDatabase = { saves: 1, staticData: JSON.stringify({ 'node:Scraper Platform Trigger': bulkState }) };
		const trigger = new WatchTrigger(ctx, { url: URL }, database);
		await trigger.poll();
		expect(trigger.staticData()).toMatchObject({ version: 1, cursor: 5, seen: { a: 1 }, pageChanged: { url: URL } });
	});
});

describe('hashOf', () => {
	it("is FNV-1a 64 (the published test vectors, over ASCII)", () => {
		expect([hashOf(''), hashOf('a'), hashOf('foobar')]).toEqual(['cbf29ce484222325', 'af63dc4c8601ec8c', '85944171f73967e8']);
	});

	it('tells apart texts that differ in one character anywhere', () => {
		const text = 'x'.repeat(200_000);
		const changed = new Set([text, `${text.slice(0, 150_000)}y${text.slice(150_001)}`, `\u20ac${text.slice(1)}`].map(hashOf));
		expect(changed.size).toBe(3);
	});
});

