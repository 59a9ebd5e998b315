import type { IDataObject, INode, JsonObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { answerableByAgent, nodeApiError, nodeOperationError, readErrorBody } from './errors';
import { BASE_URL } from '../transport/credentialFields';

/**
 * The messages of a request whose outcome the node cannot know, and of work it started but could not follow to the
 * end: no answer, an unreadable answer, a 5xx to a start, a wait that could not confirm. Each says what may have
 * happened and where to look, never "try again" where trying again could start the work twice.
 */

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
	options: { service: string; itemIndex: number; cause: string; retried: boolean; mayHaveStarted: boolean; started?: StartedWork; urlField?: string },
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
	// The credential field that holds the address this request went to: Base URL, or a host field (Fetch Base URL).
	const field = options.urlField ?? 'base URL';
	const description = `Check the ${field} in the credential and your network${retried ? '; the node already retried' : ''}. Try again in a moment.`;
	return nodeApiError(node, { message: cause }, { message: `Could not reach ${service}: ${cause}`, description, itemIndex });
}

/**
 * A 2xx answer whose body is not JSON (JSON is read by content whatever the content type says, so this is text or
 * HTML): named by its endpoint, since the usual cause is a Base URL that points at a web page instead of the API.
 */
export function notJsonError(
	node: INode,
	api: { service: string; credentialName: string },
	request: { method: string; path: string; idempotent: boolean; started?: StartedWork; host?: { displayName: string } },
	options: { itemIndex: number; contentType: string | string[] | undefined; retried: number },
): NodeApiError {
	const declared = Array.isArray(options.contentType) ? options.contentType[0] : options.contentType;
	const as = declared ? ` (declared as ${declared.split(';')[0].trim().slice(0, 60)})` : '';
	const fixUrl = `Check that the ${request.host?.displayName ?? BASE_URL.displayName} in the '${api.credentialName}' credential is the API's address, not a web page.`;
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
export type Unconfirmed = { why: 'stopped' } | { why: 'unreadable'; cause: Error } | { why: 'deleted'; cause: Error };

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
	const cause = unconfirmed.why === 'stopped' ? '' : unconfirmed.cause.message.replace(/ \[item \d+\]$/, '');
	const message = {
		stopped: `${work} was started; the execution was stopped before it finished`,
		unreadable: `${work} was started, but its status could not be read: ${cause}`,
		deleted: `${work} was started and then deleted while the node waited for it: ${cause}`,
	}[unconfirmed.why];
	const description =
		unconfirmed.why === 'deleted'
			? 'It was found while the node waited, then no longer: it no longer exists in the service, so nothing of it goes on and it cannot be read later. Start it again if you still need it.'
			: `Do not start it again: it goes on in the service. ${readLater}`;
	const error: NodeOperationError & StartedWorkError = nodeOperationError(node, message, { description, itemIndex });
	error.startedWork = carried;
	return answerableByAgent(error, `${message}. ${description}`);
}
