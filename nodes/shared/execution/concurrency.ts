/**
 * How many requests of one credential may be in flight at once. Fixed, it is a plain semaphore. Adaptive (the
 * user's "Auto"), it finds the account's concurrency limit by itself, AIMD as TCP does: it starts at two and doubles
 * each round while answers succeed, halves on a 429, then climbs quickly back to just under the level that was
 * refused and probes above it only slowly (less often each time the same level is refused again), so it spends
 * most of its time at the account's limit and few requests are refused. It never goes above the user's maximum.
 */
export class RequestLimiter {
	private static readonly PROBE_ROUNDS = 4;
	private static readonly MAX_PROBE_ROUNDS = 32;

	private limit: number;
	/** Below it the limit doubles per round; from it on it grows by one per `probeRounds` rounds. */
	private threshold: number;
	/** Increases with every decrease: a 429 to a request sent before the last decrease is old news. */
	private epoch = 0;
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];
	/** Rounds at the threshold before probing one above it; doubles each time a probe at the same level is refused. */
	private probeRounds = RequestLimiter.PROBE_ROUNDS;
	/** The level the last round-opening refusal happened at. */
	private refusedAt = 0;

	constructor(
		readonly max: number,
		readonly adaptive: boolean,
	) {
		this.limit = adaptive ? Math.min(2, max) : max;
		this.threshold = max;
	}

	/** The number of requests allowed in flight now. */
	get current(): number {
		return Math.floor(this.limit);
	}

	/** Waits for a slot; returns the epoch the request is sent in, to hand back with its outcome. */
	async acquire(signal?: AbortSignal): Promise<number> {
		while (this.inFlight >= this.current) {
			if (signal?.aborted) throw new Error('aborted');
			await new Promise<void>((resolve) => {
				const wake = () => {
					signal?.removeEventListener('abort', wake);
					resolve();
				};
				this.waiting.push(wake);
				signal?.addEventListener('abort', wake, { once: true });
			});
		}
		this.inFlight++;
		return this.epoch;
	}

	/** Frees the slot of a request that got its answer (or failed); `rateLimited` for a 429. */
	release(epoch: number, outcome: 'ok' | 'rateLimited' | 'other'): void {
		this.inFlight--;
		if (this.adaptive && outcome === 'ok') this.grow();
		if (outcome === 'rateLimited') this.shrink(epoch);
		this.wake();
	}

	private grow(): void {
		// One success of a round of `current` requests: doubling per round below the threshold, +1 per PROBE_ROUNDS above.
		const step = this.limit < this.threshold ? 1 : 1 / (this.probeRounds * this.current);
		const ceiling = this.limit < this.threshold ? Math.min(this.threshold, this.max) : this.max;
		this.limit = Math.min(ceiling, this.limit + step);
	}

	private shrink(epoch: number): void {
		if (!this.adaptive) return;
		if (epoch === this.epoch) {
			// The first refusal of this round: halve, and come back quickly to just under the level refused. The same
			// level refused again means the account's limit has not moved: probe it less often.
			this.probeRounds = this.current === this.refusedAt ? Math.min(this.probeRounds * 2, RequestLimiter.MAX_PROBE_ROUNDS) : RequestLimiter.PROBE_ROUNDS;
			this.refusedAt = this.current;
			this.threshold = Math.max(1, this.current - 1);
			this.limit = Math.max(1, Math.floor(this.current / 2));
			this.epoch++;
		} else {
			// More refusals of the same round: the account's limit is that much lower.
			this.threshold = Math.max(1, this.threshold - 1);
			this.limit = Math.min(this.limit, this.threshold);
		}
	}

	private wake(): void {
		// Wake everyone waiting: each checks again whether a slot is free (the limit may have grown by several).
		for (const wake of this.waiting.splice(0)) wake();
	}
}
