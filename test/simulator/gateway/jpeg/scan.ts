/**
 * The scan of a baseline JPEG being decoded: Huffman-decoded coefficients, dequantised and inverse-transformed into
 * each component's plane (any sampling factors up to 2x2), then converted to RGB. Used by `decode.ts`.
 */
import { BitReader, type SymbolLookup } from './huffman';
import { BASIS, ZIGZAG } from './tables';

/** The frame of a JPEG (SOF0): its size and components with their sampling factors and quantisation table. */
export interface Frame {
	width: number;
	height: number;
	components: Array<{ id: number; h: number; v: number; tq: number }>;
}

/** What the scan refers to: quantisation tables by id, Huffman tables by `class:id` (0 DC, 1 AC). */
export interface ScanTables {
	quant: number[][];
	huffman: Map<string, SymbolLookup>;
}

interface Plane {
	w: number;
	h: number;
	data: Float64Array;
}

/** Decodes one block's coefficients (DC difference onto `previousDc[c]`, AC run lengths), dequantised, natural order. */
function readCoefficients(reader: BitReader, lookups: { dc?: SymbolLookup; ac?: SymbolLookup }, q: number[], previousDc: number[], c: number, coefficients: Float64Array): void {
	coefficients.fill(0);
	const category = reader.decodeSymbol(lookups.dc);
	previousDc[c] += category === 0 ? 0 : reader.receive(category);
	coefficients[0] = previousDc[c] * q[0];
	for (let k = 1; k < 64; ) {
		const symbol = reader.decodeSymbol(lookups.ac);
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
		coefficients[ZIGZAG[k]] = reader.receive(size) * q[ZIGZAG[k]];
		k++;
	}
}

/** Inverse DCT (separable) of one block into the component plane at (ox, oy), level shift undone. */
function inverseTransform(coefficients: Float64Array, temp: Float64Array, plane: Plane, ox: number, oy: number): void {
	for (let v = 0; v < 8; v++) {
		for (let x = 0; x < 8; x++) {
			let sum = 0;
			for (let u = 0; u < 8; u++) sum += BASIS[u * 8 + x] * coefficients[v * 8 + u];
			temp[v * 8 + x] = sum;
		}
	}
	for (let y = 0; y < 8; y++) {
		for (let x = 0; x < 8; x++) {
			let sum = 0;
			for (let v = 0; v < 8; v++) sum += BASIS[v * 8 + y] * temp[v * 8 + x];
			plane.data[(oy + y) * plane.w + ox + x] = sum + 128;
		}
	}
}

/** The planes, upsampled to the frame's size (nearest sample), as RGB (grey for one component). */
function toRgb(frame: Frame, planes: Plane[], hMax: number, vMax: number): Uint8Array {
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
	return pixels;
}

/**
 * Decodes the scan whose entropy-coded data starts at `start` (after the SOS segment, `header` its body): the pixels
 * and where the scan ended (the EOI marker's offset).
 */
export function decodeScan(data: Uint8Array, start: number, header: Uint8Array, frame: Frame, { quant, huffman }: ScanTables): { pixels: Uint8Array; end: number } {
	const count = header[0];
	if (count !== frame.components.length) throw new Error('interleaved scans of a subset of components are not supported');
	const tables = Array.from({ length: count }, (_, i) => ({ dc: huffman.get(`0:${header[2 + i * 2] >> 4}`), ac: huffman.get(`1:${header[2 + i * 2] & 15}`) }));
	if (header[1 + count * 2] !== 0 || header[2 + count * 2] !== 63) throw new Error('not a baseline scan');
	const reader = new BitReader(data, start);
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
						readCoefficients(reader, tables[c], q, previousDc, c, coefficients);
						inverseTransform(coefficients, temp, planes[c], (mx * component.h + bx) * 8, (my * component.v + by) * 8);
					}
				}
			});
		}
	}
	// Skip the fill bits, then expect EOI.
	const position = reader.position;
	if (data[position] !== 0xff || data[position + 1] !== 0xd9) throw new Error(`expected EOI after the scan at offset ${position}`);
	return { pixels: toRgb(frame, planes, hMax, vMax), end: position };
}
