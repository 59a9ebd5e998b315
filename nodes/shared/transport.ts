import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import { requestLimiterOf } from './concurrency';
import { apiError, networkError, nodeOperationError, notJsonError } from './errors';
import { pause } from './pause';
import { controlCharacterAt, InputValidator } from './validation';
import type { ErrorSubject } from './errors';

export type RequestContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** One API the nodes talk to: which credential authenticates it and how it is named to the user. */
export interface ApiDefinition {
	credentialType: string;
	credentialName: string;
	service: string;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's base URL, e.g. `/api/v1/results`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	headers?: Record<string, string>;
	/**
	 * True for reads: a repeat cannot start a second job, so 5xx and network errors are retried.
	 * Creates, reruns and bulk starts are never repeated after a failure that may have reached the service.
	 */
	idempotent: boolean;
	/** What an id in the path refers to, for 403/404 messages. */
	subject?: ErrorSubject;
	/** Response deadline in milliseconds. */
	timeoutMs?: number;
}

/** How long and how often the node waits for the service before it gives up. */
export interface RetryPolicy {
	/** Total time the node may spend waiting on 429 answers for one request. */
	rateLimitBudgetMs: number;
	/** Most 429 retries for one request, so `Retry-After: 0` forever cannot loop forever. */
	rateLimitRetries: number;
	/** Retries of a read after 5xx or a network error. */
	readRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	rateLimitBudgetMs: 120_000,
	rateLimitRetries: 30,
	readRetries: 3,
	baseDelayMs: 1_000,
	maxDelayMs: 30_000,
};

/**
 * For the triggers' polls: a poll runs again at the next interval anyway, so it retries briefly instead of holding
 * the trigger: a short Retry-After is honoured, a long one fails this poll (its state stays, nothing is lost).
 */
export const TRIGGER_RETRY_POLICY: RetryPolicy = {
	rateLimitBudgetMs: 10_000,
	rateLimitRetries: 10,
	readRetries: 2,
	baseDelayMs: 500,
	maxDelayMs: 2_000,
};

const DEFAULT_TIMEOUT_MS = 120_000;

interface FullResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

/**
 * One request through n8n's own helper: the credential's `authenticate` adds the token, and n8n's proxy settings,
 * outbound request rules and the execution's cancel signal apply as to n8n's own nodes. HTTP statuses come back as
 * answers (our retry policy and messages decide); only a request that got no answer throws.
 */
