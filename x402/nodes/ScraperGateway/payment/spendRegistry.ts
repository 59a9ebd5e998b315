import { SpendLedger } from './ledger';
import type { SpendStore } from './ledger';
import { ProcessMemory } from './processMemory';

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
 * The ledger in memory is the one payments running at once in this process reserve against; what it commits is also
 * kept in the execution's own data (`executionSpend.ts`), so an execution resumed in another process (after a Wait,
 * on another worker, after a restart) starts there from what it spent, not from zero. A call without an execution id
 * (nothing n8n runs has none) gets a fresh ledger that is not kept here; the call keeps it for its items.
 *
 * For how long: see `ProcessMemory`. At most 10,000 are kept, and one not asked for during 24 hours is dropped; an
 * execution asked for again after that starts from what its own data holds.
 */
export class SpendRegistry {
	private readonly memory: ProcessMemory<SpendLedger>;

	constructor(limits: { idleMs: number; maxEntries: number } = { idleMs: IDLE_MS, maxEntries: MAX_ENTRIES }, now: () => number = Date.now) {
		this.memory = new ProcessMemory(limits, now);
	}

	/** How many ledgers are kept. */
	get size(): number {
		return this.memory.size;
	}

	/**
	 * The spend ledger of `payer` in execution `executionId`: the one kept, else a new one, kept from now on; kept in
	 * `store` too (the execution's data), and raised to what it holds.
	 */
	ledgerFor(executionId: string | undefined, payer: string, store?: SpendStore): SpendLedger {
		const ledger = executionId ? this.memory.take(`${executionId}\u0000${payer.toLowerCase()}`, () => new SpendLedger()) : new SpendLedger();
		ledger.keepIn(store);
		return ledger;
	}
}

/** The registry of this n8n process (one per loaded copy of the node's code): every Scraper Gateway call pays against it. */
export const SPEND_REGISTRY = new SpendRegistry();
