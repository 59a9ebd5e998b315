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
