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

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
	const raw = Array.isArray(value) ? value[0] : value;
	if (raw === undefined || raw.trim() === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(raw.trim())) return Math.round(Number(raw) * 1000);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter, so parallel clients do not retry in lockstep. */
function backoffDelay(attempt: number, policy: RetryPolicy): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/**
 * The retries one request has left under a policy: waits on 429 (Retry-After, else backoff) within the time budget
 * and count, and backoff after 5xx or no answer up to `readRetries`. Each method returns the pause to take before
 * asking again, or undefined when the policy gives up; the caller pauses (so a stop can end it) and says why.
 */
export class RetryBudget {
	/** Pauses taken after 5xx or no answer. */
	attempts = 0;
	rateLimitRetries = 0;
	rateLimitWaitedMs = 0;
	/** The Retry-After (ms) that was longer than the budget left, when that ended the 429 retries. */
	refusedWaitMs: number | undefined;

	constructor(readonly policy: RetryPolicy) {}

	/** The pause before asking again after a 429 with `retryAfter`; undefined once the budget or count is spent. */
	afterRateLimit(retryAfter: string | string[] | undefined): number | undefined {
		const wait = parseRetryAfter(retryAfter) ?? backoffDelay(this.rateLimitRetries, this.policy);
		const withinBudget = this.rateLimitWaitedMs + wait <= this.policy.rateLimitBudgetMs;
		if (!withinBudget || this.rateLimitRetries >= this.policy.rateLimitRetries) {
			this.refusedWaitMs = withinBudget ? undefined : wait;
			return undefined;
		}
		this.rateLimitWaitedMs += wait;
		this.rateLimitRetries++;
		return wait;
	}

	/** The pause before asking again after a 5xx or no answer; undefined once the retries are used up. */
	afterFailure(): number | undefined {
		if (this.attempts >= this.policy.readRetries) return undefined;
		return backoffDelay(this.attempts++, this.policy);
	}
}
