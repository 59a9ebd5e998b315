import type { IExecuteFunctions } from 'n8n-workflow';

import { usdc } from './money';

/** Why a payment was not reserved: what this one would cost against what is already spent or committed. */
export interface OverBudget {
	amount: bigint;
	/** Settled or possibly settled, plus reserved by payments in flight. */
	used: bigint;
	/** Payments counted in `used`. */
	payments: number;
	limit: bigint;
}

/**
 * Debits of one execution of one node: settled, and reserved by payments whose outcome is pending or unknown.
 * Reservation is synchronous, so payments running at once (parallel items, parallel tool calls of an agent)
 * can never both take the last of the limit.
 */
export class SpendLedger {
	committed = 0n;

	reserved = 0n;

	/** Payments settled or of unknown outcome. */
	paid = 0;

	/** Payments reserved and not yet settled or released. */
	pending = 0;

	/** Reserves `amount`, or says why it cannot. `limit` undefined: no limit beyond the per-request cap. */
	reserve(amount: bigint, limit: bigint | undefined): OverBudget | undefined {
		const used = this.committed + this.reserved;
		if (limit !== undefined && used + amount > limit) return { amount, used, payments: this.paid + this.pending, limit };
		this.reserved += amount;
		this.pending += 1;
		return undefined;
	}

	/** The payment certainly did not move money (the gateway answered 402 or 400, or it was never sent). */
	release(amount: bigint): void {
		this.reserved -= amount;
		this.pending -= 1;
	}

	/** The payment was settled, or its outcome is unknown: it counts as spent. */
	commit(amount: bigint): void {
		this.reserved -= amount;
		this.pending -= 1;
		this.committed += amount;
		this.paid += 1;
	}
}

/** The refusal in the user's words: the node option to raise. */
export function describeOverBudget(over: OverBudget): string {
	return `this item would cost ${usdc(over.amount)} and ${usdc(over.used)} of the ${usdc(over.limit)} allowed per execution is already spent or committed`;
}

/** The refusal as an AI agent reads it: what was paid, and that it should answer with what it has. */
export function budgetSentence(over: OverBudget, unit: string): string {
	return `Budget reached: ${over.payments} ${unit} paid, ${usdc(over.used)}; nothing more was signed. This workflow may spend at most ${usdc(over.limit)} per run: answer with what you have.`;
}

/**
 * Ledgers live per execution and node, not per run of the node: an AI Agent runs its tool node once per tool call,
 * each time with a fresh context, and a node inside a loop runs once per round; the limit is for the execution.
 * n8n does not tell a node when its execution ends, so a ledger idle for a day is dropped (an agent's calls come
 * seconds apart), and at most MAX_LEDGERS are kept.
 */
const IDLE_MS = 24 * 60 * 60 * 1000;
const MAX_LEDGERS = 10_000;
const byExecution = new Map<string, { ledger: SpendLedger; touched: number }>();
const byContext = new WeakMap<object, SpendLedger>();

function evict(now: number): void {
	for (const [key, held] of byExecution) {
		// Map order is insertion order and `touched` only grows on re-insertion: the oldest come first.
		if (now - held.touched < IDLE_MS && byExecution.size < MAX_LEDGERS) break;
		byExecution.delete(key);
	}
}

/** The spend ledger of this node in this execution (of this run only, where n8n gives no execution id). */
export function ledgerFor(ctx: IExecuteFunctions): SpendLedger {
	const executionId = ctx.getExecutionId();
	if (!executionId) {
		let ledger = byContext.get(ctx);
		if (!ledger) byContext.set(ctx, (ledger = new SpendLedger()));
		return ledger;
	}
	const key = `${executionId}\u0000${ctx.getNode().name}`;
	const now = Date.now();
	const held = byExecution.get(key);
	byExecution.delete(key);
	evict(now);
	const ledger = held?.ledger ?? new SpendLedger();
	byExecution.set(key, { ledger, touched: now });
	return ledger;
}
