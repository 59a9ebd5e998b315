/**
 * The gateway's upstream search engine (webSearch), simulated deterministically per query, country, language and
 * page: 10 results a page, ranks continuing across pages, localized titles and snippets. `sim-fail` and `sim-slow`
 * in the query work as in `upstream.ts`.
 */
import { hashString, SeededRandom } from '../core/random';
import { titleCase } from './page';
import { slowMarkerDelay, type SimulateFetchOptions } from './upstream';
import type { SearchRequest } from './validation';

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

interface SearchOutcome {
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
