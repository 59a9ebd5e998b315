/**
 * A small baseline JPEG codec (ITU T.81, sequential DCT, Huffman, 8-bit, YCbCr 4:4:4 with the standard Annex K
 * tables), so the simulated screenshot is a real JPEG built from pixels rather than a canned byte array, and
 * tests can decode what the gateway (or the node) returns. `padToBytes` grows a JPEG to an exact size with
 * comment (COM) segments, which every decoder skips: large-but-valid screenshots for memory benchmarks.
 */

export interface RgbImage {
	width: number;
	height: number;
	/** RGB triplets, row-major, length width * height * 3. */
	pixels: Uint8Array;
}

const ZIGZAG = [
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35,
	42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62,
	63,
];

const LUMA_QUANT = [
	16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80,
	62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95,
	98, 112, 100, 103, 99,
];

const CHROMA_QUANT = [
	17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
	99, 99,
];

interface HuffmanSpec {
	bits: number[]; // counts of codes of length 1..16
	values: number[];
}

const DC_LUMA: HuffmanSpec = { bits: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
const DC_CHROMA: HuffmanSpec = { bits: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] };
const AC_LUMA: HuffmanSpec = {
	bits: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
	values: [
		0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32,
		0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16,
		0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45,
		0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
		0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94,
		0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
		0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8,
		0xd9, 0xda, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
		0xf9, 0xfa,
	],
};
const AC_CHROMA: HuffmanSpec = {
	bits: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
	values: [
		0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81,
		0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34,
		0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44,
		0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
		0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92,
		0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4,
		0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6,
		0xd7, 0xd8, 0xd9, 0xda, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8,
		0xf9, 0xfa,
	],
};

/** Canonical Huffman codes (T.81 Annex C): symbol -> [code, length]. */
function buildCodes(spec: HuffmanSpec): Map<number, [number, number]> {
	const codes = new Map<number, [number, number]>();
	let code = 0;
	let k = 0;
	for (let length = 1; length <= 16; length++) {
		for (let i = 0; i < spec.bits[length - 1]; i++) codes.set(spec.values[k++], [code++, length]);
		code <<= 1;
	}
	return codes;
}

/** Encoder lookup: code and length per symbol (length 0: no code). */
interface CodeTable {
	code: Int32Array;
	length: Int32Array;
}

function buildCodeTable(spec: HuffmanSpec): CodeTable {
	const table = { code: new Int32Array(256), length: new Int32Array(256) };
	for (const [symbol, [code, length]] of buildCodes(spec)) {
		table.code[symbol] = code;
		table.length[symbol] = length;
	}
	return table;
}

/** cos((2x+1) u pi / 16) * c(u) / 2, the separable DCT basis, as BASIS[u * 8 + x]. */
const BASIS = new Float64Array(64);
for (let u = 0; u < 8; u++) {
	for (let x = 0; x < 8; x++) BASIS[u * 8 + x] = ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
}

function scaledQuant(table: number[], quality: number): number[] {
	const scale = quality < 50 ? 5000 / quality : 200 - quality * 2;
	return table.map((q) => Math.min(255, Math.max(1, Math.floor((q * scale + 50) / 100))));
}

class BitWriter {
	private bytes = new Uint8Array(4096);
	private size = 0;
	private buffer = 0;
	private count = 0;

	/** Appends the low `length` bits of `code` (length <= 16), most significant first. */
	write(code: number, length: number): void {
		this.buffer = ((this.buffer << length) | (code & ((1 << length) - 1))) >>> 0;
		this.count += length;
		while (this.count >= 8) {
			this.count -= 8;
			const byte = (this.buffer >>> this.count) & 0xff;
			this.push(byte);
			// Byte stuffing: a 0xFF in entropy-coded data is followed by 0x00.
			if (byte === 0xff) this.push(0);
		}
		this.buffer &= (1 << this.count) - 1;
	}

	private push(byte: number): void {
		if (this.size === this.bytes.length) {
			const grown = new Uint8Array(this.bytes.length * 2);
			grown.set(this.bytes);
			this.bytes = grown;
		}
		this.bytes[this.size++] = byte;
	}

