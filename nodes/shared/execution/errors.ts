import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { fieldErrors, plainText, readErrorBody, tokenLimitText } from './errorBody';
import type { ErrorBody } from './errorBody';

export { readErrorBody } from './errorBody';
export type { BodyIssue } from './errorBody';


/**
 * The HTTP status a failed request was answered with, as n8n's errors and ours carry it (`httpCode`); undefined when
 * no answer came (a reset, a timeout: there `httpCode` holds the system code, if anything).
 */
export function answeredStatus(error: unknown): number | undefined {
	const code = typeof error === 'object' && error !== null ? (error as { httpCode?: unknown }).httpCode : undefined;
	return typeof code === 'string' && /^[1-5][0-9]{2}$/.test(code) ? Number(code) : undefined;
}

/**
 * n8n's NodeApiError and NodeOperationError replace any message that merely contains a Node error code
 * (ECONNRESET, ECONNREFUSED, ETIMEDOUT, EPERM, ...) with a generic text; for ECONNRESET that text even invites an
 * immediate retry, which for a create or a payment is exactly wrong. Our messages are written for the user, so
 * they are set again after construction, whatever a cause, a URL or an upstream error happens to contain.
 */
export function nodeApiError(
	node: INode,
	body: JsonObject,
	options: { message: string; description: string; itemIndex: number; httpCode?: string },
): NodeApiError {
	const error = new NodeApiError(node, body, options);
	error.message = options.message;
	return error;
}

export function nodeOperationError(
	node: INode,
	message: string,
	options: { description: string; itemIndex: number },
): NodeOperationError {
	const error = new NodeOperationError(node, message, options);
	error.message = message;
	return error;
}

/**
 * Errors an AI agent can act on, with the sentence it gets in their place (a failed tool call would end the whole
 * execution): refusals, raised before anything was sent or signed (invalid input, a payment the user's settings do
 * not allow, a spending limit reached), and failures whose outcome is certain (a page that failed upstream after a
 * settled payment: the agent can try another page).
 */
const AGENT_ANSWER = Symbol('agentAnswer');

/** An error carrying its sentence for an agent; under a symbol, so it never travels with the error's serialized fields. */
type Answerable = Error & { [AGENT_ANSWER]?: string };

/** Marks `error` as one an agent can act on, answered with `sentence`. */
export function answerableByAgent<E extends Error>(error: E, sentence: string): E {
	(error as Answerable)[AGENT_ANSWER] = sentence;
	return error;
}

/** Marks `error` as a refusal (nothing sent, nothing signed); `forAgent` defaults to its message and description. */
export function refusal<E extends Error & { description?: string | null }>(error: E, forAgent?: string): E {
	const sentences = [error.message, error.description].filter((text): text is string => !!text).map((text) => (/[.!?]$/.test(text) ? text : `${text}.`));
	return answerableByAgent(error, forAgent ?? sentences.join(' '));
}

/** The sentence for an AI agent when `error` is one it can act on, else undefined. */
export function agentAnswerFor(error: unknown): string | undefined {
	return error instanceof Error ? (error as Answerable)[AGENT_ANSWER] : undefined;
}

/** What a 404 or 403 refers to, so the message can name the id the user typed. */
export interface ErrorSubject {
	/** e.g. "scraper", "bulk job", "result". */
	kind: string;
	id?: string | number;
}

interface ApiFailure {
	status: number;
	body: unknown;
	itemIndex: number;
	/** The service's name as the user knows it, e.g. "Scraper Platform". */
	service: string;
	/** The credential's display name, for "check the token in ..." advice. */
	credentialName: string;
	subject?: ErrorSubject;
	/** For 429 after the node's own retries. */
	rateLimitRetries?: number;
}

/**
 * What a refused input's answer gives as its reasons: the issues it lists by field, else its message, else its `error`
 * when that says more than the status phrase (a gateway nests the reason there), else the status's own words.
 */
function reasonsOf(read: ErrorBody, status: 400 | 422): string {
	const fields = fieldErrors(read);
	if (fields.length > 0) return fields.join('; ');
	const phrase = status === 400 ? 'bad request' : 'validation failed';
	const error = read.error !== undefined && !/^(bad request|unprocessable entity)$/i.test(read.error) ? read.error : undefined;
	return read.message ?? error ?? phrase;
}

