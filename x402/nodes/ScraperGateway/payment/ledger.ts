import { usdc } from './money';

/** Why a payment was not reserved: what this one would cost against what is already spent or committed. */
export interface OverBudget {
	amount: bigint;
	/** Settled or possibly settled, plus reserved by payments in flight. */
	used: bigint;
	/** Payments counted in `used`, by what they bought (e.g. "page"). */
	payments: ReadonlyMap<string, number>;
	limit: bigint;
}

/** What one paid call buys, in both numbers: ['page', 'pages']. */
export type Unit = readonly [one: string, many: string];

/** What a ledger has committed, as the execution keeps it between processes: atomic units as text, payments by unit. */
export interface SpendRecord {
	committed: string;
	payments: Record<string, number>;
}

/** Where a ledger's committed spend is kept beyond this process (the execution's own data, see `executionSpend.ts`). */
export interface SpendStore {
	read(): SpendRecord | undefined;
	write(record: SpendRecord): void;
}

/**
 * Debits of one wallet in one execution (the spend registry keeps one per execution id and paying wallet, see
 * `spendRegistry.ts`): settled, and reserved by payments whose outcome is pending or unknown.
 * Reservation is synchronous, so payments running at once (parallel items, parallel tool calls of an agent)
 * can never both take the last of the limit. Each commit and release is written to the execution's store, and a
 * store that holds more (the execution ran on in another process) raises the ledger to it.
 */
export class SpendLedger {
	committed = 0n;

	reserved = 0n;

	/** Payments reserved or committed (not released), by unit. */
	private readonly payments = new Map<string, number>();

	private store?: SpendStore;

	/**
	 * Keeps this ledger in `store` from now on (the latest run's: a resumed execution has new data), first taking
	 * from it what another process committed.
	 */
	keepIn(store: SpendStore | undefined): void {
		this.store = store;
		const record = store?.read();
		if (!record) return;
		const committed = BigInt(record.committed);
		if (committed > this.committed) this.committed = committed;
		for (const [unit, count] of Object.entries(record.payments)) this.payments.set(unit, Math.max(count, this.payments.get(unit) ?? 0));
	}

	/** Reserves `amount`, or says why it cannot. `limit` undefined: no limit beyond the per-request cap. */
	reserve(amount: bigint, limit: bigint | undefined, unit: Unit): OverBudget | undefined {
		const used = this.committed + this.reserved;
		if (limit !== undefined && used + amount > limit) return { amount, used, payments: new Map(this.payments), limit };
		this.reserved += amount;
		this.payments.set(unit[0], (this.payments.get(unit[0]) ?? 0) + 1);
		return undefined;
	}

	/** The payment certainly did not move money (the gateway answered 402 or 400, or it was never sent). */
	release(amount: bigint, unit: Unit): void {
		this.reserved -= amount;
		this.payments.set(unit[0], (this.payments.get(unit[0]) ?? 1) - 1);
		this.save();
	}

	/** The payment was settled, or its outcome is unknown: it counts as spent. */
	commit(amount: bigint): void {
		this.reserved -= amount;
		this.committed += amount;
		this.save();
	}

	private save(): void {
		this.store?.write({ committed: String(this.committed), payments: Object.fromEntries(this.payments) });
	}
}

/** The refusal in the user's words: the node option to raise. */
export function describeOverBudget(over: OverBudget): string {
	return `this item would cost ${usdc(over.amount)} and ${usdc(over.used)} of the ${usdc(over.limit)} allowed per execution is already spent or committed`;
}

/** The refusal as an AI agent reads it: what was paid, and that it should answer with what it has. */
export function budgetSentence(over: OverBudget, unit: Unit): string {
	const counts = [...over.payments].filter(([, count]) => count > 0);
	if (counts.length === 0) counts.push([unit[0], 0]);
	const plural = (one: string) => (one === unit[0] ? unit[1] : `${one}s`);
	const paid = counts.map(([one, count]) => `${count} ${count === 1 ? one : plural(one)}`).join(' and ');
	return `Budget reached: ${paid} paid, ${usdc(over.used)}; nothing more was signed. This workflow may spend at most ${usdc(over.limit)} per run: answer with what you have.`;
}
