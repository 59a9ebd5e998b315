export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The header in the standard base64 alphabet, padded, without white space: @x402/core's decoder reads only that. A
 * gateway may send the URL-safe alphabet, no padding or a folded line, all of which Node's base64 reading (this node's
 * decoder before) accepted, so they stay readable.
 */
function standardBase64(header: string): string {
	const text = header.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
	return text.padEnd(text.length + ((4 - (text.length % 4)) % 4), '=');
}

/**
 * An x402 header (base64 of a JSON object) read with @x402/core's own decoder, or undefined when absent or garbled.
 * Wrapped because that decoder throws on anything that is not base64 of JSON and checks no shape: a gateway's
 * garbled header must read as "no header", never end the node with a library error.
 */
export function readHeader(header: string | undefined, decode: (header: string) => unknown): Record<string, unknown> | undefined {
	if (!header) return undefined;
	let value: unknown;
	try {
		value = decode(standardBase64(header));
	} catch {
		return undefined;
	}
	return isRecord(value) ? value : undefined;
}
