import { hashString } from '../core/random';

/**
 * A deterministic fake web: every URL has a page whose title, text, links and listing items are derived from
 * the URL with `hashString`, so the same URL always scrapes to the same data, and the map agent can crawl a
 * site of any size without a network. Nothing here is fetched: the simulator never leaves loopback. What each AI
 * agent extracts from it is `agents.ts`.
 */

const SECTIONS = [
	'products',
	'blog',
	'about',
	'pricing',
	'docs',
	'careers',
	'news',
	'contact',
	'team',
	'features',
	'support',
	'guides',
];
const ADJECTIVES = ['Classic', 'Modern', 'Compact', 'Deluxe', 'Eco', 'Smart', 'Urban', 'Rustic', 'Premium', 'Basic'];
const NOUNS = ['Chair', 'Lamp', 'Desk', 'Kettle', 'Backpack', 'Speaker', 'Jacket', 'Bottle', 'Monitor', 'Sofa'];
const AUTHORS = ['Ada Park', 'Luis Ortega', 'Mei Chen', 'Sam Okafor', 'Nora Lind', 'Ravi Iyer'];
const FAILURES = [
	'Navigation timeout of 30000 ms exceeded',
	'net::ERR_CONNECTION_REFUSED',
	'Target page answered HTTP 404',
	'net::ERR_NAME_NOT_RESOLVED',
];

/** Marker: any scrape of a URL containing this text fails (bulk URLs and reruns). */
export const FAIL_MARKER = 'sim-fail';

function h(text: string, salt = ''): number {
	return hashString(`${salt}|${text}`);
}

/** The URL without fragment, with a normalised path (no trailing slash except the root). */
export function normaliseUrl(url: string): string {
	const u = new URL(url);
	u.hash = '';
	if (u.pathname.length > 1 && u.pathname.endsWith('/')) u.pathname = u.pathname.replace(/\/+$/, '');
	return u.href;
}

function titleCase(word: string): string {
	return word.charAt(0).toUpperCase() + word.slice(1);
}

export function pageTitle(url: string): string {
	const u = new URL(url);
	const last = u.pathname.split('/').filter(Boolean).pop();
	const section = last ? last.split('-').map(titleCase).join(' ') : 'Home';
	return `${section} | ${u.hostname}`;
}

function pageDescription(url: string): string {
	const n = h(url, 'desc');
	return `${ADJECTIVES[n % ADJECTIVES.length]} ${NOUNS[(n >>> 4) % NOUNS.length].toLowerCase()}s and more from ${new URL(url).hostname}.`;
}

/** The links on a page: 2-5 child pages one level deeper, the site root, and one link off-site. */
export function pageLinks(url: string): string[] {
	const u = new URL(normaliseUrl(url));
	const base = u.pathname === '/' ? '' : u.pathname;
	const n = h(`${u.origin}${u.pathname}`, 'links');
	const count = 2 + (n % 4);
	const links: string[] = [];
	for (let i = 0; i < count; i++) {
		const section = SECTIONS[(n >>> (i * 3)) % SECTIONS.length];
		links.push(`${u.origin}${base}/${section}-${i + 1}`);
	}
	links.push(`${u.origin}/`);
	links.push(`https://partner-${n % 7}.example.net/`);
	return links;
}

export interface ListingItem {
	position: number;
	title: string;
	price: number;
	currency: string;
	url: string;
}

/** The items a listing page shows: 3-10 of them. */
export function listingItems(url: string): ListingItem[] {
	const n = h(url, 'listing');
	const count = 3 + (n % 8);
	const origin = new URL(url).origin;
	const items: ListingItem[] = [];
	for (let i = 0; i < count; i++) {
		const m = h(`${url}#${i}`, 'item');
		const title = `${ADJECTIVES[m % ADJECTIVES.length]} ${NOUNS[(m >>> 5) % NOUNS.length]}`;
		items.push({
			position: i + 1,
			title,
			price: 5 + (m % 495) + 0.99,
			currency: 'USD',
			url: `${origin}/item/${(m % 100_000).toString(36)}`,
		});
	}
	return items;
}

