/**
 * A real PNG file of an RGB picture, written without a library: signature, IHDR, one IDAT of stored (uncompressed)
 * deflate blocks, IEND, each chunk with its CRC-32. Image viewers, n8n's binary preview and `file` all read it.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(bytes: Buffer): number {
	let c = 0xffffffff;
	for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Buffer): number {
	let a = 1;
	let b = 0;
	for (const byte of bytes) {
		a = (a + byte) % 65521;
		b = (b + a) % 65521;
	}
	return ((b << 16) | a) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(data.length, 0);
	head.write(type, 4, 'latin1');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
	return Buffer.concat([head, data, crc]);
}

/** A zlib stream of stored deflate blocks (at most 65,535 bytes each): valid, and simple enough to write by hand. */
function zlibStored(raw: Buffer): Buffer {
	const parts: Buffer[] = [Buffer.from([0x78, 0x01])];
	for (let offset = 0; offset < raw.length || offset === 0; offset += 0xffff) {
		const block = raw.subarray(offset, offset + 0xffff);
		const last = offset + 0xffff >= raw.length;
		const header = Buffer.alloc(5);
		header[0] = last ? 1 : 0;
		header.writeUInt16LE(block.length, 1);
		header.writeUInt16LE(~block.length & 0xffff, 3);
		parts.push(header, block);
		if (last) break;
	}
	const adler = Buffer.alloc(4);
	adler.writeUInt32BE(adler32(raw), 0);
	parts.push(adler);
	return Buffer.concat(parts);
}

/** `pixel(x, y)` gives each pixel's [r, g, b]. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
	const raw = Buffer.alloc(height * (1 + width * 3));
	for (let y = 0; y < height; y++) {
		const row = y * (1 + width * 3);
		raw[row] = 0; // filter: none
		for (let x = 0; x < width; x++) {
			const [r, g, b] = pixel(x, y);
			raw[row + 1 + x * 3] = r;
			raw[row + 2 + x * 3] = g;
			raw[row + 3 + x * 3] = b;
		}
	}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // colour type: RGB
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlibStored(raw)), chunk('IEND', Buffer.alloc(0))]);
}
