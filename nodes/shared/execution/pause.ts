import { sleep } from 'n8n-workflow';

/**
 * Node's timers hold at most 2^31-1 ms (about 24.8 days): a longer delay fires after 1 ms, which would turn a long
 * wait into a request storm. Every wait of the pack goes through `pause`, which never hands a timer more than this.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How often a pause looks at the execution's cancel signal: the Stop button ends a wait within this. */
const STEP_MS = 500;

/**
 * Waits `ms` milliseconds (any length, in steps no timer overflows), or less when the execution is stopped: it
 * then returns at once, and the caller's next request fails as canceled instead of being sent. Steps on n8n's
 * `sleep` rather than `sleepWithAbort`, which leaves a listener on the execution's signal after every wait.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	if (!(ms > 0)) return;
	const end = Date.now() + ms;
	for (;;) {
		const left = end - Date.now();
		if (left <= 0 || signal?.aborted) return;
		await sleep(Math.min(left, STEP_MS, MAX_TIMER_MS));
	}
}
