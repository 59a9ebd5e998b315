/**
 * Per-account concurrency limit: how many requests of one account may be in flight (from arrival until the answer
 * is sent) at the same time. A request over the limit is refused at once; it never counts as in flight.
 * Statistics (peak in flight, refusals) are kept per account for tests and benchmarks.
 */

/** Whole seconds of the `Retry-After` header on a concurrency 429 (see `RETRY_AFTER_CONCURRENCY_SECONDS`). */
export const RETRY_AFTER_CONCURRENCY_SECONDS = 1;

export interface ConcurrencyStats {
	/** Highest number of the account's requests in flight at once since the last reset. */
	peak: number;
	/** Requests answered 429 because the account already had its limit in flight, since the last reset. */
	refused: number;
	/** The account's requests in flight now. */
	inFlight: number;
}

interface AccountState {
	inFlight: number;
	peak: number;
	refused: number;
}

export class ConcurrencyLimiter {
	private readonly accounts = new Map<string, AccountState>();

	private state(key: string): AccountState {
		let state = this.accounts.get(key);
		if (!state) {
			state = { inFlight: 0, peak: 0, refused: 0 };
			this.accounts.set(key, state);
		}
		return state;
	}

	/**
	 * Takes a slot for `key` when it has fewer than `limit` requests in flight; returns the function that frees it
	 * (idempotent). Returns undefined, and counts a refusal, when the account is at its limit.
	 */
	acquire(key: string, limit: number): (() => void) | undefined {
		const state = this.state(key);
		if (state.inFlight >= limit) {
			state.refused++;
			return undefined;
		}
		state.inFlight++;
		state.peak = Math.max(state.peak, state.inFlight);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			state.inFlight--;
		};
	}

	stats(key: string): ConcurrencyStats {
		const { peak, refused, inFlight } = this.state(key);
		return { peak, refused, inFlight };
	}

	/**
	 * Restarts the statistics of one account, or of every account: `refused` to 0, `peak` to the requests in flight
	 * now. Requests in flight stay counted (they still hold their slots).
	 */
	resetStats(key?: string): void {
		const states = key === undefined ? [...this.accounts.values()] : [this.state(key)];
		for (const state of states) {
			state.refused = 0;
			state.peak = state.inFlight;
		}
	}
}

/**
 * Default concurrency limit per plan, from the public facts ("Limits are per account concurrency (free 10, pro
 * 100)"). `enterprise` has no published figure: it gets pro's, the highest documented one.
 */
export const CONCURRENCY_BY_PLAN: Readonly<Record<string, number>> = { free: 10, pro: 100, enterprise: 100 };

/** The default limit of a plan; an unknown plan is treated as `free`, the lowest. */
export function planConcurrency(plan: string | undefined): number {
	return (plan !== undefined ? CONCURRENCY_BY_PLAN[plan] : undefined) ?? CONCURRENCY_BY_PLAN.free;
}
