import { loadPackage } from '../../harness';
import { TRIGGER_TYPE } from '../../harness/trigger';
import { fetchesOf, pollError, productHtml, useWatchHosts, WatchTrigger } from './helpers';

/** Page Changed's parameters: Only When both ways, the options it offers, and bad input refused before any fetch. */

const ctx = useWatchHosts();
const URL = 'https://shop.example.com/products/classic-chair';

/** Polls once per page state given, returning the diffs of the polls that fired (the first only records). */
async function firedFor(parameters: Record<string, unknown>, pages: Array<[string, string]>): Promise<string[]> {
	const trigger = new WatchTrigger(ctx, { url: URL, ...parameters });
	const fired: string[] = [];
	for (const [price, stock] of pages) {
		ctx.fetchHost.setPage(URL, { html: productHtml(price, stock) });
		for (const item of await trigger.poll()) fired.push(String(item.json.diff));
	}
	return fired;
}

describe('Page Changed: Only When', () => {
	it('Contains Text fires only for a change whose page contains the text, ignoring case; the rest is recorded', async () => {
		const fired = await firedFor({ onlyWhen: 'contains', text: 'in STOCK' }, [
			['49.99', 'Out of stock'],
			['45.99', 'Out of stock'],
			['45.99', 'In stock'],
			['39.99', 'In stock'],
			['39.99', 'In stock'],
		]);
		// The price change while out of stock was recorded: the next item's diff starts from 45.99, never 49.99.
		expect(fired).toEqual(['-Out of stock\n+In stock', '-$45.99\n+$39.99']);
	});

	it('No Longer Contains Text fires only when the previous page had the text and the new one has not', async () => {
		const fired = await firedFor({ onlyWhen: 'noLongerContains', text: 'In stock' }, [
			['49.99', 'In stock'],
			['45.99', 'In stock'],
			['45.99', 'Out of stock'],
			['44.99', 'Out of stock'],
			['44.99', 'In stock'],
		]);
		expect(fired).toEqual(['-In stock\n+Out of stock']);
	});

	it('Any Change (the default) fires for every change', async () => {
		const fired = await firedFor({}, [
			['49.99', 'In stock'],
			['45.99', 'In stock'],
			['45.99', 'Out of stock'],
		]);
		expect(fired).toEqual(['-$49.99\n+$45.99', '-In stock\n+Out of stock']);
	});
});

describe('Page Changed: bad input, refused before any fetch', () => {
	it.each([
		['a local URL', { url: 'http://localhost/x' }, /^Invalid 'URL': /],
		['Contains Text with no text', { url: URL, onlyWhen: 'contains', text: '' }, /^Invalid 'Text': it is required/],
		['No Longer Contains Text with blanks', { url: URL, onlyWhen: 'noLongerContains', text: '   ' }, /^Invalid 'Text': it is required/],
		['a three-letter country', { url: URL, options: { geoCode: 'usa' } }, /^Invalid 'Country': /],
		['a timeout of 0', { url: URL, options: { timeout: 0 } }, /^Invalid 'Timeout \(Seconds\)': /],
	])('%s', async (_name, parameters, message) => {
		const trigger = new WatchTrigger(ctx, parameters);
		expect((await pollError(trigger)).message).toMatch(message);
		await expect(trigger.fetchTestEvent()).rejects.toThrow(message);
		expect(fetchesOf(ctx)).toBe(0);
		expect(trigger.watchState()).toBeUndefined();
	});
});

describe('Page Changed: how the editor shows it', () => {
	const description = () => loadPackage().nodes.get(TRIGGER_TYPE)!.description;
	const shownFor = (name: string) => description().properties.filter((p) => p.name === name && p.displayOptions?.show?.event?.includes('pageChanged'));

	it('offers the fetch options that matter for watching a page, sorted, without the content switches', () => {
		const [options] = shownFor('options');
		const names = (options.options ?? []).map((option) => ('displayName' in option ? option.displayName : ''));
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		expect(names).toEqual(expect.arrayContaining(['Browser Rendering', 'Country', 'Proxy Country', 'Super Mode', 'Timeout (Seconds)', 'Wait for Selector']));
		expect(names).not.toEqual(expect.arrayContaining(['Screenshot']));
		expect(names.filter((name) => ['HTML', 'Markdown', 'Screenshot', 'Return Cookies'].includes(name))).toEqual([]);
	});

	it("the URL's hint says what a poll costs, within n8n's length; the subtitle names the page", () => {
		const [url] = shownFor('url');
		expect(url.hint).toMatch(/each poll fetches this page once and uses plan tokens/i);
		expect(url.hint!.length).toBeLessThan(120);
		expect(description().subtitle).toContain('$parameter["url"]');
		const [text] = shownFor('text');
		expect(text.placeholder).toBe('e.g. In stock');
		expect(text.description).toMatch(/ignoring upper and lower case/);
	});
});
