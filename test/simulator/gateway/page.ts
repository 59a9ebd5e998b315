/**
 * The page the simulated renderer "sees" at a URL, from a country: title, heading, paragraphs and links derived
 * deterministically from the URL, and its HTML and Markdown renderings (`data.html`, `data.markdown`).
 */
import { hashString, SeededRandom } from '../core/random';

interface PageLink {
	text: string;
	href: string;
}

export interface PageDocument {
	url: string;
	title: string;
	siteName: string;
	heading: string;
	paragraphs: string[];
	links: PageLink[];
	/** Upper-case country code the page was served from (proxyCountry). */
	servedFrom: string;
	accent: [number, number, number];
}

const WORDS = [
	'market', 'update', 'guide', 'research', 'design', 'network', 'product', 'service', 'community', 'report', 'price',
	'delivery', 'review', 'analysis', 'feature', 'release', 'customer', 'support', 'travel', 'recipe', 'garden', 'energy',
	'finance', 'health', 'science', 'history', 'local', 'global', 'simple', 'modern', 'careful', 'practical', 'reliable',
	'weekly', 'annual', 'detailed', 'independent', 'public', 'open', 'secure', 'fast', 'quiet', 'bright', 'steady', 'clear',
	'explains', 'compares', 'covers', 'describes', 'tracks', 'shows', 'lists', 'measures', 'builds', 'improves', 'reaches',
];

export function titleCase(text: string): string {
	return text.replace(/\b\w/g, (c) => c.toUpperCase());
}

function sentence(random: SeededRandom): string {
	const length = random.int(8, 16);
	const words = Array.from({ length }, () => random.pick(WORDS));
	const text = words.join(' ');
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function escapeMarkdown(text: string): string {
	return text.replace(/([\\`*_[\]])/g, '\\$1');
}

/** The page the simulated renderer "sees" at this URL, from this country. */
export function buildPage(url: string, proxyCountry: string): PageDocument {
	const parsed = new URL(url);
	const random = new SeededRandom(`page:${parsed.href}`);
	const host = parsed.hostname.replace(/^www\./, '');
	const siteName = titleCase(host.split('.')[0].replace(/[-_]+/g, ' '));
	const lastSegment = parsed.pathname.split('/').filter(Boolean).pop();
	const topic = lastSegment ? titleCase(decodeURIComponent(lastSegment).replace(/\.[a-z0-9]+$/i, '').replace(/[-_+]+/g, ' ')) : 'Home';
	const paragraphs = Array.from({ length: random.int(3, 5) }, () =>
		Array.from({ length: random.int(2, 4) }, () => sentence(random)).join(' '),
	);
	const links = Array.from({ length: random.int(3, 5) }, (_, i) => {
		const words = [random.pick(WORDS), random.pick(WORDS)];
		return { text: titleCase(words.join(' ')), href: `${parsed.protocol}//${parsed.host}/${words.join('-')}-${i + 1}` };
	});
	const h = hashString(host);
	return {
		url: parsed.href,
		title: `${topic} | ${siteName}`,
		siteName,
		heading: topic,
		paragraphs,
		links,
		servedFrom: proxyCountry.toUpperCase(),
		accent: [40 + (h & 0x7f), 40 + ((h >> 8) & 0x7f), 40 + ((h >> 16) & 0x7f)],
	};
}

export function renderHtml(page: PageDocument): string {
	return [
		'<!DOCTYPE html>',
		'<html lang="en">',
		'<head>',
		'<meta charset="utf-8">',
		`<title>${escapeHtml(page.title)}</title>`,
		`<link rel="canonical" href="${escapeHtml(page.url)}">`,
		'</head>',
		'<body>',
		`<header><a href="/">${escapeHtml(page.siteName)}</a></header>`,
		'<main>',
		`<h1>${escapeHtml(page.heading)}</h1>`,
		...page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
		'<ul>',
		...page.links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.text)}</a></li>`),
		'</ul>',
		'</main>',
		`<footer>Served from ${escapeHtml(page.servedFrom)}</footer>`,
		'</body>',
		'</html>',
	].join('\n');
}

export function renderMarkdown(page: PageDocument): string {
	return [
		`# ${escapeMarkdown(page.heading)}`,
		'',
		...page.paragraphs.flatMap((p) => [escapeMarkdown(p), '']),
		...page.links.map((l) => `- [${escapeMarkdown(l.text)}](${l.href})`),
		'',
		`Served from ${page.servedFrom}`,
		'',
	].join('\n');
}