async function send(
	ctx: RequestContext,
	api: ApiDefinition,
	credentials: ICredentialDataDecryptedObject,
	request: ApiRequest,
	headers: Record<string, string>,
): Promise<FullResponse> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${trimBaseUrl(credentials.baseUrl)}${request.path}`,
		qs: request.qs,
		// An empty object is no body, as the helper treats it: e.g. a run without URL overrides sends none.
		body: request.body,
		// A copy: the helper adds the credential's header to the object it is given.
		headers: { ...headers },
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	// The credentials this execution already decrypted: n8n would otherwise decrypt them again for every request.
	const credentialsDecrypted = { id: api.credentialType, name: api.credentialName, type: api.credentialType, data: credentials };
	const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, api.credentialType, options, {
		credentialsDecrypted,
	})) as FullResponse;
	return { statusCode: response.statusCode, headers: response.headers ?? {}, body: readBody(response.body) };
}

/** JSON is read by its content, whatever the content type says; an empty answer is no body. */
function readBody(body: unknown): unknown {
	if (body === '' || body === null) return undefined;
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		// Not JSON: left as text, which the caller treats as a garbled answer.
		return body;
	}
}

// Credentials are decrypted once per execution, not once per item.
const credentialCache = new WeakMap<object, Map<string, Promise<ICredentialDataDecryptedObject>>>();

export async function getCachedCredentials(
	ctx: RequestContext,
	credentialType: string,
): Promise<ICredentialDataDecryptedObject> {
	// A poll context lives as long as the workflow stays active: read afresh so a rotated token is used.
	if (!('getInputData' in ctx)) return await ctx.getCredentials(credentialType);
	let byType = credentialCache.get(ctx);
	if (!byType) {
		byType = new Map();
		credentialCache.set(ctx, byType);
	}
	let pending = byType.get(credentialType);
	if (!pending) {
		pending = ctx.getCredentials(credentialType);
		byType.set(credentialType, pending);
	}
	return await pending;
}

/**
 * The credential's fields checked before the first request, each failure naming the field: an empty or malformed
 * Base URL or token would otherwise surface as a misleading network or header error after retries. Both token
 * credentials name their fields `apiToken` (API Token) and `baseUrl` (Base URL); the Base URL follows the URL
 * spelling rules of every URL field.
 */
export function credentialProblem(credentials: ICredentialDataDecryptedObject): { field: string; rule: string; fix: string } | undefined {
	const token = credentials.apiToken;
	if (typeof token !== 'string' || token.trim() === '') {
		return { field: 'API Token', rule: 'it is empty', fix: 'Paste the token from the service dashboard into the credential.' };
	}
	if (controlCharacterAt(token) >= 0) {
		return { field: 'API Token', rule: 'it contains a line break, tab or other control character', fix: 'Paste the token again as one line, without anything before or after it.' };
	}
	if (token !== token.trim()) {
		return { field: 'API Token', rule: 'it starts or ends with a space', fix: 'Remove the spaces around the token.' };
	}
	const baseUrl = credentials.baseUrl;
	const fixUrl = 'Enter the address of the API, starting with https:// (or http://), e.g. https://api.example.com.';
	if (typeof baseUrl !== 'string' || baseUrl.trim() === '') return { field: 'Base URL', rule: 'it is empty', fix: fixUrl };
	const spelling = InputValidator.urlTextProblem(baseUrl.trim());
	if (spelling) return { field: 'Base URL', rule: `"${InputValidator.shownUrl(baseUrl)}" ${spelling.message}`, fix: spelling.fix };
	let url: URL;
	try {
		url = new URL(baseUrl.trim());
	} catch {
		return { field: 'Base URL', rule: `"${InputValidator.shownUrl(baseUrl)}" is not a URL`, fix: fixUrl };
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return { field: 'Base URL', rule: `only http and https are allowed, got "${url.protocol}"`, fix: fixUrl };
	}
	if (url.search || url.hash || url.username || url.password) {
		return { field: 'Base URL', rule: 'it must not carry a query, a fragment or a user name', fix: fixUrl };
	}
	return undefined;
}

/**
 * The credential check in words, for the credential's own Test button (its `authenticate` runs before the test
 * request): the same rule and fix a node run reports, so the user reads one message wherever the problem shows.
 */
export function credentialProblemMessage(credentialName: string, credentials: ICredentialDataDecryptedObject): string | undefined {
	const problem = credentialProblem(credentials);
	if (!problem) return undefined;
	return `Invalid "${problem.field}" in the "${credentialName}" credential: ${problem.rule}. ${problem.fix}`;
}

// Credentials already checked in this execution (decrypted once per execution, see getCachedCredentials).
const checkedCredentials = new WeakSet<ICredentialDataDecryptedObject>();

function checkCredentials(ctx: RequestContext, api: ApiDefinition, credentials: ICredentialDataDecryptedObject, itemIndex: number): void {
	if (checkedCredentials.has(credentials)) return;
	const problem = credentialProblem(credentials);
	if (problem) {
		throw nodeOperationError(ctx.getNode(), `Invalid "${problem.field}" in the "${api.credentialName}" credential: ${problem.rule}`, {
			itemIndex,
			description: `${problem.fix} Open the credential (${api.credentialName}) to fix it; nothing was sent.`,
		});
	}
	checkedCredentials.add(credentials);
}

export function trimBaseUrl(baseUrl: unknown): string {
	return String(baseUrl ?? '').replace(/\/+$/, '');
}

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined || raw.trim() === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter, so parallel clients do not retry in lockstep. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** System error codes of a request that got no answer, in words; the code itself is kept for a support request. */
const NETWORK_CAUSES: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset by the server',
	ETIMEDOUT: 'the request timed out',
	ECONNABORTED: 'the request timed out',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed',
	EPIPE: 'connection closed by the server',
};

/** A readable cause for a request that got no HTTP answer, without request details (they hold the token). */
export function describeNetworkCause(error: unknown): { text: string; neverSent: boolean } {
	const err = error as { code?: string; cause?: { code?: string }; message?: string; httpCode?: string | null };
	// n8n's HTTP helper wraps the client error in a NodeApiError that keeps the system code in `httpCode`.
	const wrappedCode = typeof err?.httpCode === 'string' && /^E[A-Z_]+$/.test(err.httpCode) ? err.httpCode : undefined;
	const code = err?.code ?? err?.cause?.code ?? wrappedCode;
	const neverSent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
	if (code && NETWORK_CAUSES[code]) return { text: `${NETWORK_CAUSES[code]} (${code})`, neverSent };
	const message = typeof err?.message === 'string' ? err.message : 'network error';
	// Keep only the first line: wrapped HTTP client errors can append request dumps.
	return { text: message.split('\n')[0].slice(0, 200), neverSent };
}

function isJsonBody(body: unknown): boolean {
	return body !== null && typeof body === 'object';
}

/**
 * Sends one authenticated request through n8n's HTTP helper and applies the project's retry policy:
 * - 429 is retried for every request (the service did not act on it), honouring Retry-After, within a time budget;
 * - 5xx, network errors and unreadable bodies are retried only for idempotent reads;
 * - every other status becomes an error with a message and a how-to-fix description.
 */
export async function apiRequest<T = IDataObject>(
	ctx: RequestContext,
	api: ApiDefinition,
	request: ApiRequest,
	itemIndex: number,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
	const credentials = await getCachedCredentials(ctx, api.credentialType);
	checkCredentials(ctx, api, credentials, itemIndex);
	const requestHeaders: Record<string, string> = { 'user-agent': 'n8n-nodes-scraper-service', ...request.headers };
	const signal = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	// n8n's getNode() deep-copies the node: read it only for an error, not on every request.
	const node = () => ctx.getNode();
	const canceled = () =>
		nodeOperationError(node(), 'The execution was canceled while waiting for ' + api.service, {
			itemIndex,
			description: 'Nothing more was sent. Run the workflow again when you are ready.',
		});
	let rateLimitWaited = 0;
	let rateLimitRetries = 0;
	let readAttempts = 0;

	const limiter = requestLimiterOf(ctx);

	for (;;) {
		let response: FullResponse;
		// Once stopped, nothing more is sent, whatever n8n's HTTP client does with a signal already aborted.
		if (signal?.aborted) throw canceled();
		// With Parallel Requests, a slot of the node's limiter: held while the request is out, not while it waits.
		const epoch = limiter ? await limiter.acquire(signal).catch(() => undefined) : 0;
		if (epoch === undefined || signal?.aborted) {
			if (epoch !== undefined) limiter?.release(epoch, 'other');
			throw canceled();
		}
		try {
			response = await send(ctx, api, credentials, request, requestHeaders);
			limiter?.release(epoch, response.statusCode === 429 ? 'rateLimited' : response.statusCode < 500 ? 'ok' : 'other');
		} catch (error) {
			limiter?.release(epoch, 'other');
			if (signal?.aborted) throw canceled();
			const cause = describeNetworkCause(error);
			const retryable = request.idempotent || cause.neverSent;
			if (retryable && readAttempts < policy.readRetries) {
				await pause(backoffDelay(readAttempts++, policy), signal);
				continue;
			}
			throw networkError(node(), {
				service: api.service,
				itemIndex,
				cause: cause.text,
				retried: readAttempts > 0,
				mayHaveStarted: !request.idempotent && !cause.neverSent,
			});
		}

		const { statusCode, body, headers } = response;
		if (statusCode >= 200 && statusCode < 300) {
			if (body === undefined || body === '' || isJsonBody(body)) return body as T;
			// A 2xx whose body is not JSON: the answer was cut or garbled on the way.
			if (request.idempotent && readAttempts < policy.readRetries) {
				await pause(backoffDelay(readAttempts++, policy), signal);
				continue;
			}
			throw notJsonError(node(), api, request, { itemIndex, contentType: headers['content-type'], retried: readAttempts });
		}

		if (statusCode === 429) {
			const wait = parseRetryAfter(headers['retry-after']) ?? backoffDelay(rateLimitRetries, policy);
			if (rateLimitWaited + wait <= policy.rateLimitBudgetMs && rateLimitRetries < policy.rateLimitRetries) {
				rateLimitWaited += wait;
				rateLimitRetries++;
				await pause(wait, signal);
				continue;
			}
		} else if (statusCode >= 500 && request.idempotent && readAttempts < policy.readRetries) {
			await pause(backoffDelay(readAttempts++, policy), signal);
			continue;
		}

		throw apiError(node(), {
			status: statusCode,
			body,
			itemIndex,
			service: api.service,
			credentialName: api.credentialName,
			subject: request.subject,
			rateLimitRetries,
		});
	}
}
