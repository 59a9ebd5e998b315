/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark code in plain Node: it calls the garbage collector that --expose-gc exposes */

/** Median of the samples (mean of the two middle ones for an even count). */
export function median(samples: readonly number[]): number {
	if (samples.length === 0) return Number.NaN;
	const sorted = [...samples].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Figure 5's cases: the gateway's 20 MB screenshot, a 10,000-record bulk job, 100 Page > Fetch screenshots. */
export const MEMORY_CASES = ['screenshot', 'bulk', 'pageScreenshots'] as const;
export type MemoryCaseName = (typeof MEMORY_CASES)[number];

export interface BenchSettings {
	/** Measured repetitions per variant (the figure is their median). */
	reps: number;
	/** Unmeasured repetitions before them. */
	warmups: number;
	/** Progress lines go here (stderr), never into RESULTS.md. */
	log: (line: string) => void;
	/** Figure 5 only: which memory cases to run (default all). */
	memoryCases?: MemoryCaseName[];
}

/** Full garbage collection when Node runs with --expose-gc (as `npm run bench` does); otherwise nothing. */
export function collectGarbage(): void {
	(globalThis as { gc?: () => void }).gc?.();
}

/** A repetition's wall time in milliseconds, measured around `fn`. */
export async function wallMs(fn: () => Promise<unknown>): Promise<number> {
	const start = performance.now();
	await fn();
	return performance.now() - start;
}

/**
 * Runs every variant `warmups + reps` times and returns the measured wall times per variant. The variants take
 * turns inside each repetition, in an order that changes, so load from other processes on a shared machine and
 * any drift (heap growth, JIT) fall on all of them alike rather than on whichever runs last. Garbage is collected
 * before each timed run.
 */
export async function interleaved<K extends string>(
	settings: BenchSettings,
	label: string,
	variants: Record<K, () => Promise<unknown>>,
): Promise<Record<K, number[]>> {
	const names = Object.keys(variants) as K[];
	const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
	const total = settings.warmups + settings.reps;
	for (let rep = 0; rep < total; rep++) {
		// Rotate, and reverse every other repetition, so no variant always follows the same one.
		const rotated = names.map((_, i) => names[(i + rep) % names.length]);
		const order = rep % 2 === 1 ? rotated.reverse() : rotated;
		const line: string[] = [];
		for (const name of order) {
			// The garbage one variant leaves would otherwise be collected during the next one's timing.
			collectGarbage();
			const ms = await withRetry(settings, `${label} ${name}`, () => wallMs(variants[name]));
			if (rep >= settings.warmups) samples[name].push(ms);
			line.push(`${name} ${ms.toFixed(0)} ms`);
		}
		settings.log(`  ${label} ${rep < settings.warmups ? 'warm-up' : `rep ${rep - settings.warmups + 1}/${settings.reps}`}: ${line.join(', ')}`);
	}
	return samples;
}

/** Failures of the environment (e.g. the local chain timing out under load) seen and retried during the run. */
export const retried: string[] = [];

/**
 * Runs a repetition again (at most twice) when it fails: on a shared machine the simulated chain can time out
 * under load. The failure is kept in `retried` and listed in RESULTS.md; a third failure ends the run.
 */
export async function withRetry<T>(settings: BenchSettings, what: string, fn: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await fn();
		} catch (error) {
			// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- benchmark code in plain Node, not a node: the run ends with the original error
			if (attempt >= 3) throw error;
			const message = (error as Error).message.split('\n')[0].slice(0, 300);
			retried.push(`${what}: ${message}`);
			settings.log(`  ${what} failed, repeated: ${message}`);
		}
	}
}

export function round(value: number, digits = 2): number {
	const f = 10 ** digits;
	return Math.round(value * f) / f;
}
