export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
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
		value = decode(header.trim());
	} catch {
		return undefined;
	}
	return isRecord(value) ? value : undefined;
}
