import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';


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
const agentAnswers = new WeakMap<Error, string>();

/** Marks `error` as one an agent can act on, answered with `sentence`. */
export function answerableByAgent<E extends Error>(error: E, sentence: string): E {
	agentAnswers.set(error, sentence);
	return error;
}

/** Marks `error` as a refusal (nothing sent, nothing signed); `forAgent` defaults to its message and description. */
export function refusal<E extends Error & { description?: string | null }>(error: E, forAgent?: string): E {
	const sentences = [error.message, error.description].filter((text): text is string => !!text).map((text) => (/[.!?]$/.test(text) ? text : `${text}.`));
	return answerableByAgent(error, forAgent ?? sentences.join(' '));
}

/** The sentence for an AI agent when `error` is one it can act on, else undefined. */
export function agentAnswerFor(error: unknown): string | undefined {
	return error instanceof Error ? agentAnswers.get(error) : undefined;
}

/** What a 404 or 403 refers to, so the message can name the id the user typed. */
export interface ErrorSubject {
	/** e.g. "scraper", "bulk job", "result". */
	kind: string;
	id?: string | number;
}

export interface ApiFailure {
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

/** One problem an error body lists: `{ field, message }` (or `rule`), or plain text. */
export interface BodyIssue {
	field?: string;
	message?: string;
}

/** What an error body says, read once for every API: its `message`, its `error`, and the issues it lists. */
export interface ErrorBody {
	message?: string;
	error?: string;
	issues: BodyIssue[];
}

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string' && value !== '') return value;
	// `{ error: { message } }`, as some gateways and frameworks nest it.
	if (value && typeof value === 'object' && typeof (value as JsonObject).message === 'string') return (value as JsonObject).message as string;
	return undefined;
}

/** Reads an error body of any known shape; anything else reads as an empty one. */
export function readErrorBody(body: unknown): ErrorBody {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { issues: [] };
	const { message, error, issues, errors } = body as JsonObject;
	const list = Array.isArray(issues) ? issues : Array.isArray(errors) ? errors : [];
	return {
		message: textOf(message),
		error: textOf(error),
		issues: list.map((issue): BodyIssue => {
			if (!issue || typeof issue !== 'object') return { message: String(issue ?? '') };
			const { field, message: text, rule } = issue as JsonObject;
			const said = typeof text === 'string' ? text : typeof rule === 'string' ? rule : undefined;
			return { field: field === undefined || field === null ? undefined : String(field), message: said };
		}),
	};
}

/** `field: message` for each issue, as a 422 names them. */
function fieldErrors(body: ErrorBody): string[] {
	return body.issues
		.map(({ field, message }) => (field ? `${field}: ${message ?? 'invalid'}` : (message ?? '')))
		.filter(Boolean);
}

/**
 * Turns a documented error status into an error a no-code user can act on: the message says what happened,
 * the description says what to do. The raw body is kept (it never holds the token: requests are not echoed).
 */
