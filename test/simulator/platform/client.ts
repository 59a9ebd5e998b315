import { PLATFORM_DEMO_TOKEN } from './accounts';
import type { PagedMeta, ValidationIssue } from './types';

/** The union of the platform API's envelopes: success `{message, data, meta?}` and error bodies. */
export interface PlatformBody<D = unknown> {
	message?: string;
	error?: string;
	statusCode?: number;
	errors?: ValidationIssue[];
	data: D;
	meta?: PagedMeta;
}

export interface PlatformCallOptions {
	/** Sent as `x-api-token`; the demo token when omitted, no header when null. */
	token?: string | null;
	/** Serialised as JSON. */
	body?: unknown;
	/** Sent as is (for invalid JSON). */
	rawBody?: string;
	query?: Record<string, string | number | undefined>;
	/** Extra headers; `accept: application/json` is sent unless overridden. */
	headers?: Record<string, string>;
}

export interface PlatformCallResult<D> {
	status: number;
	headers: Headers;
	body: PlatformBody<D>;
}

/** A small fetch wrapper for tests and demos that talk to the platform simulator over real HTTP. */
export async function callPlatform<D = unknown>(
	baseUrl: string,
	method: string,
	path: string,
	options: PlatformCallOptions = {},
): Promise<PlatformCallResult<D>> {
	const url = new URL(path, baseUrl);
	for (const [key, value] of Object.entries(options.query ?? {})) {
		if (value !== undefined) url.searchParams.set(key, String(value));
	}
	const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
	const token = options.token === undefined ? PLATFORM_DEMO_TOKEN : options.token;
	if (token !== null) headers['x-api-token'] = token;
	let payload: string | undefined = options.rawBody;
	if (options.body !== undefined) payload = JSON.stringify(options.body);
	if (payload !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(url, { method, headers, body: payload });
	const text = await response.text();
	return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as PlatformBody<D> };
}