/** What the `general` agent extracts from a page. */
export function generalFields(url: string, prompt?: string): Record<string, unknown> {
	const n = h(url, 'general');
	const day = 1 + (n % 28);
	const month = 1 + ((n >>> 5) % 12);
	return {
		url,
		title: pageTitle(url),
		description: pageDescription(url),
		heading: pageTitle(url).split(' | ')[0],
		author: AUTHORS[n % AUTHORS.length],
		publishedAt: `2024-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
		wordCount: 200 + (n % 1800),
		linkCount: pageLinks(url).length,
		...(prompt ? { instruction: prompt } : {}),
	};
}

export function renderHtml(url: string): string {
	const links = pageLinks(url)
		.map((href) => `<li><a href="${href}">${href}</a></li>`)
		.join('');
	const items = listingItems(url)
		.map((item) => `<li class="item"><a href="${item.url}">${item.title}</a> <span class="price">${item.price}</span></li>`)
		.join('');
	const title = pageTitle(url);
	return (
		`<!DOCTYPE html><html><head><title>${title}</title>` +
		`<meta name="description" content="${pageDescription(url)}"></head>` +
		`<body><h1>${title.split(' | ')[0]}</h1><p>${pageDescription(url)}</p>` +
		`<ul class="items">${items}</ul><nav><ul>${links}</ul></nav></body></html>`
	);
}

export function renderMarkdown(url: string): string {
	const title = pageTitle(url);
	const items = listingItems(url)
		.map((item) => `- [${item.title}](${item.url}) ${item.price}`)
		.join('\n');
	const links = pageLinks(url)
		.map((href) => `- <${href}>`)
		.join('\n');
	return `# ${title.split(' | ')[0]}\n\n${pageDescription(url)}\n\n${items}\n\n${links}\n`;
}

/** A 1x1 JPEG, base64: every simulated screenshot (its size does not matter to any caller). */
export const SCREENSHOT_BASE64 =
	'/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';

/** The records a bulk URL yields (1-3 per URL), each with its source `url`. */
export function bulkUrlRecords(url: string): Array<Record<string, unknown>> {
	const n = h(url, 'bulk');
	const count = 1 + (n % 3);
	const out: Array<Record<string, unknown>> = [];
	for (let i = 0; i < count; i++) {
		const m = h(`${url}#${i}`, 'bulk-record');
		out.push({
			url,
			title: `${ADJECTIVES[m % ADJECTIVES.length]} ${NOUNS[(m >>> 5) % NOUNS.length]}`,
			sku: `SKU-${(m % 1_000_000).toString().padStart(6, '0')}`,
			price: 5 + (m % 495) + 0.99,
			inStock: m % 3 !== 0,
		});
	}
	return out;
}

/** The error text of a URL marked to fail, or undefined. */
export function failureFor(url: string): string | undefined {
	if (!url.includes(FAIL_MARKER)) return undefined;
	return FAILURES[h(url, 'fail') % FAILURES.length];
}

/** Tokens and seconds one scrape costs; deterministic per URL and kind. A cached rerun costs a tenth. */
export function scrapeCost(kind: 'create' | 'rerun' | 'bulk-url', url: string, cached = false): { tokenUsage: number; runtime: number } {
	const n = h(url, kind);
	const base =
		kind === 'create'
			? { tokenUsage: 1500 + (n % 2000), runtime: 8 + (n % 12000) / 1000 }
			: kind === 'rerun'
				? { tokenUsage: 300 + (n % 900), runtime: 2 + (n % 6000) / 1000 }
				: { tokenUsage: 50 + (n % 250), runtime: 1 + (n % 3000) / 1000 };
	base.runtime = Math.round(base.runtime * 1000) / 1000;
	if (!cached) return base;
	return { tokenUsage: Math.max(1, Math.round(base.tokenUsage / 10)), runtime: Math.round((base.runtime / 4) * 1000) / 1000 };
}
