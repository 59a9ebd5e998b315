/**
 * The admission of one request (see `SimRequest.admit`): the account's concurrency slot it holds until its answer is
 * sent, and the route's latency it waits, once: in flight right after admission, or before the answer when it was
 * never admitted. A concurrency 429 waits nothing.
 */
import { RETRY_AFTER_CONCURRENCY_SECONDS, type ConcurrencyLimiter } from './concurrency';
import type { SimReply } from './http';
import type { RealTimeWaits } from './waits';

interface AdmissionContext {
	concurrency: ConcurrencyLimiter;
	waits: RealTimeWaits;
	/** The route's latency in ms (0 for none), read when the wait starts. */
	latencyMs: () => number;
	/** The section's documented body for an error status. */
	errorBody: (status: number) => unknown;
}

export class Admission {
	private releaseSlot: (() => void) | undefined;
	private latencyWaited = false;
	private refusedForConcurrency = false;
	/** The simulator closed during the latency: the request must be dropped. */
	aborted = false;

	constructor(private readonly context: AdmissionContext) {}

	/** `SimRequest.admit`: undefined when admitted, else the answer to send instead (429, or 503 when closed meanwhile). */
	readonly admit = async (account: string, limit: number): Promise<SimReply | undefined> => {
		if (this.releaseSlot || this.latencyWaited || this.refusedForConcurrency) return undefined;
		this.releaseSlot = this.context.concurrency.acquire(account, limit);
		if (!this.releaseSlot) {
			this.refusedForConcurrency = true;
			return {
				status: 429,
				json: this.context.errorBody(429),
				headers: { 'retry-after': String(RETRY_AFTER_CONCURRENCY_SECONDS) },
			};
		}
		if (!(await this.waitLatency())) return { status: 503, json: this.context.errorBody(503) };
		return undefined;
	};

	/** Before the answer: a request that was never admitted waits the route's latency now (a concurrency 429 does not). */
	async beforeAnswer(): Promise<void> {
		if (!this.latencyWaited && !this.refusedForConcurrency) await this.waitLatency();
	}

	/** The answer is sent (or the request dropped): the account's slot is free. */
	release(): void {
		this.releaseSlot?.();
	}

	private async waitLatency(): Promise<boolean> {
		this.latencyWaited = true;
		const completed = await this.context.waits.sleep(this.context.latencyMs());
		if (!completed) this.aborted = true;
		return completed;
	}
}
