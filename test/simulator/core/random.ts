/** Small seeded PRNG (mulberry32) so fault storms and generated data are reproducible run to run. */
export class SeededRandom {
	private state: number;

	constructor(seed: number | string = 1) {
		this.state = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
	}

	/** A float in [0, 1). */
	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(minInclusive: number, maxInclusive: number): number {
		return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}
}

/** FNV-1a: a stable 32-bit hash, used to derive per-URL deterministic data. */
export function hashString(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}
