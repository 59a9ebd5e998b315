/**
 * The gateway's upstream (the browser-rendering scraper and the search engine), simulated deterministically:
 * the same URL and options always give the same page, Markdown, screenshot pixels and numbers, so tests can
 * compare outputs across runs. Markers in the URL (or query) select failure modes; see README.md.
 */
import { hashString, SeededRandom } from '../core/random';
import { encodeJpeg, padJpegToBytes } from './jpeg';
import type { FetchRequest, SearchRequest } from './validation';

/** Upstream defaults applied when the caller omits a field (the interface leaves them to "the upstream"). */
export const UPSTREAM_DEFAULTS = {
	html: true,
	markdown: true,
	screenshot: true,
	proxyCountry: 'us',
	maxRetries: 2,
	timeout: 30,
	waitUntil: 'load',
	/** Real-time delay of a `sim-slow` URL without an explicit `sim-slow-<ms>`. */
	slowDelayMs: 5_000,
} as const;

export const SCREENSHOT_WIDTH = 320;
export const SCREENSHOT_HEIGHT = 200;

export interface FetchData {
	html: string;
	markdown: string;
	screenshot: string | null;
	runtime: number;
	token_usage: number;
	retry_count: number;
	error: string | null;
}

export interface FetchOutcome {
	ok: boolean;
	data: FetchData;
	/** What the gateway forwarded upstream: the supplied optional settings only, plus geoCode. */
	forwarded: Record<string, unknown>;
	/** Real-time delay the simulator applies before answering (after settlement). */
	delayMs: number;
}

