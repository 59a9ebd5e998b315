/**
 * Reads a JSON answer as it streams in and decodes chosen base64 string fields straight into bytes.
 *
 * Why: the gateway sends a 20 MB screenshot as 27 MB of base64 inside its JSON answer. Reading the whole text,
 * parsing it and decoding the string holds the answer, its joined copy, the parsed string and the image at once:
 * five times the image (test/bench figure 5). Here the base64 is never held whole: each chunk's part of the field
 * is decoded into one buffer as it arrives, and the rest of the document is kept as text for JSON.parse.
 *
 * - A field is named by its path of object keys, e.g. ['data', 'screenshot']. Only a string at that path is decoded;
 *   the same key elsewhere, or a non-string value there, passes through untouched.
 * - The returned text is the document with each decoded field's string emptied (`"screenshot":""`); every other
 *   byte is as sent, so a body that is not JSON, or lacks the fields, comes back exactly as it arrived (one cut off
 *   inside a decoded field ends where the field began).
 * - Decoding gives what Buffer.from(value, 'base64') gives for the parsed string: JSON escapes are undone first,
 *   characters outside the base64 alphabets are skipped, and the first '=' ends the data.
 */

import { Base64Decoder } from './base64Decoder';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Keys longer than this cannot name a field: they are not collected (a malformed or hostile answer stays cheap). */
const MAX_KEY_BYTES = 1024;

interface Frame {
	object: boolean;
	/** The key whose value is being read, in an object. */
	key: string | undefined;
	expectKey: boolean;
}

/** Between strings, inside an ordinary string value, inside a key; a decoded field is `field`. */
type Mode = 'structure' | 'string' | 'key';

export class Base64FieldReader {
	private readonly fields: ReadonlyArray<readonly string[]>;

	private readonly capacity: number;

	private readonly frames: Frame[] = [];

	private mode: Mode = 'structure';

	/** The previous chunk ended inside an escape: its next byte is escaped. */
	private escaped = false;

	/** Hex digits of a \uXXXX escape inside a decoded field, collected across chunks. */
	private unicode: string | undefined;

	private keyParts: Buffer[] = [];

	private keyBytes = 0;

	private field: { path: string; decoder: Base64Decoder } | undefined;

	private readonly rest: Buffer[] = [];

	readonly decoded = new Map<string, Buffer>();

	/** `sizeHint`: the answer's Content-Length, when known; no field can decode to more than 3/4 of it. */
	constructor(fields: ReadonlyArray<readonly string[]>, sizeHint?: number) {
		this.fields = fields;
		this.capacity = sizeHint !== undefined && Number.isFinite(sizeHint) && sizeHint > 0 ? Math.ceil(sizeHint / 4) * 3 : 64 * 1024;
	}

	push(chunk: Buffer): void {
		// Where the bytes that belong to the returned text start in this chunk (-1: inside a decoded field).
		let keepFrom = this.field ? -1 : 0;
		let i = 0;
		const n = chunk.length;
		while (i < n) {
			if (this.field) {
				i = this.fieldBytes(chunk, i);
				if (!this.field) keepFrom = i - 1; // the text goes on from the closing quote
			} else if (this.mode === 'structure') {
				i = this.structure(chunk, i);
				if (this.field) {
					// The opening quote stays in the text; the field's characters do not.
					this.rest.push(chunk.subarray(keepFrom, i));
					keepFrom = -1;
				}
			} else {
				i = this.stringBytes(chunk, i);
			}
		}
		if (keepFrom >= 0 && keepFrom < n) this.rest.push(chunk.subarray(keepFrom));
	}

	/** The document without the decoded fields' contents, for JSON.parse. */
	text(): string {
		// As undici's body.text(): UTF-8, a leading byte order mark dropped.
		return new TextDecoder().decode(Buffer.concat(this.rest));
	}

