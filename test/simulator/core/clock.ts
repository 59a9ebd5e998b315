/**
 * Simulated time. It follows the real clock, plus an offset that tests move forward with `advance()`, so
 * long-running jobs (bulk reruns, marketplace runs) can finish without real waiting. State that changes over
 * time is derived from `now()` when it is read; nothing runs on timers.
 */
export class SimClock {
	private offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	date(): Date {
		return new Date(this.now());
	}

	iso(): string {
		return this.date().toISOString();
	}

	advance(ms: number): void {
		if (!(ms >= 0)) throw new Error(`SimClock.advance: ms must be >= 0, got ${ms}`);
		this.offsetMs += ms;
	}
}
