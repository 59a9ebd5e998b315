import { sleep } from 'n8n-workflow';

export interface WaitOptions<T> {
	/** Reads the current state (one request). */
	read: () => Promise<T>;
	isDone: (state: T) => boolean;
	/** Give up after this long and return the latest state. */
	maxWaitMs: number;
	initialDelayMs?: number;
	maxDelayMs?: number;
}

export interface WaitOutcome<T> {
	state: T;
	done: boolean;
	polls: number;
	waitedMs: number;
}

/**
 * Polls until `isDone` or until `maxWaitMs` has passed, backing off from `initialDelayMs` (x1.5 each poll) up
 * to `maxDelayMs`. It never waits past the deadline: on time-out it returns the latest state read.
 */
export async function waitForCompletion<T>(options: WaitOptions<T>): Promise<WaitOutcome<T>> {
	const { read, isDone, maxWaitMs } = options;
	let delay = options.initialDelayMs ?? 1_000;
	const maxDelay = options.maxDelayMs ?? 15_000;
	const started = Date.now();
	const elapsed = () => Date.now() - started;
	let state = await read();
	let polls = 1;
	while (!isDone(state) && elapsed() < maxWaitMs) {
		await sleep(Math.max(0, Math.min(delay, maxWaitMs - elapsed())));
		delay = Math.min(maxDelay, Math.round(delay * 1.5));
		state = await read();
		polls++;
	}
	return { state, done: isDone(state), polls, waitedMs: elapsed() };
}
