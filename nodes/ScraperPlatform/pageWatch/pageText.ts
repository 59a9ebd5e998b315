/**
 * The text Page Changed compares: the page's Markdown when the service gives one, else the readable text of its HTML.
 * Both are normalised the same way, so spacing the page's markup changes without a word changing is no change.
 */

/** Elements whose content is no text a visitor reads. */
const DROPPED = /<(script|style|noscript|template|svg|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;

/** Elements that start a line of their own in a browser: their tags become line breaks. */
const BLOCK =
	/<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|fieldset|figcaption|figure|footer|form|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>/gi;

/** The named entities pages use most; numeric ones are decoded whatever they name. */
const ENTITIES: Readonly<Record<string, string>> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
	ndash: '\u2013',
	mdash: '\u2014',
	hellip: '\u2026',
	lsquo: '\u2018',
	rsquo: '\u2019',
	ldquo: '\u201c',
	rdquo: '\u201d',
	laquo: '\u00ab',
	raquo: '\u00bb',
	euro: '\u20ac',
	pound: '\u00a3',
	yen: '\u00a5',
	cent: '\u00a2',
	copy: '\u00a9',
	reg: '\u00ae',
	trade: '\u2122',
	times: '\u00d7',
};

function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
		if (!name.startsWith('#')) return ENTITIES[name.toLowerCase()] ?? whole;
		const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
		return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
	});
}

/** Lines trimmed of trailing spaces, runs of blank lines as one (none for HTML, where tags leave many), ends trimmed. */
function normaliseLines(text: string, fromHtml: boolean): string {
	const lines = text.replace(/\r\n?/g, '\n').split('\n');
	const kept: string[] = [];
	for (const raw of lines) {
		// HTML's spaces and line breaks inside a block are one space in a browser; Markdown's indentation means something.
		const line = fromHtml ? raw.replace(/[\s\u00a0]+/g, ' ').trim() : raw.trimEnd();
		if (line === '' && (fromHtml || kept.length === 0 || kept[kept.length - 1] === '')) continue;
		kept.push(line);
	}
	return kept.join('\n').trim();
}

/** The readable text of a page's HTML: no scripts, styles or head, a line per block element, entities decoded. */
export function htmlText(html: string): string {
	const text = html
		.replace(/<!--[\s\S]*?-->/g, '')
		.replace(DROPPED, '')
		// Line breaks in HTML source are spaces to a browser; its block elements make the lines.
		.replace(/\s+/g, ' ')
		.replace(BLOCK, '\n')
		.replace(/<[^>]*>/g, '');
	return normaliseLines(decodeEntities(text), true);
}

export function markdownText(markdown: string): string {
	return normaliseLines(markdown, false);
}
