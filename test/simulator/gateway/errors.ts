/** The gateway's documented error bodies: the 400 of an invalid request and the body of every other error status. */
import type { SimReply } from '../core/http';
import type { ValidationIssue } from './validation';

/** 400 naming the first invalid field, with every issue listed. */
export function validationReply(issues: ValidationIssue[]): SimReply {
	const [first] = issues;
	return {
		status: 400,
		json: { error: 'invalid_request', field: first.field, rule: first.rule, message: first.message, issues },
	};
}

export function gatewayErrorBody(status: number): unknown {
	switch (status) {
		case 400:
			return { error: 'invalid_request', message: 'Bad request' };
		case 404:
			return { error: 'not_found', message: 'Not found' };
		case 429:
			return { error: 'rate_limited', message: 'Too many requests. Please try again later.' };
		case 502:
			return { error: 'bad_gateway', message: 'Upstream unavailable' };
		case 503:
			return { error: 'service_unavailable', message: 'Service temporarily unavailable' };
		default:
			return { error: status >= 500 ? 'internal_error' : 'error', message: 'An unexpected error occurred' };
	}
}

/** 409: the payment identifier is bound to another payment of the payer (the extension's rule for a reused id). */
export function paymentIdConflictReply(id: string): SimReply {
	return {
		status: 409,
		json: { error: 'payment_identifier_conflict', message: `payment-identifier ${id} is already used by another payment of this payer; a retry must resend that same payment` },
	};
}
