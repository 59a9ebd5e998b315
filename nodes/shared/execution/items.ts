import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';

import { agentAnswerFor } from './errors';
import type { StartedWorkError } from './unknownOutcome';
import { isToolCall } from './tool';

/**
 * What one input item produced: output items (new objects the handler made, so the router may set their pairing
 * in place) or an error.
 */
type ItemHandler = (itemIndex: number) => Promise<INodeExecutionData[]>;

/**
 * Gives every output item of input `itemIndex` its pairing, leaving items that are already paired alone. In place,
 * with one pairing object for all of them: a copy of each item would cost an object per item (10,000 for a long
 * listing), and n8n reads pairings without changing them.
 */
function pairWith(items: INodeExecutionData[], itemIndex: number): INodeExecutionData[] {
	const pairedItem = { item: itemIndex };
	for (const item of items) item.pairedItem ??= pairedItem;
	return items;
}

/** Makes sure an error carries the item index, so n8n shows which item failed. */
export function withItemIndex(ctx: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof NodeOperationError || (error as { context?: JsonObject })?.context) {
		const err = error as Error & { context: JsonObject };
		if (err.context && err.context.itemIndex === undefined) err.context.itemIndex = itemIndex;
		return err;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * Appends n8n's `[item X]` (X as n8n numbers items, from 0) to the message of an error one input item caused:
 * in the editor and in an error workflow, the message alone then says which item to look at.
 */
function markItem(error: Error, itemIndex: number): Error {
	// One refusal of a node-wide setting is the error of every item: each gets its own mark in turn.
	error.message = `${error.message.replace(/ \[item \d+\]$/, '')} [item ${itemIndex}]`;
	return error;
}

/**
 * Run as an AI Agent's tool, an error the agent can act on (a refusal, or a settled call that failed upstream)
 * becomes `{ response: <sentence> }` for the model: it reads why and can go on, where a failed tool call would end
 * the execution. Undefined otherwise.
 */
export function answerForAgent(ctx: IExecuteFunctions, error: unknown, itemIndex: number): INodeExecutionData | undefined {
	const answer = isToolCall(ctx) ? agentAnswerFor(error) : undefined;
	return answer === undefined ? undefined : { json: { response: answer }, pairedItem: { item: itemIndex } };
}

/**
 * The one shape of a Continue On Fail error item: `{ error, description?, httpCode? }`, and for work that was started
 * but not confirmed its ids and latest state; paired with the input item that failed (or, for one request made from
 * every input item, with all of them).
 */
export function errorItem(error: unknown, pairedItem: number | number[]): INodeExecutionData {
	const err = error as StartedWorkError & { description?: string | null; httpCode?: string | null };
	const json: IDataObject = { error: err.message };
	if (err.description) json.description = err.description;
	if (err.httpCode) json.httpCode = err.httpCode;
	if (err.startedWork) Object.assign(json, err.startedWork);
	return { json, pairedItem: Array.isArray(pairedItem) ? pairedItem.map((item) => ({ item })) : { item: pairedItem } };
}

/**
 * Runs `handler` for every input item and returns all outputs in input order. With Continue On Fail an item's
 * error becomes an output item `{ error, description }` paired with it; otherwise the first error stops the node.
 * An error an AI Agent can act on answers it instead (`answerForAgent`).
 * `concurrency` > 1 runs that many items at once; the output order stays the input order.
 */
export async function runForEachItem(
	ctx: IExecuteFunctions,
	handler: ItemHandler,
	options: { concurrency?: number; itemCount?: number } = {},
): Promise<INodeExecutionData[]> {
	const count = options.itemCount ?? ctx.getInputData().length;
	const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, count || 1));
	const results: INodeExecutionData[][] = new Array(count);
	const continueOnFail = ctx.continueOnFail();
	let next = 0;
	let failure: Error | undefined;

	const worker = async () => {
		while (failure === undefined && next < count) {
			const itemIndex = next++;
			try {
				results[itemIndex] = pairWith(await handler(itemIndex), itemIndex);
			} catch (error) {
				const err = markItem(withItemIndex(ctx, error, itemIndex), itemIndex);
				const answer = answerForAgent(ctx, err, itemIndex);
				if (answer) {
					results[itemIndex] = [answer];
					continue;
				}
				if (!continueOnFail) {
					failure ??= err;
					return;
				}
				results[itemIndex] = [errorItem(err, itemIndex)];
			}
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	if (failure) throw failure;
	return results.flat();
}
