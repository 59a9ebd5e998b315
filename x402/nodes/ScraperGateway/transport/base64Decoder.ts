const PAD = -2;
/** Value of each byte in base64 (both alphabets, as Node decodes), PAD for '=', -1 for anything else. */
const SEXTETS = (() => {
	const table = new Int8Array(256).fill(-1);
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
	table['-'.charCodeAt(0)] = 62;
	table['_'.charCodeAt(0)] = 63;
	table['='.charCodeAt(0)] = PAD;
	return table;
})();

/**
 * Decodes base64 given in pieces into one growing buffer, as Buffer.from(whole, 'base64') would: bytes outside the
 * alphabet are skipped, the first '=' ends the data, a last incomplete group gives the bytes it holds.
 * It reads bytes, not strings: a string per chunk would be 27 MB of garbage for a 20 MB image. Used by the
 * streaming reader of base64Fields.ts for the fields it decodes.
 */
export class Base64Decoder {
	/** Up to three sextets of a group not yet complete. */
	private group = 0;

	private sextets = 0;

	private ended = false;

	private out: Buffer;

	private length = 0;

	/** `capacity`: an upper bound of the decoded size when one is known (untouched memory costs no RSS). */
	constructor(capacity: number) {
		this.out = Buffer.allocUnsafe(Math.max(capacity, 1024));
	}

	pushBytes(bytes: Buffer, from: number, to: number): void {
		if (this.ended || to <= from) return;
		this.reserve(Math.ceil((to - from + this.sextets) / 4) * 3);
		const out = this.out;
		let length = this.length;
		let group = this.group;
		let sextets = this.sextets;
		for (let i = from; i < to; i++) {
			const value = SEXTETS[bytes[i]];
			if (value < 0) {
				if (value === PAD) {
					this.ended = true;
					break;
				}
				continue;
			}
			group = (group << 6) | value;
			if (++sextets === 4) {
				out[length++] = group >> 16;
				out[length++] = (group >> 8) & 0xff;
				out[length++] = group & 0xff;
				group = 0;
				sextets = 0;
			}
		}
		this.length = length;
		this.group = group;
		this.sextets = sextets;
	}

	/** One character from a \uXXXX escape. */
	pushCharCode(code: number): void {
		if (code < 256) this.pushBytes(Buffer.of(code), 0, 1);
	}

	end(): Buffer {
		this.reserve(2);
		// Two sextets hold one byte, three hold two; one alone holds none.
		if (this.sextets === 2) this.out[this.length++] = (this.group >> 4) & 0xff;
		if (this.sextets === 3) {
			this.out[this.length++] = (this.group >> 10) & 0xff;
			this.out[this.length++] = (this.group >> 2) & 0xff;
		}
		this.group = 0;
		this.sextets = 0;
		return this.out.subarray(0, this.length);
	}

	private reserve(bytes: number): void {
		if (this.length + bytes <= this.out.length) return;
		const grown = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.length + bytes));
		this.out.copy(grown, 0, 0, this.length);
		this.out = grown;
	}
}
