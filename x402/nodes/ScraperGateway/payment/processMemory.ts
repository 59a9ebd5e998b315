/**
 * A bounded memory of this n8n process, for what a node must remember between its runs and n8n tells it nothing
 * about when to forget: n8n does not tell a node when its execution ends, so nothing is dropped then or on a timer.
 * Entries are dropped only when one is asked for or kept: every entry not asked for during `idleMs`, and, while
 * `maxEntries` or more remain besides the one asked for, the one asked for least recently.
 */
export class ProcessMemory<V> {
	/** Map order is the order of the last ask (an ask re-inserts its entry): the least recently asked come first. */
	private readonly entries = new Map<string, { value: V; touched: number }>();

	constructor(
		private readonly limits: { idleMs: number; maxEntries: number },
		private readonly now: () => number = Date.now,
	) {}

	/** How many entries are kept. */
	get size(): number {
		return this.entries.size;
	}

	/** The value kept under `key`, asked for now; undefined when none is kept. */
	get(key: string): V | undefined {
		const held = this.entries.get(key);
		this.entries.delete(key);
		const now = this.now();
		this.drop(now);
		if (held) this.entries.set(key, { value: held.value, touched: now });
		return held?.value;
	}

	/** Keeps `value` under `key`, asked for now. */
	set(key: string, value: V): void {
		this.entries.delete(key);
		const now = this.now();
		this.drop(now);
		this.entries.set(key, { value, touched: now });
	}

	/** The value kept under `key`, else the one `make` gives, kept from now on. */
	take(key: string, make: () => V): V {
		const held = this.get(key);
		if (held !== undefined) return held;
		const made = make();
		this.set(key, made);
		return made;
	}

	/** Forgets `key`. */
	delete(key: string): void {
		this.entries.delete(key);
	}

	/** Drops, oldest first, the entries idle too long and those beyond the cap. */
	private drop(now: number): void {
		for (const [key, held] of this.entries) {
			if (now - held.touched < this.limits.idleMs && this.entries.size < this.limits.maxEntries) break;
			this.entries.delete(key);
		}
	}
}
