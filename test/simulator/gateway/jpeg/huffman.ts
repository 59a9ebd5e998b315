/**
 * Huffman coding of the baseline JPEG codec (ITU T.81 Annex C and F): canonical codes from a table's bit counts,
 * the encoder's bit writer (with 0xFF byte stuffing) and the decoder's bit reader.
 */
import type { HuffmanSpec } from './tables';

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
export interface CodeTable {
	code: Int32Array;
	length: Int32Array;
}

export function buildCodeTable(spec: HuffmanSpec): CodeTable {
	const table = { code: new Int32Array(256), length: new Int32Array(256) };
	for (const [symbol, [code, length]] of buildCodes(spec)) {
		table.code[symbol] = code;
		table.length[symbol] = length;
	}
	return table;
}

/** Decoder lookup: `length:code` -> symbol. */
export type SymbolLookup = Map<string, number>;

export function buildSymbolLookup(spec: HuffmanSpec): SymbolLookup {
	const lookup: SymbolLookup = new Map();
	for (const [symbol, [code, length]] of buildCodes(spec)) lookup.set(`${length}:${code}`, symbol);
	return lookup;
}

export class BitWriter {
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

/** Writes (run, category) then the value's extra bits (ones' complement for negatives). */
export function writeValue(writer: BitWriter, codes: CodeTable, value: number, run: number): void {
	const category = magnitudeCategory(value);
	const symbol = (run << 4) | category;
	if (codes.length[symbol] === 0) throw new Error(`encodeJpeg: no Huffman code for run ${run} category ${category}`);
	writer.write(codes.code[symbol], codes.length[symbol]);
	if (category > 0) writer.write(value < 0 ? value + (1 << category) - 1 : value, category);
}

/** Reads entropy-coded data from `position` on, undoing byte stuffing; a marker inside it means a truncated scan. */
export class BitReader {
	private bitBuffer = 0;
	private bitCount = 0;

	constructor(
		private readonly data: Uint8Array,
		public position: number,
	) {}

	readBit(): number {
		if (this.bitCount === 0) {
			if (this.position >= this.data.length) throw new Error('entropy-coded data runs past the end');
			const byte = this.data[this.position++];
			if (byte === 0xff) {
				const next = this.data[this.position];
				if (next === 0x00) this.position++;
				else throw new Error(`marker FF ${next.toString(16)} inside entropy-coded data (truncated scan)`);
			}
			this.bitBuffer = byte;
			this.bitCount = 8;
		}
		this.bitCount--;
		return (this.bitBuffer >> this.bitCount) & 1;
	}

	/** The next symbol of a Huffman table. */
	decodeSymbol(lookup: SymbolLookup | undefined): number {
		if (!lookup) throw new Error('scan refers to a missing Huffman table');
		let code = 0;
		for (let length = 1; length <= 16; length++) {
			code = (code << 1) | this.readBit();
			const symbol = lookup.get(`${length}:${code}`);
			if (symbol !== undefined) return symbol;
		}
		throw new Error('invalid Huffman code');
	}

	/** The extra bits of a value of this magnitude category, as a signed value. */
	receive(category: number): number {
		let value = 0;
		for (let i = 0; i < category; i++) value = (value << 1) | this.readBit();
		return value < 1 << (category - 1) ? value - (1 << category) + 1 : value;
	}
}