	/** Structure between strings: nesting, keys and values. Returns where a string starts (after its quote) or `n`. */
	private structure(chunk: Buffer, from: number): number {
		for (let i = from; i < chunk.length; i++) {
			const byte = chunk[i];
			const top = this.frames[this.frames.length - 1];
			if (byte === QUOTE) {
				if (top?.object && top.expectKey) {
					this.mode = 'key';
					this.keyParts = [];
					this.keyBytes = 0;
				} else {
					const path = this.matchingPath();
					if (path !== undefined) this.field = { path, decoder: new Base64Decoder(this.capacity) };
					else this.mode = 'string';
				}
				return i + 1;
			}
			if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
				this.frames.push({ object: byte === OPEN_OBJECT, key: undefined, expectKey: byte === OPEN_OBJECT });
			} else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
				this.frames.pop();
			} else if (byte === COLON && top?.object) {
				top.expectKey = false;
			} else if (byte === COMMA && top?.object) {
				top.expectKey = true;
				top.key = undefined;
			}
		}
		return chunk.length;
	}

	/** The dotted path of a string value starting here, when it is one of the fields. */
	private matchingPath(): string | undefined {
		const depth = this.frames.length;
		for (const path of this.fields) {
			if (path.length !== depth) continue;
			if (path.every((key, level) => this.frames[level].object && this.frames[level].key === key)) return path.join('.');
		}
		return undefined;
	}

	/** Inside a key or an ordinary string: finds its closing quote, collecting a key's raw bytes. */
	private stringBytes(chunk: Buffer, from: number): number {
		let i = from;
		if (this.escaped) {
			this.escaped = false;
			i++;
		}
		for (; i < chunk.length; i++) {
			const byte = chunk[i];
			if (byte === QUOTE) break;
			if (byte === BACKSLASH) {
				i++;
				if (i === chunk.length) this.escaped = true;
			}
		}
		const end = Math.min(i, chunk.length);
		if (this.mode === 'key') {
			if (this.keyBytes + end - from <= MAX_KEY_BYTES) this.keyParts.push(chunk.subarray(from, end));
			this.keyBytes += end - from;
		}
		if (i >= chunk.length) return chunk.length;
		if (this.mode === 'key') this.closeKey();
		this.mode = 'structure';
		return i + 1;
	}

	private closeKey(): void {
		const top = this.frames[this.frames.length - 1];
		let key: string | undefined;
		if (this.keyBytes <= MAX_KEY_BYTES) {
			try {
				key = JSON.parse(`"${Buffer.concat(this.keyParts).toString('utf8')}"`) as string;
			} catch {
				key = undefined; // not valid JSON: it names no field
			}
		}
		if (top) top.key = key;
		this.keyParts = [];
	}

	/** Inside a decoded field: base64 runs go to the decoder, escapes are undone, the closing quote ends it. */
	private fieldBytes(chunk: Buffer, from: number): number {
		const decoder = (this.field as { decoder: Base64Decoder }).decoder;
		// Searched again only when passed: a field full of escapes (\/ for every slash) must not rescan the chunk.
		let quote = chunk.indexOf(QUOTE, from);
		let i = from;
		while (i < chunk.length) {
			if (this.unicode !== undefined) {
				while (i < chunk.length && this.unicode.length < 4) this.unicode += String.fromCharCode(chunk[i++]);
				if (this.unicode.length < 4) break;
				decoder.pushCharCode(Number.parseInt(this.unicode, 16));
				this.unicode = undefined;
				continue;
			}
			if (this.escaped) {
				this.escaped = false;
				const escape = chunk[i++];
				// \/ is the only escape that stands for a base64 character; \n, \", \\ ... are skipped like spaces.
				if (escape === 0x75 /* u */) this.unicode = '';
				else if (escape === 0x2f /* / */) decoder.pushCharCode(escape);
				continue;
			}
			if (quote >= 0 && quote < i) quote = chunk.indexOf(QUOTE, i); // that one was escaped
			const end = quote < 0 ? chunk.length : quote;
			const backslash = chunk.indexOf(BACKSLASH, i);
			const escapeAt = backslash >= 0 && backslash < end ? backslash : -1;
			// Bytes of multi-byte UTF-8 characters are all outside the alphabet: skipped, as their characters would be.
			decoder.pushBytes(chunk, i, escapeAt >= 0 ? escapeAt : end);
			if (escapeAt >= 0) {
				this.escaped = true;
				i = escapeAt + 1;
				continue;
			}
			if (quote < 0) break;
			this.decoded.set((this.field as { path: string }).path, decoder.end());
			this.field = undefined;
			return quote + 1;
		}
		return chunk.length;
	}
}

/** Reads `body` to the end with a Base64FieldReader: the text for JSON.parse and the decoded fields by dotted path. */
export async function readWithBase64Fields(
	body: AsyncIterable<Buffer | Uint8Array>,
	fields: ReadonlyArray<readonly string[]>,
	sizeHint?: number,
): Promise<{ text: string; decoded: Map<string, Buffer> }> {
	const reader = new Base64FieldReader(fields, sizeHint);
	for await (const chunk of body) reader.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
	return { text: reader.text(), decoded: reader.decoded };
}