export interface PageLink {
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

function titleCase(text: string): string {
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

const screenshotCache = new Map<string, Buffer>();
const SCREENSHOT_CACHE_SIZE = 32;

/**
 * A browser-like screenshot of the page: toolbar, accent header, text lines as grey bars, links in blue.
 * Deterministic, so the natural-size JPEG of recent pages is cached (encoding is the costly part).
 */
export function renderScreenshot(page: PageDocument, targetBytes?: number): Buffer {
	const key = `${page.url}|${page.servedFrom}`;
	let jpeg = screenshotCache.get(key);
	if (!jpeg) {
		jpeg = drawScreenshot(page);
		if (screenshotCache.size >= SCREENSHOT_CACHE_SIZE) screenshotCache.delete(screenshotCache.keys().next().value as string);
		screenshotCache.set(key, jpeg);
	}
	return targetBytes !== undefined ? padJpegToBytes(jpeg, targetBytes) : jpeg;
}

function drawScreenshot(page: PageDocument): Buffer {
	const width = SCREENSHOT_WIDTH;
	const height = SCREENSHOT_HEIGHT;
	const pixels = new Uint8Array(width * height * 3).fill(255);
	const fill = (x0: number, y0: number, w: number, h: number, [r, g, b]: [number, number, number]) => {
		for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++) {
			for (let x = Math.max(0, x0); x < Math.min(width, x0 + w); x++) {
				const o = (y * width + x) * 3;
				pixels[o] = r;
				pixels[o + 1] = g;
				pixels[o + 2] = b;
			}
		}
	};
	fill(0, 0, width, 16, [222, 222, 226]); // browser toolbar
	fill(40, 4, 200, 8, [250, 250, 250]); // address bar
	fill(0, 16, width, 28, page.accent); // site header
	const random = new SeededRandom(`shot:${page.url}`);
	let y = 52;
	fill(12, y, Math.min(width - 24, 10 + page.heading.length * 7), 10, [30, 30, 30]); // h1
	y += 18;
	for (const paragraph of page.paragraphs) {
		const lines = Math.max(1, Math.round(paragraph.length / 60));
		for (let i = 0; i < lines && y < height - 30; i++) {
			let x = 12;
			const lineEnd = i === lines - 1 ? random.int(120, width - 12) : width - 12;
			while (x < lineEnd) {
				const word = random.int(10, 34);
				fill(x, y, Math.min(word, lineEnd - x), 4, [120, 120, 124]);
				x += word + 4;
			}
			y += 8;
		}
		y += 6;
	}
	for (const link of page.links) {
		if (y > height - 24) break;
		fill(20, y, Math.min(width - 40, link.text.length * 5), 4, [26, 13, 171]);
		y += 9;
	}
	fill(0, height - 14, width, 14, [240, 240, 242]); // footer
	return encodeJpeg({ width, height, pixels }, 80);
}

export interface SimulateFetchOptions {
	/** Grow every screenshot to this many bytes (valid JPEG, COM padding), for memory benchmarks. */
	screenshotBytes?: number;
	/** Real-time delay added to every answer (after settlement). */
	upstreamDelayMs?: number;
}

/** Delay requested by a `sim-slow` or `sim-slow-<ms>` marker, or 0. */
function slowMarkerDelay(url: string): number {
	const match = /sim-slow(?:-(\d+))?/i.exec(url);
	if (!match) return 0;
	return match[1] !== undefined ? Number(match[1]) : UPSTREAM_DEFAULTS.slowDelayMs;
}

/** Runs the simulated upstream fetch for an accepted (validated and paid) request. */
export function simulateFetch(request: FetchRequest, options: SimulateFetchOptions = {}): FetchOutcome {
	const proxyCountry = request.proxyCountry ?? UPSTREAM_DEFAULTS.proxyCountry;
	const forwarded: Record<string, unknown> = { url: request.url, geoCode: proxyCountry };
	for (const key of [
		'html', 'markdown', 'screenshot', 'maxRetries', 'timeout', 'blockResources', 'warmStart', 'returnCookie', 'super',
		'tokenCap', 'waitForSelector', 'waitUntil',
	] as const) {
		if (request[key] !== undefined) forwarded[key] = request[key];
	}
	const wantHtml = request.html ?? UPSTREAM_DEFAULTS.html;
	const wantMarkdown = request.markdown ?? UPSTREAM_DEFAULTS.markdown;
	const wantScreenshot = request.screenshot ?? UPSTREAM_DEFAULTS.screenshot;
	const maxRetries = request.maxRetries ?? UPSTREAM_DEFAULTS.maxRetries;
	const timeout = request.timeout ?? UPSTREAM_DEFAULTS.timeout;
	const lowerUrl = request.url.toLowerCase();
	const random = new SeededRandom(`fetch:${request.url}|${proxyCountry.toLowerCase()}`);

	// Cost per attempt in plan tokens; tokenCap limits how many attempts (retries) the upstream may spend.
	const tokensPerAttempt = 1 + (wantScreenshot ? 1 : 0) + (request.super ? 5 : 0);
	const attemptBudget = request.tokenCap !== undefined ? Math.max(1, Math.floor(request.tokenCap / tokensPerAttempt)) : Infinity;
	const allowedAttempts = Math.min(1 + maxRetries, attemptBudget);

	let attempts = 1;
	let error: string | null = null;
	let runtime = 1.2 + random.next() * 2.5;
	if (wantScreenshot) runtime += 0.6;
	if (request.warmStart) runtime += 0.9;
	if (request.super) runtime += 1.5;
	if (request.blockResources) runtime *= 0.8;

	if (lowerUrl.includes('sim-timeout')) {
		attempts = allowedAttempts;
		runtime = timeout * attempts + random.next();
		error = `Navigation timeout of ${timeout * 1000} ms exceeded (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
	} else if (lowerUrl.includes('sim-fail')) {
		attempts = allowedAttempts;
		runtime += attempts - 1;
		error = `Upstream request failed: target answered HTTP 502 Bad Gateway (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
	} else if (lowerUrl.includes('sim-flaky')) {
		// The first two attempts fail; the third succeeds when retries and tokenCap allow it.
		attempts = Math.min(3, allowedAttempts);
		runtime += attempts - 1;
		if (attempts < 3) error = `Upstream request failed: connection reset by target (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
	}

	const delayMs = (options.upstreamDelayMs ?? 0) + slowMarkerDelay(request.url);
	const base = { runtime: Math.round(runtime * 1000) / 1000, token_usage: attempts * tokensPerAttempt, retry_count: attempts - 1 };
	if (error !== null) {
		return { ok: false, data: { html: '', markdown: '', screenshot: null, ...base, error }, forwarded, delayMs };
	}
	const page = buildPage(request.url, proxyCountry);
	return {
		ok: true,
		data: {
			html: wantHtml ? renderHtml(page) : '',
			markdown: wantMarkdown ? renderMarkdown(page) : '',
			screenshot: wantScreenshot ? renderScreenshot(page, options.screenshotBytes).toString('base64') : null,
			...base,
			error: null,
		},
		forwarded,
		delayMs,
	};
}

export interface SearchResult {
	rank: number;
	title: string;
	url: string;
	siteName: string;
	displayUrl: string;
	snippet: string;
}

export interface SearchData {
	query: string;
	country: string;
	language: string;
	page: number;
	totalResults: number;
	results: SearchResult[];
	runtime: number;
	error: string | null;
}

export interface SearchOutcome {
	ok: boolean;
	data: SearchData;
	delayMs: number;
}

export const RESULTS_PER_PAGE = 10;

/** Snippet and title templates per language (primary subtag); English otherwise. */
const SEARCH_TEXT: Record<string, { titles: string[]; snippets: string[] }> = {
	en: {
		titles: ['{q}: the complete guide', 'Best {q} in {country}', '{q} explained', '{q} news and reviews', 'How to choose {q}'],
		snippets: [
			'Everything about {q}: guides, comparisons and the latest news for readers in {country}.',
			'Compare {q} offers, prices and reviews. Updated this week for {country}.',
			'A practical introduction to {q}, with examples, tips and frequently asked questions.',
		],
	},
	de: {
		titles: ['{q}: der komplette Ratgeber', 'Die besten {q} in {country}', '{q} einfach erklärt', '{q}: Neuigkeiten und Tests', 'So wählen Sie {q}'],
		snippets: [
			'Alles über {q}: Ratgeber, Vergleiche und aktuelle Nachrichten für Leser in {country}.',
			'{q} im Vergleich: Angebote, Preise und Bewertungen. Diese Woche aktualisiert für {country}.',
			'Eine praktische Einführung in {q}, mit Beispielen, Tipps und häufigen Fragen.',
		],
	},
	fr: {
		titles: ['{q} : le guide complet', 'Les meilleurs {q} en {country}', '{q} expliqué simplement', '{q} : actualités et avis', 'Comment choisir {q}'],
		snippets: [
			'Tout sur {q} : guides, comparatifs et dernières actualités pour les lecteurs en {country}.',
			'Comparez les offres, prix et avis sur {q}. Mis à jour cette semaine pour {country}.',
			'Une introduction pratique à {q}, avec des exemples, des conseils et une FAQ.',
		],
	},
	es: {
		titles: ['{q}: la guía completa', 'Los mejores {q} en {country}', '{q} explicado', '{q}: noticias y opiniones', 'Cómo elegir {q}'],
		snippets: [
			'Todo sobre {q}: guías, comparativas y las últimas noticias para lectores en {country}.',
			'Compara ofertas, precios y opiniones de {q}. Actualizado esta semana para {country}.',
			'Una introducción práctica a {q}, con ejemplos, consejos y preguntas frecuentes.',
		],
	},
};

const COUNTRY_TLDS: Record<string, string> = { us: 'com', gb: 'co.uk', uk: 'co.uk', au: 'com.au', jp: 'co.jp', br: 'com.br', nz: 'co.nz' };
const SITE_WORDS = ['north', 'river', 'bright', 'harbor', 'maple', 'summit', 'cedar', 'atlas', 'pioneer', 'meadow', 'orbit', 'granite'];
const SITE_KINDS = ['guide', 'review', 'journal', 'hub', 'times', 'daily', 'works', 'report'];

function fill(template: string, query: string, country: string): string {
	return template.replace(/\{q\}/g, query).replace(/\{country\}/g, country.toUpperCase());
}

function slug(text: string): string {
	return (
		text
			.toLowerCase()
			.normalize('NFKD')
			.replace(/[^a-z0-9]+/g, '-')
			.replace(/^-+|-+$/g, '') || 'search'
	);
}

/** Runs the simulated search for an accepted request: 10 results per page, deterministic per query/country/language/page. */
export function simulateSearch(request: SearchRequest, options: SimulateFetchOptions = {}): SearchOutcome {
	const { query, country, language, page } = request;
	const lang = language.slice(0, 2).toLowerCase();
	const text = SEARCH_TEXT[lang] ?? SEARCH_TEXT.en;
	const tld = COUNTRY_TLDS[country] ?? country;
	const totalResults = 30 + (hashString(`total:${query.toLowerCase()}`) % 41);
	const runtime = Math.round((0.4 + new SeededRandom(`search-runtime:${query}|${page}`).next()) * 1000) / 1000;
	const delayMs = (options.upstreamDelayMs ?? 0) + slowMarkerDelay(query);
	const base = { query, country, language, page, runtime };
	if (query.toLowerCase().includes('sim-fail')) {
		return {
			ok: false,
			data: { ...base, totalResults: 0, results: [], error: 'Upstream search failed: engine answered HTTP 503 (simulated)' },
			delayMs,
		};
	}
	const results: SearchResult[] = [];
	const first = (page - 1) * RESULTS_PER_PAGE;
	for (let i = first; i < Math.min(first + RESULTS_PER_PAGE, totalResults); i++) {
		// Seeded per result, so page 2 is the continuation of page 1 and independent of the page size asked for.
		const random = new SeededRandom(`result:${query.toLowerCase()}|${country}|${lang}|${i}`);
		const site = `${random.pick(SITE_WORDS)}${random.pick(SITE_KINDS)}`;
		const siteName = titleCase(site.replace(/(guide|review|journal|hub|times|daily|works|report)$/, ' $1'));
		const domain = `www.${site}.${tld}`;
		const path = `${slug(query)}-${i + 1}`;
		results.push({
			rank: i + 1,
			title: fill(random.pick(text.titles), query, country),
			url: `https://${domain}/${lang}/${path}`,
			siteName,
			displayUrl: `${domain} › ${lang} › ${path}`,
			snippet: fill(random.pick(text.snippets), query, country),
		});
	}
	return { ok: true, data: { ...base, totalResults, results, error: null }, delayMs };
}
