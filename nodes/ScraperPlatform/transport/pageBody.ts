/**
 * A fetched page's bytes as what they are: text in the charset the page declares, or a file. The Platform's page
 * fetch and Google result pages are read through here, so a Latin-1 page or a PDF never comes out garbled.
 */

/** Where a page's charset is declared within its first bytes, as browsers look for it (WHATWG's prescan reads 1024). */
const PRESCAN_BYTES = 1024;

/** The media types that are text whatever their name says; every `text/*` is text too. */
const TEXT_TYPES = /^(text\/|application\/(xhtml\+xml|xml|json|ld\+json|javascript|ecmascript|rss\+xml|atom\+xml)$|[^/]+\/[^;]*\+(xml|json)$)/;

/** The media type of a Content-Type header without its parameters, lower-cased; undefined when there is none. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
	const type = contentType?.split(';')[0].trim().toLowerCase();
	return type || undefined;
}

/** A charset as a Content-Type parameter (`charset=iso-8859-1`, quoted or not) or a meta tag's content names it. */
function charsetParameter(text: string | undefined): string | undefined {
	return /charset\s*=\s*["']?([\w.:-]+)/i.exec(text ?? '')?.[1];
}

/** The byte-order mark's encoding, which outranks every declaration (the WHATWG Encoding Standard's decode). */
function bomEncoding(bytes: Uint8Array): string | undefined {
	if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
	return undefined;
}

/** `<meta charset>`, `<meta http-equiv="Content-Type" content="…; charset=…">` or an XML declaration's encoding. */
function declaredInDocument(bytes: Uint8Array): string | undefined {
	// Declarations are ASCII in every charset a page may declare this way; Latin-1 reads any byte as one character.
	const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString('latin1');
	const meta = /<meta\b[^>]*?\bcharset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
	if (meta) return meta;
	for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
		if (/http-equiv\s*=\s*["']?content-type/i.test(tag)) {
			const charset = charsetParameter(/content\s*=\s*["']([^"']*)["']/i.exec(tag)?.[1]);
			if (charset) return charset;
		}
	}
	return /^<\?xml\b[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
}

/** A decoder for a charset's label, or undefined for a label no decoder knows. */
function decoderFor(label: string): InstanceType<typeof TextDecoder> | undefined {
	try {
		return new TextDecoder(label.trim().toLowerCase());
	} catch {
		return undefined;
	}
}

/**
 * Windows-1252's characters at 0x80-0x9f (0 where it has none), the one part where it differs from Latin-1. Node's
 * TextDecoder reads 'windows-1252' (and every Latin-1 label, which the Encoding Standard maps to it) as Latin-1 on
 * some versions, so a euro sign or a curly quote would come out as a control character.
 */
const WINDOWS_1252_HIGH = [
	0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

function decodeWindows1252(bytes: Uint8Array): string {
	let text = '';
	for (let start = 0; start < bytes.length; start += 8192) {
		const codes = Array.from(bytes.subarray(start, start + 8192), (byte) => (byte >= 0x80 && byte < 0xa0 ? WINDOWS_1252_HIGH[byte - 0x80] || byte : byte));
		text += String.fromCharCode(...codes);
	}
	return text;
}

/**
 * The page's text: decoded by its byte-order mark, else the charset its Content-Type declares, else the one its own
 * `<meta>` (or XML declaration) declares; UTF-8 when none is declared or a declared one is unknown.
 */
export function decodePage(bytes: Uint8Array, contentType?: string): { text: string; charset: string } {
	const candidates = [bomEncoding(bytes), charsetParameter(contentType), declaredInDocument(bytes)];
	for (const label of candidates) {
		const decoder = label === undefined ? undefined : decoderFor(label);
		if (decoder?.encoding === 'windows-1252') return { text: decodeWindows1252(bytes), charset: decoder.encoding };
		if (decoder) return { text: decoder.decode(bytes), charset: decoder.encoding };
	}
	return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8' };
}

/** The signatures of the file types a fetch most often returns that are not text. */
const SIGNATURES: ReadonlyArray<{ mimeType: string; extension: string; bytes: number[]; at?: number }> = [
	{ mimeType: 'application/pdf', extension: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
	{ mimeType: 'image/png', extension: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
	{ mimeType: 'image/jpeg', extension: 'jpg', bytes: [0xff, 0xd8, 0xff] },
	{ mimeType: 'image/gif', extension: 'gif', bytes: [0x47, 0x49, 0x46, 0x38] },
	{ mimeType: 'image/webp', extension: 'webp', bytes: [0x57, 0x45, 0x42, 0x50], at: 8 },
	{ mimeType: 'application/zip', extension: 'zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
];

/** The file type its first bytes show, whatever a header says; undefined for none of the known ones. */
export function sniffFileType(bytes: Uint8Array): { mimeType: string; extension: string } | undefined {
	const found = SIGNATURES.find((signature) => signature.bytes.every((byte, i) => bytes[(signature.at ?? 0) + i] === byte));
	return found && { mimeType: found.mimeType, extension: found.extension };
}

/** The usual file extension of a media type: `application/pdf` -> `pdf`, `image/svg+xml` -> `svg`. */
export function extensionOf(mediaType: string): string {
	const known = SIGNATURES.find((signature) => signature.mimeType === mediaType)?.extension;
	return known ?? (mediaType.split('/')[1]?.split('+')[0].replace(/[^a-z0-9]/g, '') || 'bin');
}

/**
 * Whether an answer is text to read (HTML, XML, JSON, plain text) rather than a file. A known file signature wins
 * (a fetch service may label every answer text/html); then the media type, when one is declared; else the bytes (a
 * NUL byte, which text never holds).
 */
export function isText(bytes: Uint8Array, contentType?: string): boolean {
	if (sniffFileType(bytes)) return false;
	const type = mediaTypeOf(contentType);
	if (type !== undefined && type !== 'application/octet-stream') return TEXT_TYPES.test(type);
	return !bytes.subarray(0, PRESCAN_BYTES).includes(0);
}
