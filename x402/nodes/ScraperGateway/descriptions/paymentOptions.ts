import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { optionsCollection } from '../../../../nodes/shared/descriptions/collections';
import { isToolCall } from '../../../../nodes/shared/execution/tool';
import { field, validatorFor } from '../../../../nodes/shared/input/fields';
import { collection } from '../../../../nodes/shared/input/fieldSets';
import type { Field } from '../../../../nodes/shared/input/fields';
import type { Collection } from '../../../../nodes/shared/input/fieldSets';
import { FETCH_FIELDS } from '../../../../nodes/shared/input/pageFetch';
import { toAtomic } from '../payment/money';

/**
 * The Options both operations show: how much an execution may pay, how many items pay at once, how long an answer
 * may take. Each is declared once here and read here; errors elsewhere name them by `label`.
 */

/** Extra time over the page timeout for rendering, screenshots and the on-chain settlement. */
const DEADLINE_MARGIN_SECONDS = 60;
/** The page timeout assumed when the user sets none (the interface's maximum). */
const DEFAULT_PAGE_TIMEOUT_SECONDS = 300;
/** The longest Response Deadline: an hour. */
const MAX_DEADLINE_SECONDS = 3600;
const MAX_PARALLEL_PAYMENTS = 10;
/** Max Total Spend shown when the option is added, and the limit of a tool call that has none. */
const DEFAULT_MAX_TOTAL_SPEND_USDC = 1;
/** The name of n8n's Options collection, which holds these. */
const OPTIONS = optionsCollection([]).name;

/** In atomic USDC (a bigint, never a float); the payments check it against the spend registry's ledger. */
export const MAX_TOTAL_SPEND = field(
	{
		displayName: 'Max Total Spend per Execution (USDC)',
		name: 'maxTotalSpend',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 6 },
		default: DEFAULT_MAX_TOTAL_SPEND_USDC,
		description: `Most one execution may pay from this wallet, counting every item and every run of Scraper Gateway nodes with this wallet (each tool call of an AI Agent, each round of a loop). A payment that would go over it is not signed: the item fails, or an AI Agent is told the budget is reached. Not added: no limit, except as an AI Agent's tool, where it is ${DEFAULT_MAX_TOTAL_SPEND_USDC} USDC.`,
	},
	(v, value, label) => toAtomic(value) ?? v.fail(label, `${String(value)} is not an amount`, 'Enter an amount in USDC in the node options, e.g. 0.5.'),
);

export const PARALLEL_REQUESTS = field({
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_PAYMENTS, numberPrecision: 0 },
	default: 1,
	description: 'How many items are fetched at the same time. Output keeps the input order.',
});

export const RESPONSE_DEADLINE = field({
	displayName: 'Response Deadline (Seconds)',
	name: 'deadline',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_DEADLINE_SECONDS },
	default: DEFAULT_PAGE_TIMEOUT_SECONDS + DEADLINE_MARGIN_SECONDS,
	description: `How long to wait for the gateway's answer. By default: Page > Fetch's '${FETCH_FIELDS.timeout.label}' (or ${DEFAULT_PAGE_TIMEOUT_SECONDS} s) plus ${DEADLINE_MARGIN_SECONDS} s for rendering and payment settlement.`,
	hint: 'The gateway is paid before it fetches: a deadline shorter than the fetch pays for a page never received',
});

/** The Options of an operation: its own options (`extra`) and the payment options, listed alphabetically. */
export function paymentOptions(extra: ReadonlyArray<Field<unknown, unknown>> = []): Collection {
	return collection(optionsCollection, [...extra, MAX_TOTAL_SPEND, PARALLEL_REQUESTS, RESPONSE_DEADLINE]);
}

/**
 * One option, checked and named in errors for item `itemIndex`; `readFrom` is the item whose value counts (0 for a
 * setting of the whole execution). Undefined when the option was not added.
 */
export function readOption<T>(ctx: IExecuteFunctions, itemIndex: number, option: Field<T, unknown>, readFrom = itemIndex): T | undefined {
	const options = (ctx.getNodeParameter(OPTIONS, readFrom, {}) ?? {}) as IDataObject;
	return option.from(validatorFor(ctx, itemIndex), options);
}

/** Parallel Requests as set (from the first item), or refused when out of range (never clamped); the router's `concurrency` hook. */
export function parallelRequests(this: IExecuteFunctions): number {
	return readOption(this, 0, PARALLEL_REQUESTS) ?? 1;
}

/** The HTTP deadline for one call, ms: the user's, or the page timeout plus the margin. */
export function deadlineMs(ctx: IExecuteFunctions, itemIndex: number, pageTimeoutSeconds: number | undefined): number {
	const chosen = readOption(ctx, itemIndex, RESPONSE_DEADLINE);
	if (chosen !== undefined) return Math.round(chosen * 1000);
	return ((pageTimeoutSeconds ?? DEFAULT_PAGE_TIMEOUT_SECONDS) + DEADLINE_MARGIN_SECONDS) * 1000;
}

/**
 * Most the execution may pay, atomic USDC: Max Total Spend as the first item sets it (one limit for the execution),
 * refused naming the item about to pay; not added, no limit, except for an AI Agent's tool: an agent decides how many
 * calls it makes, so as a tool the node never pays without one.
 */
export function spendLimit(ctx: IExecuteFunctions, itemIndex: number): bigint | undefined {
	return readOption(ctx, itemIndex, MAX_TOTAL_SPEND, 0) ?? (isToolCall(ctx) ? toAtomic(DEFAULT_MAX_TOTAL_SPEND_USDC) : undefined);
}
