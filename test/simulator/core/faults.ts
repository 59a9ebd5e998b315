import { SeededRandom } from './random';

/**
 * Faults a test can inject into a simulated service:
 * - `status`: answer with this status (and the section's documented body for it) instead of handling;
 * - `reset`: destroy the connection without an answer;
 * - `slow`: wait `delayMs` (real time) before handling normally;
 * - `malformed`: answer 200 with a truncated JSON body.
 */
export type FaultKind = 'status' | 'reset' | 'slow' | 'malformed';

export interface FaultSpec {
	kind: FaultKind;
	/** Route names (`METHOD /pattern`) it applies to; all routes when omitted. */
	routes?: string[];
	/** Probability per matching request, 0..1 (seeded, reproducible). Default 1. */
	rate?: number;
	/** How many times it may fire before it is spent; unlimited when omitted. */
	times?: number;
	/** Matching requests it lets through before it starts firing (e.g. a job found once, then gone). Default 0. */
	afterRequests?: number;
	/** For `status`. */
	status?: number;
	/** For `status` 429: the Retry-After header value in seconds. */
	retryAfterSeconds?: number;
	/** For `status`: a body replacing the section's default body for that status. */
	body?: unknown;
	/** For `slow`. */
	delayMs?: number;
}

export interface ActiveFault extends FaultSpec {
	id: number;
	fired: number;
	/** Matching requests let through so far under `afterRequests`. */
	passed: number;
}

export class FaultInjector {
	private faults: ActiveFault[] = [];
	private nextId = 1;
	private random: SeededRandom;

	constructor(seed: number | string = 'faults') {
		this.random = new SeededRandom(seed);
	}

	/** Adds a fault; returns a function that removes it. */
	add(spec: FaultSpec): () => void {
		const fault: ActiveFault = { ...spec, id: this.nextId++, fired: 0, passed: 0 };
		this.faults.push(fault);
		return () => {
			this.faults = this.faults.filter((f) => f.id !== fault.id);
		};
	}

	clear(): void {
		this.faults = [];
	}

	/** How often each active fault has fired so far. */
	fired(): number {
		return this.faults.reduce((sum, f) => sum + f.fired, 0);
	}

	/** The faults that fire for this request, in the order they were added (at most one of each kind). */
	pick(route: string): ActiveFault[] {
		const chosen: ActiveFault[] = [];
		for (const fault of this.faults) {
			if (fault.routes && !fault.routes.includes(route)) continue;
			if (fault.times !== undefined && fault.fired >= fault.times) continue;
			if (fault.passed < (fault.afterRequests ?? 0)) {
				fault.passed++;
				continue;
			}
			if (chosen.some((c) => c.kind === fault.kind)) continue;
			const rate = fault.rate ?? 1;
			if (rate < 1 && this.random.next() >= rate) continue;
			fault.fired++;
			chosen.push(fault);
		}
		return chosen;
	}
}