export function apiError(node: INode, failure: ApiFailure): NodeApiError {
	const { status, body, itemIndex, service, credentialName, subject } = failure;
	const read = readErrorBody(body);
	const serviceMessage = read.message;
	const what = subject ? `${subject.kind}${subject.id !== undefined ? ` "${subject.id}"` : ''}` : 'resource';
	let message: string;
	let description: string;

	switch (true) {
		case status === 400: {
			message = `${service} rejected the request: ${serviceMessage ?? 'bad request'}`;
			description = 'Correct the parameter named in the message and run the node again.';
			break;
		}
		case status === 401: {
			message = `${service} did not accept the API token (401 Unauthorized)`;
			description = `Check the token in the '${credentialName}' credential: it may be mistyped, expired or revoked. Create a new token in the service dashboard if needed.`;
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
			const fields = fieldErrors(read);
			message = `${service} rejected the input: ${fields.length ? fields.join('; ') : (serviceMessage ?? 'validation failed')}`;
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

/**
 * What a request that is never repeated starts (a scraper, a run, a bulk job), and where the user looks for it: the
 * words of every message about a start whose outcome is unknown.
 */
export interface StartedWork {
	/** e.g. "the AI scraper and its first run". */
	what: string;
	/** e.g. "Look for it with Result > Get Many (newest first)". */
	check: string;
	/** What may have happened, after "may have"; "been created" when not said. */
	happened?: string;
}

/** Work nobody named: the words every start falls back to. */
const SOME_WORK: StartedWork = { what: 'the work', happened: 'started', check: "Check the service's results" };

/** What the user does about a start whose outcome is unknown: look, never run again blindly. */
function uncertainDescription(started: StartedWork): string {
	return `The node did not send the request again, so nothing runs twice. ${started.check} before running the node again: it may be there.`;
}

/**
 * A start (create, rerun, bulk start) answered 5xx: the service may have done it before failing to answer, so the
 * message says it may have been created and how to check, never "try again".
 */
export function uncertainStartError(
	node: INode,
	options: { service: string; status: number; body: unknown; started?: StartedWork; itemIndex: number },
): NodeApiError {
	const { service, status, body, itemIndex } = options;
	const started = options.started ?? SOME_WORK;
	const said = readErrorBody(body).message;
	const errorBody: JsonObject = body && typeof body === 'object' && !Array.isArray(body) ? (body as JsonObject) : { body: String(body ?? '') };
	return nodeApiError(node, errorBody, {
		message: `${service} answered ${status}${said ? ` (${said})` : ''}: ${started.what} may have ${started.happened ?? 'been created'}`,
		description: uncertainDescription(started),
		httpCode: String(status),
		itemIndex,
	});
}

/** A request that never got an HTTP answer (refused, reset, timed out, unreadable body). */
export function networkError(
	node: INode,
	options: { service: string; itemIndex: number; cause: string; retried: boolean; mayHaveStarted: boolean; started?: StartedWork },
): NodeApiError {
	const { service, itemIndex, cause, retried, mayHaveStarted } = options;
	if (mayHaveStarted) {
		const started = options.started ?? SOME_WORK;
		return nodeApiError(node, { message: cause }, {
			message: `The connection to ${service} ended before its answer (${cause}): ${started.what} may have ${started.happened ?? 'been created'}`,
			description: uncertainDescription(started),
			itemIndex,
		});
	}
	const description = `Check the base URL in the credential and your network${retried ? '; the node already retried' : ''}. Try again in a moment.`;
	return nodeApiError(node, { message: cause }, { message: `Could not reach ${service}: ${cause}`, description, itemIndex });
}

/**
 * A 2xx answer whose body is not JSON (JSON is read by content whatever the content type says, so this is text or
 * HTML): named by its endpoint, since the usual cause is a Base URL that points at a web page instead of the API.
 */
export function notJsonError(
	node: INode,
	api: { service: string; credentialName: string },
	request: { method: string; path: string; idempotent: boolean; started?: StartedWork },
	options: { itemIndex: number; contentType: string | string[] | undefined; retried: number },
): NodeApiError {
	const declared = Array.isArray(options.contentType) ? options.contentType[0] : options.contentType;
	const as = declared ? ` (declared as ${declared.split(';')[0].trim().slice(0, 60)})` : '';
	const fixUrl = `Check that the Base URL in the '${api.credentialName}' credential is the API's address, not a web page.`;
	const description = request.idempotent
		? `${options.retried > 0 ? `The node read it ${options.retried + 1} times. ` : ''}${fixUrl}`
		: `${uncertainDescription(request.started ?? SOME_WORK)} ${fixUrl}`;
	return nodeApiError(node, { message: 'answer is not JSON' }, {
		message: `${api.service} answered ${request.method} ${request.path} with something that is not JSON${as}`,
		description,
		itemIndex: options.itemIndex,
	});
}

/** Why the node could not confirm the end of work it started: the execution was stopped, or the status could not be read. */
export type Unconfirmed = { why: 'stopped' } | { why: 'unreadable'; cause: Error };

/** An error about work that was started: what a Continue On Fail item carries besides the message (ids, state). */
export interface StartedWorkError extends Error {
	startedWork?: IDataObject;
}

/**
 * Work the node started (a bulk job, scraping runs) whose end it could not confirm: the wait was stopped, or the
 * status could not be read until Max Wait. The message names the work; the description says not to start it again
 * and how to read it later; `carried` (its ids and the latest state known) goes into a Continue On Fail item. An AI
 * agent gets the same sentences, so it reads the ids instead of starting the work again.
 */
export function unconfirmedWorkError(
	node: INode,
	options: { work: string; unconfirmed: Unconfirmed; readLater: string; carried: IDataObject; itemIndex: number },
): NodeOperationError & StartedWorkError {
	const { work, unconfirmed, readLater, carried, itemIndex } = options;
	const message =
		unconfirmed.why === 'stopped'
			? `${work} was started; the execution was stopped before it finished`
			: `${work} was started, but its status could not be read: ${unconfirmed.cause.message.replace(/ \[item \d+\]$/, '')}`;
	const description = `Do not start it again: it goes on in the service. ${readLater}`;
	const error: NodeOperationError & StartedWorkError = nodeOperationError(node, message, { description, itemIndex });
	error.startedWork = carried;
	return answerableByAgent(error, `${message}. ${description}`);
}
