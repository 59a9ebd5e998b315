import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

/**
 * n8n's NodeApiError and NodeOperationError replace any message that merely contains a Node error code
 * (ECONNRESET, ECONNREFUSED, ETIMEDOUT, EPERM, ...) with a generic text; for ECONNRESET that text even invites
 * an immediate retry. A payment error must keep its own words (charged or not, transaction, nonce) whatever a
 * cause, an upstream error or a URL happens to contain, so the message is set again after construction.
 */
export function paymentApiError(
	node: INode,
	body: JsonObject,
	options: { message: string; description: string; itemIndex: number; httpCode?: string },
): NodeApiError {
	const error = new NodeApiError(node, body, options);
	error.message = options.message;
	return error;
}

export function paymentOperationError(
	node: INode,
	message: string,
	options: { description: string; itemIndex: number },
): NodeOperationError {
	const error = new NodeOperationError(node, message, options);
	error.message = message;
	return error;
}
