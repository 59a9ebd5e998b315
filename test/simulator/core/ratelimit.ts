/**
 * Fixed-window rate limit per key: at most `limit` requests per `ttlSeconds` window of simulated time.
 * Returns the seconds until the window resets when a request is over the limit.
 */
export class RateLimiter {
	private windows = new Map<string, { start: number; count: number }>();

	constructor(private readonly now: () => number) {}

	/** Counts one request; returns undefined when allowed, or the Retry-After seconds when limited. */
	hit(key: string, limit: number, ttlSeconds: number): number | undefined {
		const now = this.now();
		const ttlMs = ttlSeconds * 1000;
		let window = this.windows.get(key);
		if (!window || now - window.start >= ttlMs) {
			window = { start: now, count: 0 };
			this.windows.set(key, window);
		}
		if (window.count >= limit) return Math.max(1, Math.ceil((window.start + ttlMs - now) / 1000));
		window.count++;
		return undefined;
	}

	/** Starts a new window for one key, or for every key when none is given. */
	reset(key?: string): void {
		if (key === undefined) this.windows.clear();
		else this.windows.delete(key);
	}
}