/**
 * Turns a documented error status into an error a no-code user can act on: the message says what happened,
 * the description says what to do. The raw body is kept (it never holds the token: requests are not echoed).
 */
export function apiError(node: INode, failure: ApiFailure): NodeApiError {
	const { status, body, itemIndex, service, credentialName, subject } = failure;
	const read = typeof body === 'string' ? { message: plainText(body), issues: [] } : readErrorBody(body);
	const serviceMessage = read.message;
	const what = subject ? `${subject.kind}${subject.id !== undefined ? ` "${subject.id}"` : ''}` : 'resource';
	let message: string;
	let description: string;

	switch (true) {
		case status === 400: {
			message = `${service} rejected the request: ${reasonsOf(read, 400)}`;
			description = 'Correct the parameter named in the message and run the node again.';
			break;
		}
		case status === 401: {
			message = `${service} did not accept the API token (401 Unauthorized)`;
			description = `Check the token in the '${credentialName}' credential: it may be mistyped, expired or revoked. Create a new token in the service dashboard if needed.`;
			break;
		}
		case status === 403 && tokenLimitText(read) !== undefined: {
			message = `${service}: the plan's token limit is used up (403 ${tokenLimitText(read)})`;
			description = `Not a matter of permissions: the account of the '${credentialName}' credential has spent every token its plan includes. See its tokenUsage and tokenLimit with Scraper Platform's Account > Get, then upgrade the plan or wait until it renews.`;
			break;
		}
		case status === 403: {
			message = `The API token has no access to this ${what} (403 Forbidden)`;
			description = `The token in the '${credentialName}' credential lacks access to this ${subject?.kind ?? 'resource'} or feature. Use the token of the account that owns it, or upgrade the plan.`;
			break;
		}
		case status === 404: {
			message = `The ${what} was not found (404)`;
			description = `Check the ${subject?.kind ?? 'resource'} ID: it must exist and belong to the account of the '${credentialName}' credential.`;
			break;
		}
		case status === 422: {
			message = `${service} rejected the input: ${reasonsOf(read, 422)}`;
			description = 'Correct the field named in the message and run the node again.';
			break;
		}
		case status === 429: {
			message = `${service} rate limit reached: too many requests`;
			description = `The node waited and retried${failure.rateLimitRetries ? ` ${failure.rateLimitRetries} times` : ''} but the limit persists. Wait a little before running again, or lower the pace: fewer items per execution, or a Wait node between batches.`;
			break;
		}
		case status >= 500: {
			message = `${service} could not complete the request (${status})${serviceMessage ? `: ${serviceMessage}` : ''}`;
			description = 'The service is having trouble on its side. Try again in a few minutes; if it persists, contact its support with the time it happened.';
			break;
		}
		default: {
			message = `${service} answered with status ${status}${serviceMessage ? `: ${serviceMessage}` : ''}`;
			description = 'Check the parameters and the credential, then run the node again.';
		}
	}

	const errorBody: JsonObject =
		body && typeof body === 'object' && !Array.isArray(body) ? (body as JsonObject) : { body: String(body ?? '') };
	return nodeApiError(node, errorBody, { message, description, httpCode: String(status), itemIndex });
}

/** A text with each secret replaced by a mask. */
function masked(text: string, secrets: readonly string[]): string {
	return secrets.reduce((out, secret) => (secret === '' ? out : out.split(secret).join('••••')), text);
}

/**
 * The error with every secret the request carried (a proxy URL with its password) masked wherever n8n shows or keeps
 * it: the message, the description, the service's answer the error holds and the node's parameters. A service that echoes a request field
 * in its reply must not bring it into the execution log.
 */
export function withoutSecrets<E extends Error>(error: E, secrets: readonly string[]): E {
	if (secrets.length === 0) return error;
	const held = error as unknown as Record<string, unknown>;
	// `node` is n8n's copy of the node (its parameters hold the value as entered), made for this error.
	for (const key of ['message', 'description', 'messages', 'errorResponse', 'cause', 'context', 'node']) {
		const value = held[key];
		if (typeof value === 'string') held[key] = masked(value, secrets);
		else if (value !== null && typeof value === 'object' && !(value instanceof Error)) held[key] = JSON.parse(masked(JSON.stringify(value), secrets)) as unknown;
	}
	return error;
}
