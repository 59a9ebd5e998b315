import type { SimReply } from '../core/http';
import type { PlatformErrorBody, ValidationIssue } from './types';

/** The interface's error table for the platform API, plus the few statuses the simulator adds (see README). */
const BODIES: Record<number, PlatformErrorBody> = {
	400: { message: 'Bad Request', error: 'Bad Request', statusCode: 400 },
	401: { message: 'Invalid or missing API token', error: 'Unauthorized', statusCode: 401 },
	403: { message: 'You do not have permission to access this resource', error: 'Forbidden', statusCode: 403 },
	404: { message: 'Resource not found', error: 'Not Found', statusCode: 404 },
	406: { message: 'Not Acceptable', error: 'Not Acceptable', statusCode: 406 },
	422: { message: 'Validation failed', error: 'Unprocessable Entity', statusCode: 422, errors: [] },
	429: { message: 'Too many requests. Please try again later.' },
	500: { message: 'An unexpected error occurred', error: 'Internal Server Error', statusCode: 500 },
	502: { message: 'Bad Gateway', error: 'Bad Gateway', statusCode: 502 },
	503: { message: 'Service Unavailable', error: 'Service Unavailable', statusCode: 503 },
	504: { message: 'Gateway Timeout', error: 'Gateway Timeout', statusCode: 504 },
};

/** The documented body for a status; also what injected `status` faults answer with. */
export function platformErrorBody(status: number): PlatformErrorBody {
	const body = BODIES[status];
	if (body) return { ...body, ...(body.errors ? { errors: [] } : {}) };
	return { message: `HTTP ${status}`, error: `HTTP ${status}`, statusCode: status };
}

export function errorReply(status: number, message?: string): SimReply {
	const body = platformErrorBody(status);
	if (message !== undefined) body.message = message;
	return { status, json: body };
}

export function unauthorized(): SimReply {
	return errorReply(401);
}

/** The other documented 401 message; the interface says statusCode is present on most bodies, not all. */
export function unauthorizedExpired(): SimReply {
	return { status: 401, json: { message: 'Unauthorized access', error: 'Unauthorized' } };
}

export function forbidden(): SimReply {
	return errorReply(403);
}

/** Public facts: a 403 can also say the plan's tokens are spent, a matter of the plan, not of permissions. */
export const TOKEN_LIMIT_MESSAGE = 'Token limit exceeded';

export function tokenLimitExceeded(): SimReply {
	return errorReply(403, TOKEN_LIMIT_MESSAGE);
}

export function notFound(): SimReply {
	return errorReply(404);
}

export function validationFailed(errors: ValidationIssue[]): SimReply {
	return { status: 422, json: { ...platformErrorBody(422), errors } };
}

export function tooManyRequests(retryAfterSeconds: number): SimReply {
	return { status: 429, json: platformErrorBody(429), headers: { 'retry-after': String(retryAfterSeconds) } };
}

export function badRequest(message: string): SimReply {
	return errorReply(400, message);
}

/** Thrown by in-process control methods (e.g. `startBulk`) where the endpoint would answer with an error. */
export class PlatformSimError extends Error {
	constructor(readonly reply: SimReply) {
		super(`${reply.status}: ${(reply.json as PlatformErrorBody | undefined)?.message ?? 'error'}`);
		this.name = 'PlatformSimError';
	}
}
