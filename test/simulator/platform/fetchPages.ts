/**
 * What the page fetch returns besides the fake web's UTF-8 HTML (content.ts): pages in other charsets, declared in
 * the Content-Type or only in the page's own `<meta>`; files that are no text (a PDF, a PNG); screenshots as real
 * image files. Each is chosen by a marker in the page's URL, so a test asks for it by the URL it fetches.
 */
import { encodeJpeg } from '../gateway/jpeg/encode';
import { hashString } from '../core/random';
import { encodePng } from '../core/png';
import { pageTitle } from './content';

/** A page's text in a charset, as its bytes; `text` is what a reader that honours the charset sees. */
interface CharsetSample {
	text: string;
	bytes: Buffer;
}

/**
 * One phrase per charset, with characters that UTF-8 would garble: Latin-1's accents, windows-1252's euro sign, dash
 * and curly quotes (bytes 0x80-0x9f, control characters in Latin-1), Shift_JIS's two-byte Japanese.
 */
export const CHARSET_SAMPLES: Record<string, CharsetSample> = {
	'iso-8859-1': { text: 'Café Straße, naïve façade', bytes: Buffer.from('Café Straße, naïve façade', 'latin1') },
	'windows-1252': { text: 'Prix : 20 € – “Crème brûlée”', bytes: Buffer.from('50726978203a2032302080209620934372e86d65206272fb6ce96594', 'hex') },
	shift_jis: { text: '日本語のページ', bytes: Buffer.from('93fa967b8cea82cc8379815b8357', 'hex') },
};

/** `sim-charset-<name>`: declared in the Content-Type; `sim-meta-charset-<name>`: only in the page's `<meta>`. */
const CHARSET_MARKER = /sim-(meta-)?charset-(iso-8859-1|windows-1252|shift_jis)/;

/** A page in another charset: its bytes and the Content-Type that goes with them; undefined for other URLs. */
export function charsetPage(url: string, status: number): { bytes: Buffer; contentType: string } | undefined {
	const match = CHARSET_MARKER.exec(url);
	if (!match) return undefined;
	const [, inMeta, charset] = match;
	const sample = CHARSET_SAMPLES[charset];
	const meta = inMeta ? `<meta http-equiv="Content-Type" content="text/html; charset=${charset}">` : '';
	const ascii = (text: string) => Buffer.from(text, 'latin1');
	const bytes = Buffer.concat([
		ascii(`<!DOCTYPE html><html><head>${meta}<title>${status}</title></head><body><p>`),
		sample.bytes,
		ascii('</p></body></html>'),
	]);
	return { bytes, contentType: inMeta ? 'text/html' : `text/html; charset=${charset}` };
}

/** The same page as the service's JSON answer carries it: text, the charset already read. */
export function charsetPageText(url: string, status: number): string | undefined {
	const page = charsetPage(url, status);
	if (!page) return undefined;
	const sample = CHARSET_SAMPLES[CHARSET_MARKER.exec(url)?.[2] ?? ''];
	return page.bytes.toString('latin1').replace(sample.bytes.toString('latin1'), sample.text);
}

/** The phrase of a charset page as a reader that honours its charset sees it (its Markdown); undefined for other URLs. */
export function charsetPhrase(url: string): string | undefined {
	const charset = CHARSET_MARKER.exec(url)?.[2];
	return charset === undefined ? undefined : CHARSET_SAMPLES[charset].text;
}

/** A one-page PDF with the page's title: a real file any PDF reader opens. */
function pdfOf(url: string): Buffer {
	const text = pageTitle(url).replace(/[()\\]/g, '');
	const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n';
	const offsets = objects.map((object, i) => {
		const offset = body.length;
		body += `${i + 1} 0 obj\n${object}\nendobj\n`;
		return offset;
	});
	const xref = body.length;
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}

/** A picture drawn from the URL: a header bar in the site's colour over text-like stripes. */
function pixelsOf(url: string): (x: number, y: number) => [number, number, number] {
	const h = hashString(url);
	const accent: [number, number, number] = [40 + (h & 0x7f), 40 + ((h >> 8) & 0x7f), 40 + ((h >> 16) & 0x7f)];
	return (x, y) => (y < 24 ? accent : y % 12 < 4 && x > 8 && x < 100 + (y * 7) % 100 ? [120, 120, 124] : [255, 255, 255]);
}

/** A URL whose path ends in `.pdf` or `.png` is that file, as its server sends it; undefined for other URLs. */
export function fileAt(url: string): { bytes: Buffer; contentType: string } | undefined {
	const path = new URL(url).pathname.toLowerCase();
	if (path.endsWith('.pdf')) return { bytes: pdfOf(url), contentType: 'application/pdf' };
	if (path.endsWith('.png')) return { bytes: encodePng(64, 48, pixelsOf(url)), contentType: 'image/png' };
	return undefined;
}

/** Height of a full-page screenshot unless told: a small page. */
export const FULL_PAGE_HEIGHT = 240;

/**
 * What `screenshot` asks for: `top`, what a visitor first sees, as a JPEG; `full`, the whole page, as a PNG of
 * `fullHeight` rows (120 pixels wide, stored uncompressed: 361 bytes a row).
 */
export function screenshotOf(url: string, kind: 'full' | 'top', fullHeight = FULL_PAGE_HEIGHT): Buffer {
	const key = `${kind}|${kind === 'full' ? fullHeight : ''}|${url}`;
	const cached = SCREENSHOTS.get(key);
	if (cached) return cached;
	const image = drawScreenshot(url, kind, fullHeight);
	SCREENSHOTS.set(key, image);
	cachedBytes += image.length;
	// Oldest first, as a Map iterates, until the cache fits its budget again.
	for (const [old, bytes] of SCREENSHOTS) {
		if (cachedBytes <= SCREENSHOT_CACHE_BYTES) break;
		SCREENSHOTS.delete(old);
		cachedBytes -= bytes.length;
	}
	return image;
}

/**
 * Screenshots already drawn, up to a budget: the JPEG encoder takes tens of milliseconds an image, which a benchmark
 * fetching the same pages again would otherwise measure instead of the node. The bytes are the same either way.
 */
const SCREENSHOTS = new Map<string, Buffer>();
const SCREENSHOT_CACHE_BYTES = 16_000_000;
let cachedBytes = 0;

function drawScreenshot(url: string, kind: 'full' | 'top', fullHeight: number): Buffer {
	const pixel = pixelsOf(url);
	if (kind === 'full') return encodePng(120, fullHeight, pixel);
	const width = 160;
	const height = 100;
	const data = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 3);
	return encodeJpeg({ width, height, pixels: data });
}
