/**
 * Grows a JPEG to an exact size with comment (COM) segments, which every decoder skips: large-but-valid screenshots
 * for memory benchmarks (`screenshotBytes`).
 */

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
