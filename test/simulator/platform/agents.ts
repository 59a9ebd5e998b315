/**
 * What each AI agent extracts from the fake web (`content.ts`): the general agent's page fields, the listing agent's
 * items, the map agent's crawl; and the example code and output the first run (scrapers-ai) shows.
 */
import { generalFields, listingItems, normaliseUrl, pageLinks } from './content';
import type { AiAgent } from './types';

export interface MapOptions {
	maxDepth: number;
	maxPages: number;
	limit: number;
	includePatterns?: RegExp;
	excludePatterns?: RegExp;
}

/**
 * The map agent: breadth-first over same-site links from `url`, at most `maxDepth` link hops away, visiting
 * at most `maxPages` pages; lists each visited URL that matches `includePatterns` (when set) and not
 * `excludePatterns`, up to `limit` URLs. Patterns filter the list, not the walk.
 */
function crawlMap(url: string, options: MapOptions): string[] {
	const start = normaliseUrl(url);
	const origin = new URL(start).origin;
	const seen = new Set([start]);
	const queue: Array<{ url: string; depth: number }> = [{ url: start, depth: 0 }];
	const found: string[] = [];
	let visited = 0;
	while (queue.length > 0 && visited < options.maxPages && found.length < options.limit) {
		const page = queue.shift() as { url: string; depth: number };
		visited++;
		const included = options.includePatterns ? options.includePatterns.test(page.url) : true;
		const excluded = options.excludePatterns ? options.excludePatterns.test(page.url) : false;
		if (included && !excluded) found.push(page.url);
		if (page.depth >= options.maxDepth) continue;
		for (const link of pageLinks(page.url)) {
			const target = normaliseUrl(link);
			if (new URL(target).origin !== origin || seen.has(target)) continue;
			seen.add(target);
			queue.push({ url: target, depth: page.depth + 1 });
		}
	}
	return found;
}

/** What a rerun extracts, by agent. */
export function extract(agent: AiAgent, url: string, prompt: string, map: MapOptions): unknown {
	if (agent === 'listing') return listingItems(url);
	if (agent === 'map') return crawlMap(url, map);
	return generalFields(url, prompt);
}

/** Example code the first run returns, for the caller to inspect before rerunning for full results. */
export function exampleCode(agent: AiAgent, prompt: string): string {
	const body =
		agent === 'listing'
			? "return [...document.querySelectorAll('.item')].map((el, i) => ({ position: i + 1, title: el.querySelector('a')?.textContent, price: Number(el.querySelector('.price')?.textContent) }));"
			: agent === 'map'
				? "return [...document.querySelectorAll('a[href]')].map((a) => a.href).filter((href) => new URL(href).origin === location.origin);"
				: "return { title: document.title, heading: document.querySelector('h1')?.textContent, description: document.querySelector('meta[name=description]')?.getAttribute('content') };";
	return `// Generated for the ${agent} agent. Instruction: ${JSON.stringify(prompt)}\nasync function extract(document) {\n\t${body}\n}\n`;
}

/** The example output of the first run: a small sample of what the rerun returns in full. */
export function exampleOutput(agent: AiAgent, url: string, prompt: string): unknown {
	if (agent === 'listing') return listingItems(url).slice(0, 2);
	if (agent === 'map') return pageLinks(url).slice(0, 3);
	const fields = generalFields(url, prompt);
	return { title: fields.title, heading: fields.heading, description: fields.description };
}
