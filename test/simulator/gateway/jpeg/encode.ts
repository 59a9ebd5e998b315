/**
 * A small baseline JPEG encoder (ITU T.81, sequential DCT, Huffman, 8-bit, YCbCr 4:4:4 with the standard Annex K
 * tables), so the simulated screenshot is a real JPEG built from pixels rather than a canned byte array, and tests
 * can decode what the gateway (or the node) returns (`decode.ts`).
 */
import { BitWriter, buildCodeTable, writeValue, type CodeTable } from './huffman';
import { AC_CHROMA, AC_LUMA, BASIS, CHROMA_QUANT, DC_CHROMA, DC_LUMA, LUMA_QUANT, ZIGZAG, scaledQuant, type HuffmanSpec } from './tables';

export interface RgbImage {
	width: number;
	height: number;
	/** RGB triplets, row-major, length width * height * 3. */
	pixels: Uint8Array;
}

function segment(marker: number, payload: number[]): number[] {
	const length = payload.length + 2;
	return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

function dhtPayload(tableClass: number, id: number, spec: HuffmanSpec): number[] {
	return [(tableClass << 4) | id, ...spec.bits, ...spec.values];
}

/** SOI, JFIF APP0, the two quantisation tables, SOF0 (three components, no subsampling), the Huffman tables, SOS. */
function headerBytes(width: number, height: number, quants: number[][]): number[] {
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
	return header;
}

/** Colour conversion once, into three level-shifted planes (Y, Cb, Cr). */
function toPlanes({ width, height, pixels }: RgbImage): Float64Array[] {
	const planes = [new Float64Array(width * height), new Float64Array(width * height), new Float64Array(width * height)];
	for (let i = 0, o = 0; i < width * height; i++, o += 3) {
		const r = pixels[o];
		const g = pixels[o + 1];
		const b = pixels[o + 2];
		planes[0][i] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
		planes[1][i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
		planes[2][i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
	}
	return planes;
}

/** The entropy coder's state over the whole scan, and the scratch buffers of one block. */
interface ScanCoder {
	writer: BitWriter;
	quants: number[][];
	dc: CodeTable[];
	ac: CodeTable[];
	previousDc: number[];
	block: Float64Array;
	temp: Float64Array;
	zz: Int32Array;
}

/** Loads the 8x8 block at (bx, by) of a plane (edge blocks repeat the last row/column), DCT, quantised in zigzag order. */
function transformBlock(coder: ScanCoder, plane: Float64Array, width: number, height: number, bx: number, by: number, quant: number[]): void {
	const { block, temp, zz } = coder;
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
	for (let k = 0; k < 64; k++) {
		const index = ZIGZAG[k];
		const v = index >> 3;
		const u = index & 7;
		let sum = 0;
		for (let y = 0; y < 8; y++) sum += BASIS[v * 8 + y] * temp[y * 8 + u];
		zz[k] = Math.round(sum / quant[index]);
	}
}

/** Huffman-codes the quantised block: the DC difference, then the AC coefficients as (run, value), EOB. */
function writeBlock(coder: ScanCoder, component: number, table: number): void {
	const { writer, zz, previousDc } = coder;
	const ac = coder.ac[table];
	const diff = zz[0] - previousDc[component];
	previousDc[component] = zz[0];
	writeValue(writer, coder.dc[table], diff, 0);
	let run = 0;
	for (let k = 1; k < 64; k++) {
		if (zz[k] === 0) {
			run++;
			continue;
		}
		while (run > 15) {
			writer.write(ac.code[0xf0], ac.length[0xf0]);
			run -= 16;
		}
		writeValue(writer, ac, zz[k], run);
		run = 0;
	}
	if (run > 0) writer.write(ac.code[0x00], ac.length[0x00]);
}

/** Encodes RGB pixels as a baseline JFIF JPEG (quality 1..100). */
export function encodeJpeg(image: RgbImage, quality = 80): Buffer {
	const { width, height, pixels } = image;
	if (width < 1 || height < 1 || width > 65535 || height > 65535) throw new Error('encodeJpeg: bad dimensions');
	if (pixels.length !== width * height * 3) throw new Error('encodeJpeg: pixel buffer size mismatch');
	const coder: ScanCoder = {
		writer: new BitWriter(),
		quants: [scaledQuant(LUMA_QUANT, quality), scaledQuant(CHROMA_QUANT, quality)],
		dc: [buildCodeTable(DC_LUMA), buildCodeTable(DC_CHROMA)],
		ac: [buildCodeTable(AC_LUMA), buildCodeTable(AC_CHROMA)],
		previousDc: [0, 0, 0],
		block: new Float64Array(64),
		temp: new Float64Array(64),
		zz: new Int32Array(64),
	};
	const header = headerBytes(width, height, coder.quants);
	const planes = toPlanes(image);
	const blocksX = Math.ceil(width / 8);
	const blocksY = Math.ceil(height / 8);
	for (let by = 0; by < blocksY; by++) {
		for (let bx = 0; bx < blocksX; bx++) {
			for (let component = 0; component < 3; component++) {
				const table = component === 0 ? 0 : 1;
				transformBlock(coder, planes[component], width, height, bx, by, coder.quants[table]);
				writeBlock(coder, component, table);
			}
		}
	}
	return Buffer.concat([Buffer.from(header), coder.writer.finish(), Buffer.from([0xff, 0xd9])]);
}
