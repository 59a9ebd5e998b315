import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { RequestLimiter } from '../execution/concurrency';
import type { NodeCall } from '../execution/call';
import { checkCredentials } from './credentials';
import { apiError, nodeOperationError } from '../execution/errors';
import { networkCause } from './network';
import { pause } from '../execution/pause';
import { DEFAULT_RETRY_POLICY, RetryBudget } from './retry';
import type { RetryPolicy } from './retry';
import { send } from './send';
import type { FullResponse } from './send';
import { networkError, notJsonError, uncertainStartError } from '../execution/unknownOutcome';
import type { ApiDefinition, ApiRequest } from './definition';

/** A 2xx answer: its body (parsed JSON, or the bytes of an `answer: 'bytes'` request) and its headers. */
export interface ApiAnswer<T> {
	body: T;
	headers: FullResponse['headers'];
}

/** A header's value as text (the first of repeated ones), trimmed; undefined when absent or blank. */
export function headerText(headers: FullResponse['headers'], name: string): string | undefined {
	const value = headers[name];
	return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/** A step of the retry loop: the answer to return, or "ask again" (after the pause the policy chose). */
type Step<T> = { done: true; answer: ApiAnswer<T> } | { done: false };
const AGAIN = { done: false } as const;

/** One request's way through the retry policy: the counts it keeps and the errors it ends with. */
class RequestAttempts<T> {
	private readonly retries: RetryBudget;

	private readonly signal: AbortSignal | undefined;

	private readonly limiter: RequestLimiter | undefined;

	constructor(
		private readonly call: NodeCall,
		private readonly api: ApiDefinition,
		private readonly request: ApiRequest,
		private readonly itemIndex: number,
		policy: RetryPolicy,
	) {
		this.retries = new RetryBudget(policy);
		this.signal = call.cancelSignal;
		this.limiter = call.limiter;
	}

	async send(credentials: ICredentialDataDecryptedObject): Promise<ApiAnswer<T>> {
		const headers: Record<string, string> = { 'user-agent': 'n8n-nodes-scraper-service', ...this.request.headers };
		for (;;) {
			const response = await this.exchange(credentials, headers);
			const step = response === undefined ? AGAIN : await this.judge(response);
			if (step.done) return step.answer;
		}
	}

	/** Sends once within a slot of the call's limiter; undefined when a network failure is retried. */
	private async exchange(credentials: ICredentialDataDecryptedObject, headers: Record<string, string>): Promise<FullResponse | undefined> {
		const { signal, limiter } = this;
		// Once stopped, nothing more is sent, whatever n8n's HTTP client does with a signal already aborted.
		if (signal?.aborted) throw this.canceled();
		// With Parallel Requests, a slot of the call's limiter: held while the request is out, not while it waits.
		const epoch = limiter ? await limiter.acquire(signal).catch(() => undefined) : 0;
		if (epoch === undefined || signal?.aborted) {
			if (epoch !== undefined) limiter?.release(epoch, 'other');
			throw this.canceled();
		}
		try {
			const response = await send(this.call.ctx, this.api, credentials, this.request, headers);
			limiter?.release(epoch, response.statusCode === 429 ? 'rateLimited' : response.statusCode < 500 ? 'ok' : 'other');
			return response;
		} catch (error) {
			limiter?.release(epoch, 'other');
			if (signal?.aborted) throw this.canceled();
			const cause = networkCause(error);
			if ((this.request.idempotent || cause.neverSent) && (await this.backOff())) return undefined;
			throw networkError(this.node(), {
				service: this.api.service,
				itemIndex: this.itemIndex,
				cause: cause.text,
				retried: this.retries.attempts > 0,
				mayHaveStarted: !this.request.idempotent && !cause.neverSent,
				started: this.request.started,
				urlField: this.request.host?.displayName,
			});
		}
	}

	/** What an HTTP answer means under the policy: the body, a retry, or an error for the user. */
	private async judge(response: FullResponse): Promise<Step<T>> {
		const { statusCode, body, headers } = response;
		const { request } = this;
		if (statusCode >= 200 && statusCode < 300) {
			const readable = request.answer === 'bytes' || body === undefined || body === '' || (body !== null && typeof body === 'object');
			if (readable) return { done: true, answer: { body: body as T, headers } };
			// A 2xx whose body is not JSON: the answer was cut or garbled on the way.
			if (request.idempotent && (await this.backOff())) return AGAIN;
			throw notJsonError(this.node(), this.api, request, { itemIndex: this.itemIndex, contentType: headers['content-type'], retried: this.retries.attempts });
		}
		if (statusCode === 429) {
			const wait = this.retries.afterRateLimit(headers['retry-after']);
			if (wait !== undefined) {
				await pause(wait, this.signal);
				return AGAIN;
			}
		} else if (statusCode >= 500 && request.idempotent && (await this.backOff())) {
			return AGAIN;
		} else if (statusCode >= 500 && !request.idempotent) {
			throw uncertainStartError(this.node(), { service: this.api.service, status: statusCode, body, started: request.started, itemIndex: this.itemIndex });
		}
		throw apiError(this.node(), {
			status: statusCode,
			body,
			itemIndex: this.itemIndex,
			service: this.api.service,
			credentialName: this.api.credentialName,
			subject: request.subject,
			rateLimitRetries: this.retries.rateLimitRetries,
		});
	}

	/** Waits before the next read attempt; false when the policy's read retries are used up. */
	private async backOff(): Promise<boolean> {
		const wait = this.retries.afterFailure();
		if (wait === undefined) return false;
		await pause(wait, this.signal);
		return true;
	}

	// n8n's getNode() deep-copies the node: read it only for an error, not on every request.
	private node() {
		return this.call.ctx.getNode();
	}

	private canceled() {
		return nodeOperationError(this.node(), 'The execution was canceled while waiting for ' + this.api.service, {
			itemIndex: this.itemIndex,
			description: 'Nothing more was sent. Run the workflow again when you are ready.',
		});
	}
}

/**
 * Sends one authenticated request through n8n's HTTP helper and applies the project's retry policy:
 * - 429 is retried for every request (the service did not act on it), honouring Retry-After, within a time budget;
 * - 5xx, network errors and unreadable bodies are retried only for idempotent reads;
 * - every other status becomes an error with a message and a how-to-fix description.
 * The answer's body comes with its headers, for answers that report in headers (a page fetch's token usage).
 */
export async function apiRequest<T = IDataObject>(
	call: NodeCall,
	api: ApiDefinition,
	request: ApiRequest,
	itemIndex: number,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<ApiAnswer<T>> {
	const credentials = await call.credentialsOf(api.credentialType);
	checkCredentials(call.ctx, api, credentials, itemIndex);
	return await new RequestAttempts<T>(call, api, request, itemIndex, policy).send(credentials);
}
