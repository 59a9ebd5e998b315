import { SpendLedger } from './ledger';

/** An entry not asked for during this long is dropped at the next ask (an agent's calls come seconds apart). */
const IDLE_MS = 24 * 60 * 60 * 1000;
/** The most entries kept: at the cap, the entry asked for least recently is dropped first. */
const MAX_ENTRIES = 10_000;

/**
 * SpendRegistry: what each execution has spent from each wallet, for Max Total Spend per Execution.
 *
 * What it holds: one `SpendLedger` (settled and reserved USDC, and how many payments, by what they bought) per
 * execution id and paying wallet address. Ledgers are per execution, not per run of a node: an AI Agent runs its tool
 * node once per tool call, each time with a fresh context, a node inside a loop runs once per round, and an agent may
 * have several Scraper Gateway tools (search, fetch) paying from one wallet; the limit is for what the execution pays.
 * A call without an execution id (nothing n8n runs has none) gets a fresh ledger that is not kept here; the call keeps
 * it for its items.
 *
 * For how long: n8n does not tell a node when its execution ends, so nothing is dropped when one ends and nothing is
 * dropped on a timer. Entries are dropped only when a call asks for an execution's ledger (`ledgerFor`, once per run
 * of a node or tool call, when its first item is about to pay): then every entry not asked for during the last 24
 * hours is dropped, and, while 10,000 or more remain besides the one asked for, the one asked for least recently. So
 * at most 10,000 are kept, and an execution that waits more than 24 hours between two paying runs may start again
 * from zero.
 *
 * What it cannot do: it lives in the memory of one n8n process. A queue-mode worker, the main instance and a process
 * after a restart each have their own and do not see another's entries: an execution resumed in another process
 * (after a Wait, on another worker, after a restart) starts there from zero. What many executions or processes spend
 * together is bounded only by the wallet's balance (README, "Spending limit": a dedicated wallet).
 */
export class SpendRegistry {
	/** Map order is the order of the last ask (an ask re-inserts its entry): the least recently asked come first. */
	private readonly entries = new Map<string, { ledger: SpendLedger; touched: number }>();

	constructor(
		private readonly limits: { idleMs: number; maxEntries: number } = { idleMs: IDLE_MS, maxEntries: MAX_ENTRIES },
		private readonly now: () => number = Date.now,
	) {}

	/** How many ledgers are kept. */
	get size(): number {
		return this.entries.size;
	}

	/** The spend ledger of `payer` in execution `executionId`: the one kept, else a new one, kept from now on. */
	ledgerFor(executionId: string | undefined, payer: string): SpendLedger {
		if (!executionId) return new SpendLedger();
		const key = `${executionId}\u0000${payer.toLowerCase()}`;
		const now = this.now();
		const held = this.entries.get(key);
		this.entries.delete(key);
		this.drop(now);
		const ledger = held?.ledger ?? new SpendLedger();
		this.entries.set(key, { ledger, touched: now });
		return ledger;
	}

	/** Drops, oldest first, the entries idle too long and those beyond the cap. */
	private drop(now: number): void {
		for (const [key, held] of this.entries) {
			if (now - held.touched < this.limits.idleMs && this.entries.size < this.limits.maxEntries) break;
			this.entries.delete(key);
		}
	}
}

/** The registry of this n8n process (one per loaded copy of the node's code): every Scraper Gateway call pays against it. */
export const SPEND_REGISTRY = new SpendRegistry();
