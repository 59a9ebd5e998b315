import type { INode } from 'n8n-workflow';

import { pause } from '../../../../nodes/shared/execution/pause';
import { DEFAULT_RETRY_POLICY, RetryBudget } from '../../../../nodes/shared/transport/retry';
import type { RetryPolicy } from '../../../../nodes/shared/transport/retry';
import { canceledBeforePayment, priceUnavailable, statusError, unreachable } from './errors';
import type { Discovery, RequirementCache } from './requirementCache';
import type { PaidRequest, Send } from './request';
import type { HttpAnswer, HttpFailure } from '../transport/transport';

/** What the unpaid price request needs: where it sends, where a price is checked and kept, and when to stop. */
interface PriceRequestDeps {
	node: INode;
	send: Send;
	requirements: RequirementCache;
	/** The execution's cancel signal: once it fires, nothing more is sent. */
	signal?: AbortSignal;
	/** The shared retry policy of requests that spend nothing (`nodes/shared/transport/retry.ts`). */
	policy?: RetryPolicy;
}

/**
 * The unpaid first request of a path, whose 402 names the price. It carries no payment header (there is nothing
 * here to sign with), so repeating it spends nothing, and it is retried as the core retries a read, with the same
 * policy and helpers: a 429 after `Retry-After` (or backoff) within the rate-limit budget and count, a 5xx or a
 * request that got no answer with exponential backoff and jitter, at most `readRetries` times. Each 402 is checked
 * against the credential's policy when it arrives (`RequirementCache.learn`), and only the requirement of the 402
 * that ends the loop is kept: what is signed afterwards is exactly what was checked, whatever earlier attempts said.
 * A stopped execution ends the waits and sends nothing more.
 */
export class PriceRequest {
	private readonly retries: RetryBudget;

	private attempts = 0;

	constructor(
		private readonly deps: PriceRequestDeps,
		private readonly request: PaidRequest,
	) {
		this.retries = new RetryBudget(deps.policy ?? DEFAULT_RETRY_POLICY);
	}

	/** Asks until a 402 (the price, checked) or a 2xx (no payment needed), or until the policy gives up. */
	async run(): Promise<Discovery> {
		for (;;) {
			if (this.deps.signal?.aborted) throw canceledBeforePayment(this.deps.node, this.request);
			this.attempts++;
			// A fresh, empty header set on every attempt: a price request never carries a payment.
			const outcome = await this.deps.send(this.request, {});
			const found = outcome.ok ? await this.judge(outcome.answer) : await this.noAnswer(outcome.failure);
			if (found) return found;
		}
	}

	/** An answer: the price or a free answer, undefined to ask again, or an error when the policy gives up. */
	private async judge(answer: HttpAnswer): Promise<Discovery | undefined> {
		const { node, requirements } = this.deps;
		if (answer.status === 402) return { kind: 'required', known: requirements.learn(this.request, answer) };
		if (answer.status >= 200 && answer.status < 300) return { kind: 'free', answer };
		if (answer.status < 500 && answer.status !== 429) throw statusError(node, this.request, answer, undefined);
		const wait = answer.status === 429 ? this.retries.afterRateLimit(answer.headers['retry-after']) : this.retries.afterFailure();
		if (await this.pausedFor(wait)) return undefined;
		throw priceUnavailable(node, this.request, answer, {
			attempts: this.attempts,
			rateLimitWaitedMs: this.retries.rateLimitWaitedMs,
			refusedWaitMs: this.retries.refusedWaitMs,
			budgetMs: this.retries.policy.rateLimitBudgetMs,
		});
	}

	/** No answer (refused, reset, timed out): nothing was paid, so it is asked again while the policy allows. */
	private async noAnswer(failure: HttpFailure): Promise<undefined> {
		if (await this.pausedFor(this.retries.afterFailure())) return undefined;
		throw unreachable(this.deps.node, this.request, failure, this.attempts);
	}

	/** Takes the pause the budget gave (a stop ends it); false when the budget gave none. */
	private async pausedFor(wait: number | undefined): Promise<boolean> {
		if (wait === undefined) return false;
		await pause(wait, this.deps.signal);
		return true;
	}
}
