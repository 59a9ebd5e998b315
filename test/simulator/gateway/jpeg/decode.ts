/**
 * A baseline JPEG decoder for tests: it proves a screenshot is a real, complete JPEG (segments in order, tables,
 * frame, a scan that decodes to the last pixel, EOI at the end) and gives its pixels. Throws saying what is wrong.
 */
import type { RgbImage } from './encode';
import { buildSymbolLookup, type SymbolLookup } from './huffman';
import { decodeScan, type Frame, type ScanTables } from './scan';
import { ZIGZAG } from './tables';

export interface DecodedJpeg extends RgbImage {
	/** Marker names in file order (SOI, APP0, COM, DQT, SOF0, DHT, SOS, EOI). */
	markers: string[];
	/** Number of COM segments and their total bytes (padding). */
	commentBytes: number;
}

/** DQT: 8-bit tables, stored by id in natural order. */
function readQuantTables(body: Uint8Array, quant: number[][]): void {
	for (let p = 0; p < body.length; p += 65) {
		if (body[p] >> 4 !== 0) throw new Error('16-bit quantisation tables are not supported');
		const table = new Array<number>(64);
		for (let k = 0; k < 64; k++) table[ZIGZAG[k]] = body[p + 1 + k];
		quant[body[p] & 15] = table;
	}
}

/** SOF0: 8-bit precision, the size and every component. */
function readFrame(body: Uint8Array): Frame {
	if (body[0] !== 8) throw new Error('only 8-bit precision is supported');
	const count = body[5];
	const components = [];
	for (let c = 0; c < count; c++) {
		const b = body.subarray(6 + c * 3, 9 + c * 3);
		components.push({ id: b[0], h: b[1] >> 4, v: b[1] & 15, tq: b[2] });
	}
	const frame = { height: (body[1] << 8) | body[2], width: (body[3] << 8) | body[4], components };
	if (frame.width === 0 || frame.height === 0) throw new Error('zero image dimension');
	return frame;
}

/** DHT: every table of the segment, by `class:id`. */
function readHuffmanTables(body: Uint8Array, huffman: Map<string, SymbolLookup>): void {
	for (let p = 0; p < body.length; ) {
		const bits = Array.from(body.subarray(p + 1, p + 17));
		const total = bits.reduce((a, b) => a + b, 0);
		const values = Array.from(body.subarray(p + 17, p + 17 + total));
		huffman.set(`${body[p] >> 4}:${body[p] & 15}`, buildSymbolLookup({ bits, values }));
		p += 17 + total;
	}
}

/** The name a segment is listed under, or throws for the frame types and restart intervals this decoder refuses. */
function markerName(marker: number): string {
	if (marker === 0xe0) return 'APP0';
	if (marker >= 0xe1 && marker <= 0xef) return `APP${marker - 0xe0}`;
	if (marker >= 0xc1 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
		throw new Error(`unsupported frame type SOF${marker - 0xc0}`);
	}
	if (marker === 0xdd) throw new Error('restart intervals are not supported');
	const names: Record<number, string> = { 0xfe: 'COM', 0xdb: 'DQT', 0xc0: 'SOF0', 0xc4: 'DHT', 0xda: 'SOS' };
	return names[marker] ?? `0x${marker.toString(16)}`;
}

/**
 * Decodes a baseline (SOF0) Huffman JPEG with 1 or 3 components and any sampling factors up to 2x2, or throws
 * saying what is wrong. Used by tests to prove a screenshot is a real, complete JPEG. Progressive, arithmetic and
 * restart-interval files are rejected (the simulator never produces them).
 */
export function decodeJpeg(input: Uint8Array): DecodedJpeg {
	const data = input;
	if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) throw new Error('not a JPEG: missing SOI (FF D8)');
	if (data[data.length - 2] !== 0xff || data[data.length - 1] !== 0xd9) throw new Error('not a JPEG: missing EOI (FF D9) at the end');
	const markers = ['SOI'];
	const tables: ScanTables = { quant: [], huffman: new Map() };
	let frame: Frame | undefined;
	let commentBytes = 0;
	let offset = 2;
	for (;;) {
		if (offset + 4 > data.length) throw new Error('truncated JPEG: no SOS');
		if (data[offset] !== 0xff) throw new Error(`bad marker at offset ${offset}`);
		const marker = data[offset + 1];
		const length = (data[offset + 2] << 8) | data[offset + 3];
		const body = data.subarray(offset + 4, offset + 2 + length);
		if (body.length !== length - 2) throw new Error('truncated segment');
		markers.push(markerName(marker));
		if (marker === 0xfe) commentBytes += length + 2;
		else if (marker === 0xdb) readQuantTables(body, tables.quant);
		else if (marker === 0xc0) frame = readFrame(body);
		else if (marker === 0xc4) readHuffmanTables(body, tables.huffman);
		else if (marker === 0xda) {
			if (!frame) throw new Error('SOS before SOF0');
			const decoded = decodeScan(data, offset + 2 + length, body, frame, tables);
			if (decoded.end !== data.length - 2) throw new Error(`unexpected data after the scan at offset ${decoded.end}`);
			markers.push('EOI');
			return { width: frame.width, height: frame.height, pixels: decoded.pixels, markers, commentBytes };
		}
		offset += 2 + length;
	}
}
