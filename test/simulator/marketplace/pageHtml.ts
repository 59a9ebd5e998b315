/** The HTML of the page a run scraped (GET `/api/scraping-runs/html/{id}`), rendered from the records it extracted. */

function escapeHtml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function renderValue(value: unknown): string {
	if (typeof value === 'string' && /^https?:\/\//.test(value)) return `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>`;
	if (value !== null && typeof value === 'object') {
		return Object.entries(value as Record<string, unknown>)
			.map(([k, v]) => `<span class="${escapeHtml(k)}">${renderValue(v)}</span>`)
			.join(' ');
	}
	return escapeHtml(String(value));
}

/** The HTML of the page a run scraped, rendered from the records it extracted (one article per record). */
export function pageHtml(title: string, scrapedUrl: string, records: unknown[]): string {
	const articles = records
		.map((record) => {
			const fields = Object.entries(record as Record<string, unknown>)
				.map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${renderValue(value)}</dd>`)
				.join('');
			return `<article class="result"><dl>${fields}</dl></article>`;
		})
		.join('\n');
	const canonical = /^https?:\/\//.test(scrapedUrl) ? `<link rel="canonical" href="${escapeHtml(scrapedUrl)}">` : '';
	return [
		'<!DOCTYPE html>',
		'<html lang="en">',
		`<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${canonical}</head>`,
		`<body><main><h1>${escapeHtml(title)}</h1>`,
		articles,
		'</main></body>',
		'</html>',
	].join('\n');
}