	finish(): Uint8Array {
		// Pad the last byte with 1-bits (T.81 F.1.2.3).
		if (this.count > 0) this.write((1 << (8 - this.count)) - 1, 8 - this.count);
		return this.bytes.subarray(0, this.size);
	}
}

function magnitudeCategory(value: number): number {
	let v = Math.abs(value);
	let n = 0;
	while (v > 0) {
		n++;
		v >>= 1;
	}
	return n;
}

function segment(marker: number, payload: number[]): number[] {
	const length = payload.length + 2;
	return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

function dhtPayload(tableClass: number, id: number, spec: HuffmanSpec): number[] {
	return [(tableClass << 4) | id, ...spec.bits, ...spec.values];
}

/** Encodes RGB pixels as a baseline JFIF JPEG (quality 1..100). */
export function encodeJpeg(image: RgbImage, quality = 80): Buffer {
	const { width, height, pixels } = image;
	if (width < 1 || height < 1 || width > 65535 || height > 65535) throw new Error('encodeJpeg: bad dimensions');
	if (pixels.length !== width * height * 3) throw new Error('encodeJpeg: pixel buffer size mismatch');
	const quants = [scaledQuant(LUMA_QUANT, quality), scaledQuant(CHROMA_QUANT, quality)];
	const dc = [buildCodeTable(DC_LUMA), buildCodeTable(DC_CHROMA)];
	const ac = [buildCodeTable(AC_LUMA), buildCodeTable(AC_CHROMA)];

	const header: number[] = [0xff, 0xd8];
	// JFIF APP0: version 1.01, no density units (aspect 1:1), no thumbnail.
	header.push(...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]));
	for (let t = 0; t < 2; t++) header.push(...segment(0xdb, [t, ...ZIGZAG.map((i) => quants[t][i])]));
	header.push(
		...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]),
	);
	header.push(
		...segment(0xc4, [
			...dhtPayload(0, 0, DC_LUMA),
			...dhtPayload(1, 0, AC_LUMA),
			...dhtPayload(0, 1, DC_CHROMA),
			...dhtPayload(1, 1, AC_CHROMA),
		]),
	);
	header.push(...segment(0xda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]));

	// Colour conversion once, into three level-shifted planes.
	const planes = [new Float64Array(width * height), new Float64Array(width * height), new Float64Array(width * height)];
	for (let i = 0, o = 0; i < width * height; i++, o += 3) {
		const r = pixels[o];
		const g = pixels[o + 1];
		const b = pixels[o + 2];
		planes[0][i] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
		planes[1][i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
		planes[2][i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
	}

	const writer = new BitWriter();
	const previousDc = [0, 0, 0];
	const block = new Float64Array(64);
	const temp = new Float64Array(64);
	const zz = new Int32Array(64);
	const blocksX = Math.ceil(width / 8);
	const blocksY = Math.ceil(height / 8);
	for (let by = 0; by < blocksY; by++) {
		for (let bx = 0; bx < blocksX; bx++) {
			for (let component = 0; component < 3; component++) {
				const plane = planes[component];
				// Edge blocks repeat the last row/column.
				for (let y = 0; y < 8; y++) {
					const row = Math.min(height - 1, by * 8 + y) * width;
					for (let x = 0; x < 8; x++) block[y * 8 + x] = plane[row + Math.min(width - 1, bx * 8 + x)];
				}
				// Separable forward DCT: rows, then columns; then quantise into zigzag order.
				for (let y = 0; y < 8; y++) {
					for (let u = 0; u < 8; u++) {
						let sum = 0;
						for (let x = 0; x < 8; x++) sum += BASIS[u * 8 + x] * block[y * 8 + x];
						temp[y * 8 + u] = sum;
					}
				}
				const table = component === 0 ? 0 : 1;
				const quant = quants[table];
				for (let k = 0; k < 64; k++) {
					const index = ZIGZAG[k];
					const v = index >> 3;
					const u = index & 7;
					let sum = 0;
					for (let y = 0; y < 8; y++) sum += BASIS[v * 8 + y] * temp[y * 8 + u];
					zz[k] = Math.round(sum / quant[index]);
				}
				const diff = zz[0] - previousDc[component];
				previousDc[component] = zz[0];
				writeValue(writer, dc[table], diff, 0);
				let run = 0;
				for (let k = 1; k < 64; k++) {
					if (zz[k] === 0) {
						run++;
						continue;
					}
					while (run > 15) {
						writer.write(ac[table].code[0xf0], ac[table].length[0xf0]);
						run -= 16;
					}
					writeValue(writer, ac[table], zz[k], run);
					run = 0;
				}
				if (run > 0) writer.write(ac[table].code[0x00], ac[table].length[0x00]);
			}
		}
	}
	return Buffer.concat([Buffer.from(header), writer.finish(), Buffer.from([0xff, 0xd9])]);
}

/** Writes (run, category) then the value's extra bits (ones' complement for negatives). */
function writeValue(writer: BitWriter, codes: CodeTable, value: number, run: number): void {
	const category = magnitudeCategory(value);
	const symbol = (run << 4) | category;
	if (codes.length[symbol] === 0) throw new Error(`encodeJpeg: no Huffman code for run ${run} category ${category}`);
	writer.write(codes.code[symbol], codes.length[symbol]);
	if (category > 0) writer.write(value < 0 ? value + (1 << category) - 1 : value, category);
}

const COM_MAX_PAYLOAD = 65533;

/**
 * Returns the JPEG grown to exactly `targetBytes` (when at least 4 bytes larger) by COM segments placed after the
 * JFIF APP0 segment (which must stay first); each segment is at most 65537 bytes. A target at or below the current
 * size returns the JPEG unchanged.
 */
export function padJpegToBytes(jpeg: Buffer, targetBytes: number): Buffer {
	let extra = Math.floor(targetBytes) - jpeg.length;
	if (extra <= 0) return jpeg;
	if (extra < 4) extra = 4; // one empty COM segment is the smallest addition
	const sizes: number[] = [];
	while (extra > 0) {
		let size = Math.min(extra, COM_MAX_PAYLOAD + 4);
		// Never leave a remainder a segment cannot hold (< 4 bytes).
		if (extra - size > 0 && extra - size < 4) size -= 4;
		sizes.push(size);
		extra -= size;
	}
	const insertAt = jpeg[2] === 0xff && jpeg[3] === 0xe0 ? 4 + jpeg.readUInt16BE(4) : 2;
	const filler = Buffer.from('simulated screenshot padding; decoders skip COM segments. ', 'ascii');
	const padded = Buffer.alloc(jpeg.length + sizes.reduce((a, b) => a + b, 0));
	jpeg.copy(padded, 0, 0, insertAt);
	let offset = insertAt;
	for (const size of sizes) {
		const payload = size - 4;
		padded[offset] = 0xff;
		padded[offset + 1] = 0xfe;
		padded.writeUInt16BE(payload + 2, offset + 2);
		for (let i = 0; i < payload; i += filler.length) filler.copy(padded, offset + 4 + i, 0, Math.min(filler.length, payload - i));
		offset += size;
	}
	jpeg.copy(padded, offset, insertAt);
	return padded;
}

export interface DecodedJpeg extends RgbImage {
	/** Marker names in file order (SOI, APP0, COM, DQT, SOF0, DHT, SOS, EOI). */
	markers: string[];
	/** Number of COM segments and their total bytes (padding). */
	commentBytes: number;
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
	const quant: number[][] = [];
	const huffman = new Map<string, Map<string, number>>();
	let frame: { width: number; height: number; components: Array<{ id: number; h: number; v: number; tq: number }> } | undefined;
	let commentBytes = 0;
	let offset = 2;
	for (;;) {
		if (offset + 4 > data.length) throw new Error('truncated JPEG: no SOS');
		if (data[offset] !== 0xff) throw new Error(`bad marker at offset ${offset}`);
		const marker = data[offset + 1];
		const length = (data[offset + 2] << 8) | data[offset + 3];
		const body = data.subarray(offset + 4, offset + 2 + length);
		if (body.length !== length - 2) throw new Error('truncated segment');
		if (marker === 0xe0) markers.push('APP0');
		else if (marker >= 0xe1 && marker <= 0xef) markers.push(`APP${marker - 0xe0}`);
		else if (marker === 0xfe) {
			markers.push('COM');
			commentBytes += length + 2;
		} else if (marker === 0xdb) {
			markers.push('DQT');
			for (let p = 0; p < body.length; p += 65) {
				if (body[p] >> 4 !== 0) throw new Error('16-bit quantisation tables are not supported');
				const table = new Array<number>(64);
				for (let k = 0; k < 64; k++) table[ZIGZAG[k]] = body[p + 1 + k];
				quant[body[p] & 15] = table;
			}
		} else if (marker === 0xc0) {
			markers.push('SOF0');
			if (body[0] !== 8) throw new Error('only 8-bit precision is supported');
			const count = body[5];
			const components = [];
			for (let c = 0; c < count; c++) {
				const b = body.subarray(6 + c * 3, 9 + c * 3);
				components.push({ id: b[0], h: b[1] >> 4, v: b[1] & 15, tq: b[2] });
			}
			frame = { height: (body[1] << 8) | body[2], width: (body[3] << 8) | body[4], components };
			if (frame.width === 0 || frame.height === 0) throw new Error('zero image dimension');
		} else if (marker >= 0xc1 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			throw new Error(`unsupported frame type SOF${marker - 0xc0}`);
		} else if (marker === 0xc4) {
			markers.push('DHT');
			for (let p = 0; p < body.length; ) {
				const key = `${body[p] >> 4}:${body[p] & 15}`;
				const bits = Array.from(body.subarray(p + 1, p + 17));
				const total = bits.reduce((a, b) => a + b, 0);
				const values = Array.from(body.subarray(p + 17, p + 17 + total));
				const lookup = new Map<string, number>();
				for (const [symbol, [code, len]] of buildCodes({ bits, values })) lookup.set(`${len}:${code}`, symbol);
				huffman.set(key, lookup);
				p += 17 + total;
			}
		} else if (marker === 0xdd) {
			throw new Error('restart intervals are not supported');
		} else if (marker === 0xda) {
			markers.push('SOS');
			if (!frame) throw new Error('SOS before SOF0');
			const decoded = decodeScan(data, offset + 2 + length, body, frame, quant, huffman);
			if (decoded.end !== data.length - 2) throw new Error(`unexpected data after the scan at offset ${decoded.end}`);
			markers.push('EOI');
			return { width: frame.width, height: frame.height, pixels: decoded.pixels, markers, commentBytes };
		} else {
			markers.push(`0x${marker.toString(16)}`);
		}
		offset += 2 + length;
	}
}

function decodeScan(
	data: Uint8Array,
	start: number,
	header: Uint8Array,
	frame: { width: number; height: number; components: Array<{ id: number; h: number; v: number; tq: number }> },
	quant: number[][],
	huffman: Map<string, Map<string, number>>,
): { pixels: Uint8Array; end: number } {
	const count = header[0];
	if (count !== frame.components.length) throw new Error('interleaved scans of a subset of components are not supported');
	const tables = Array.from({ length: count }, (_, i) => ({ dc: header[2 + i * 2] >> 4, ac: header[2 + i * 2] & 15 }));
	if (header[1 + count * 2] !== 0 || header[2 + count * 2] !== 63) throw new Error('not a baseline scan');
	let position = start;
	let bitBuffer = 0;
	let bitCount = 0;
	const readBit = (): number => {
		if (bitCount === 0) {
			if (position >= data.length) throw new Error('entropy-coded data runs past the end');
			const byte = data[position++];
			if (byte === 0xff) {
				const next = data[position];
				if (next === 0x00) position++;
				else throw new Error(`marker FF ${next.toString(16)} inside entropy-coded data (truncated scan)`);
			}
			bitBuffer = byte;
			bitCount = 8;
		}
		bitCount--;
		return (bitBuffer >> bitCount) & 1;
	};
	const decodeSymbol = (lookup: Map<string, number> | undefined): number => {
		if (!lookup) throw new Error('scan refers to a missing Huffman table');
		let code = 0;
		for (let length = 1; length <= 16; length++) {
			code = (code << 1) | readBit();
			const symbol = lookup.get(`${length}:${code}`);
			if (symbol !== undefined) return symbol;
		}
		throw new Error('invalid Huffman code');
	};
	const receive = (category: number): number => {
		let value = 0;
		for (let i = 0; i < category; i++) value = (value << 1) | readBit();
		return value < 1 << (category - 1) ? value - (1 << category) + 1 : value;
	};

	const hMax = Math.max(...frame.components.map((c) => c.h));
	const vMax = Math.max(...frame.components.map((c) => c.v));
	const mcuX = Math.ceil(frame.width / (8 * hMax));
	const mcuY = Math.ceil(frame.height / (8 * vMax));
	const planes = frame.components.map((c) => {
		const w = mcuX * c.h * 8;
		return { w, h: mcuY * c.v * 8, data: new Float64Array(w * mcuY * c.v * 8) };
	});
	const previousDc = frame.components.map(() => 0);
	const coefficients = new Float64Array(64);
	const temp = new Float64Array(64);
	for (let my = 0; my < mcuY; my++) {
		for (let mx = 0; mx < mcuX; mx++) {
			frame.components.forEach((component, c) => {
				const q = quant[component.tq];
				if (!q) throw new Error('scan refers to a missing quantisation table');
				for (let by = 0; by < component.v; by++) {
					for (let bx = 0; bx < component.h; bx++) {
						coefficients.fill(0);
						const category = decodeSymbol(huffman.get(`0:${tables[c].dc}`));
						previousDc[c] += category === 0 ? 0 : receive(category);
						coefficients[0] = previousDc[c] * q[0];
						for (let k = 1; k < 64; ) {
							const symbol = decodeSymbol(huffman.get(`1:${tables[c].ac}`));
							const run = symbol >> 4;
							const size = symbol & 15;
							if (size === 0) {
								if (run === 15) {
									k += 16;
									continue;
								}
								break;
							}
							k += run;
							if (k > 63) throw new Error('AC coefficient index out of range');
							coefficients[ZIGZAG[k]] = receive(size) * q[ZIGZAG[k]];
							k++;
						}
						// Inverse DCT (separable) into the component plane.
						for (let v = 0; v < 8; v++) {
							for (let x = 0; x < 8; x++) {
								let sum = 0;
								for (let u = 0; u < 8; u++) sum += BASIS[u * 8 + x] * coefficients[v * 8 + u];
								temp[v * 8 + x] = sum;
							}
						}
						const plane = planes[c];
						const ox = (mx * component.h + bx) * 8;
						const oy = (my * component.v + by) * 8;
						for (let y = 0; y < 8; y++) {
							for (let x = 0; x < 8; x++) {
								let sum = 0;
								for (let v = 0; v < 8; v++) sum += BASIS[v * 8 + y] * temp[v * 8 + x];
								plane.data[(oy + y) * plane.w + ox + x] = sum + 128;
							}
						}
					}
				}
			});
		}
	}
	// Skip the fill bits, then expect EOI.
	if (data[position] !== 0xff || data[position + 1] !== 0xd9) throw new Error(`expected EOI after the scan at offset ${position}`);

	const pixels = new Uint8Array(frame.width * frame.height * 3);
	const clamp = (n: number) => Math.max(0, Math.min(255, Math.round(n)));
	for (let y = 0; y < frame.height; y++) {
		for (let x = 0; x < frame.width; x++) {
			const sample = (c: number) => {
				const component = frame.components[c];
				const plane = planes[c];
				return plane.data[Math.floor((y * component.v) / vMax) * plane.w + Math.floor((x * component.h) / hMax)];
			};
			const o = (y * frame.width + x) * 3;
			if (frame.components.length === 1) {
				pixels[o] = pixels[o + 1] = pixels[o + 2] = clamp(sample(0));
				continue;
			}
			const luma = sample(0);
			const cb = sample(1) - 128;
			const cr = sample(2) - 128;
			pixels[o] = clamp(luma + 1.402 * cr);
			pixels[o + 1] = clamp(luma - 0.344136 * cb - 0.714136 * cr);
			pixels[o + 2] = clamp(luma + 1.772 * cb);
		}
	}
	return { pixels, end: position };
}
