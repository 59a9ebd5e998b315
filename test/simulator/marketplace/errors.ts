import type { SimReply } from '../core/http';
import type { FieldError, MarketplaceErrorBody } from './types';

/**
 * Error bodies of section C. The interface shows none for this section, so they follow section B's documented
 * style ({message, error, statusCode}); README.md in this folder lists them.
 */
export function marketplaceErrorBody(status: number): MarketplaceErrorBody {
	switch (status) {
		case 400:
			return { message: 'Malformed JSON body', error: 'Bad Request', statusCode: 400 };
		case 401:
			return { message: 'Invalid or missing API token', error: 'Unauthorized', statusCode: 401 };
		case 403:
			return { message: 'You do not have permission to access this resource', error: 'Forbidden', statusCode: 403 };
		case 404:
			return { message: 'Resource not found', error: 'Not Found', statusCode: 404 };
		case 422:
			return { message: 'Validation failed', error: 'Unprocessable Entity', statusCode: 422, errors: [] };
		case 429:
			// Section B documents a message-only body for 429.
			return { message: 'Too many requests. Please try again later.' };
		case 500:
			return { message: 'An unexpected error occurred', error: 'Internal Server Error', statusCode: 500 };
		case 502:
			return { message: 'Bad Gateway', error: 'Bad Gateway', statusCode: 502 };
		case 503:
			return { message: 'Service Unavailable', error: 'Service Unavailable', statusCode: 503 };
		case 504:
			return { message: 'Gateway Timeout', error: 'Gateway Timeout', statusCode: 504 };
		default:
			return { message: `HTTP ${status}`, error: `HTTP ${status}`, statusCode: status };
	}
}

/** The RFC 6750 challenge: no error code when credentials are absent, `invalid_token` when one was refused. */
export function unauthorized(reason: 'missing' | 'invalid'): SimReply {
	const challenge =
		reason === 'missing'
			? 'Bearer realm="marketplace"'
			: 'Bearer realm="marketplace", error="invalid_token", error_description="The access token is invalid"';
	return { status: 401, headers: { 'www-authenticate': challenge }, json: marketplaceErrorBody(401) };
}

export function notFound(): SimReply {
	return { status: 404, json: marketplaceErrorBody(404) };
}

export function validationFailed(errors: FieldError[]): SimReply {
	return { status: 422, json: { ...marketplaceErrorBody(422), errors } };
}

export function tooManyRequests(retryAfterSeconds: number): SimReply {
	return { status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, json: marketplaceErrorBody(429) };
}

export function malformedJson(): SimReply {
	return { status: 400, json: marketplaceErrorBody(400) };
}
