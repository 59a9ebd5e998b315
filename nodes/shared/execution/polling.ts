import { answeredStatus } from './errors';
import type { Unconfirmed } from './unknownOutcome';
import { NodeCall } from './call';
import type { NodeContext } from './call';
import { pause } from './pause';
import { DEFAULT_RETRY_POLICY } from '../transport/retry';
import type { RetryPolicy } from '../transport/retry';

interface WaitOptions<T> {
	/**
	 * Reads the current state (one request, with the transport's own retries) within `budgetMs`: past it the wait
	 * stops waiting on the read and fires `expired` (see `readBudget` and `stoppableCall` for a read that obeys both).
	 */
	read: (budgetMs: number, expired: AbortSignal) => Promise<T>;
	isDone: (state: T) => boolean;
	/** The state known before the wait (what the start answered, a read just made): the first read waits a pause. */
	initial?: T;
	/** Give up after this long and return the latest state. */
	maxWaitMs: number;
	initialDelayMs?: number;
	maxDelayMs?: number;
	/** The execution's cancel signal: a stopped workflow stops waiting. */
	signal?: AbortSignal;
}

/**
 * How a wait ended: done, out of time with the latest state read (`done` false), or `unconfirmed`: the work was
 * started but the wait could not follow it to the end (its reads kept failing until Max Wait, the service refused
 * them, or the execution was stopped). `state` is the latest state known, read or initial.
 */
type WaitOutcome<T> =
	| { state: T; done: boolean; unconfirmed?: undefined }
	| { state: T | undefined; done: false; unconfirmed: Unconfirmed };

/**
 * A status read the service refused for good (token, access, bad request): reading again cannot help. A 404 is for
 * good only once a read of this wait found the work (it was deleted since, and the wait says so): before, it may be
 * a service that does not list yet what it has just created, so the wait reads on.
 */
function isDefinitive(error: unknown, found: boolean): boolean {
	const status = answeredStatus(error) ?? 0;
	if (status === 404) return found;
	return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** The time a read started at (or after) Max Wait still gets, so the last read of a wait can answer. */
export const LAST_READ_MS = 10_000;
/** The transport's own timeout for one attempt, the most a read in a wait asks for. */
const ATTEMPT_TIMEOUT_MS = 120_000;

/**
 * A status read that fits `budgetMs`: each attempt times out within it, and the pauses between attempts are short
 * enough that the transport's retries mostly fit too (the wait stops waiting on the read at the budget anyway).
 */
export function readBudget(budgetMs: number): { timeoutMs: number; policy: RetryPolicy } {
	const ms = Math.max(1_000, Math.ceil(budgetMs));
	return {
		timeoutMs: Math.min(ATTEMPT_TIMEOUT_MS, ms),
		policy: {
			...DEFAULT_RETRY_POLICY,
			rateLimitBudgetMs: Math.min(DEFAULT_RETRY_POLICY.rateLimitBudgetMs, ms),
			maxDelayMs: Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, Math.max(DEFAULT_RETRY_POLICY.baseDelayMs, Math.round(ms / 4))),
		},
	};
}

/** A call of the node whose requests also stop when `stop` fires, sharing its credentials and limiter. */
class StoppableCall<C extends NodeContext> extends NodeCall<C> {
	constructor(
		private readonly base: NodeCall<C>,
		private readonly stop: AbortSignal,
	) {
		super(base.ctx, base.limiter);
	}

	override async credentialsOf(type: string) {
		return await this.base.credentialsOf(type);
	}

	override get cancelSignal(): AbortSignal {
		const own = this.base.cancelSignal;
		return own ? AbortSignal.any([own, this.stop]) : this.stop;
	}
}

/** `call` for a read the wait may give up on: once `expired` fires, the transport sends no further attempt. */
export function stoppableCall<C extends NodeContext>(call: NodeCall<C>, expired: AbortSignal): NodeCall<C> {
	return new StoppableCall(call, expired);
}

/** One read as the wait weighs it: a state, a read that failed, or one still out when its time was up. */
type ReadResult<T> = { state: T } | { failed: Error } | { late: true };

/**
 * Reads once, waiting at most until the deadline (or `LAST_READ_MS` from now, if later). A read still out then is
 * told to stop and its answer ignored: one read with retries could otherwise hold the wait for minutes.
 */
async function readBy<T>(read: WaitOptions<T>['read'], deadline: number): Promise<ReadResult<T>> {
	const budgetMs = Math.max(deadline - Date.now(), LAST_READ_MS);
	const done = new AbortController();
	const expired = new AbortController();
	const reading = read(budgetMs, expired.signal).then(
		(state): ReadResult<T> => ({ state }),
		(error: unknown): ReadResult<T> => ({ failed: error instanceof Error ? error : new Error(String(error)) }),
	);
	const late = pause(budgetMs, done.signal).then((): ReadResult<T> => ({ late: true }));
	try {
		const result = await Promise.race([reading, late]);
		// A read given up on sends no retry that would arrive after the node returned.
		if ('late' in result) expired.abort();
		return result;
	} finally {
		// Ends the timer of a read that answered in time.
		done.abort();
	}
}

/**
 * Polls until `isDone` or until `maxWaitMs` has passed, backing off from `initialDelayMs` (x1.5 each poll) up
 * to `maxDelayMs`. It never pauses past the deadline, and waits on a read no longer than the deadline (the last
 * read, `LAST_READ_MS`). A read that fails after the transport's retries does not end the wait: the work was
 * started and goes on in the service, so the wait reads again at the next interval until the deadline. On time-out
 * it returns the latest state read; when the last read failed, was refused for good or the execution was stopped,
 * or no state was ever known, it returns the latest state known and why it could not confirm the end.
 */
export async function waitForCompletion<T>(options: WaitOptions<T>): Promise<WaitOutcome<T>> {
	const { read, isDone, maxWaitMs, signal } = options;
	let delay = options.initialDelayMs ?? 1_000;
	const maxDelay = options.maxDelayMs ?? 15_000;
	const started = Date.now();
	const deadline = started + maxWaitMs;
	const elapsed = () => Date.now() - started;
	let state = options.initial;
	let failed: Error | undefined;
	let found = false;
	const attempt = async () => {
		const result = await readBy(read, deadline);
		if ('state' in result) [state, failed, found] = [result.state, undefined, true];
		else if ('failed' in result) failed = result.failed;
		// A late read changes nothing known; the deadline has passed, so the loop ends.
	};
	// A known first state (what the start answered, or a read just made) is not read again before the first pause.
	if (state === undefined) await attempt();
	for (;;) {
		if (signal?.aborted) return { state, done: false, unconfirmed: { why: 'stopped' } };
		if (failed && isDefinitive(failed, found)) return { state, done: false, unconfirmed: { why: answeredStatus(failed) === 404 ? 'deleted' : 'unreadable', cause: failed } };
		if (!failed && state !== undefined && isDone(state)) return { state, done: true };
		if (elapsed() >= maxWaitMs) break;
		// A stopped execution ends the pause at once; the loop then says so.
		await pause(Math.min(delay, maxWaitMs - elapsed()), signal);
		delay = Math.min(maxDelay, Math.round(delay * 1.5));
		await attempt();
	}
	if (failed) return { state, done: false, unconfirmed: { why: 'unreadable', cause: failed } };
	if (state === undefined) return { state, done: false, unconfirmed: { why: 'unreadable', cause: new Error(`no status answer within ${Math.round((maxWaitMs + LAST_READ_MS) / 1000)} s`) } };
	return { state, done: false };
}
