import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { isTerminalStatus, runItem, runRecordItems, trackRuns, waitForRuns } from '../api';
import { idParameter, INTEGER_ID_PATTERN, readId } from '../../shared/locator';
import { readWaitSettings, waitParameters } from '../../shared/polling';
import { InputValidator } from '../../shared/validation';

/** Wait for Completion and the output shape, for every operation that starts scraping runs. */
export function waitProperties(recordWord: string): INodeProperties[] {
	return [
		// A queued run carries no data yet: waiting is what most users want, so it is on by default.
		...waitParameters('run', true, 'every result of the run has succeeded or failed, and output the extracted data'),
		{
			displayName: 'Output',
			name: 'runOutput',
			type: 'options',
			default: 'run',
			displayOptions: { show: { waitForCompletion: [true] } },
			options: runOutputOptions(recordWord),
			description: 'How to shape the output',
		},
	];
}

/** The two shapes of a run's output: the wait of the create operations and the Run Trigger offer the same. */
export function runOutputOptions(recordWord: string): INodePropertyOptions[] {
	return [
		{
			name: 'One Item per Run',
			value: 'run',
			description: 'Status, counts and every result with its extracted content in one item',
		},
		{
			name: 'One Item per Record',
			value: 'records',
			description: `Each extracted record (${recordWord}) as its own item, with the scraper, run and result IDs, ready for a spreadsheet or CRM. A result that failed or is not done gives one item with its status.`,
		},
	];
}

export interface WaitChoice {
	maxWaitSeconds: number;
	pollIntervalSeconds: number;
	output: 'run' | 'records';
}

/** Reads and checks the wait parameters; undefined when the user does not want to wait. */
export function readWaitChoice(ctx: IExecuteFunctions, itemIndex: number): WaitChoice | undefined {
	const wait = readWaitSettings(ctx, itemIndex, true);
	if (!wait) return undefined;
	const v = new InputValidator(ctx.getNode(), itemIndex);
	return {
		maxWaitSeconds: wait.maxWaitMs / 1000,
		pollIntervalSeconds: wait.pollIntervalMs / 1000,
		output: v.oneOf(ctx.getNodeParameter('runOutput', itemIndex, 'run'), 'Output', ['run', 'records'] as const),
	};
}

/** Waiting runs several input items at once, so ten searches take about as long as one. */
export function waitingConcurrency(this: IExecuteFunctions): number {
	return this.getNodeParameter('waitForCompletion', 0, true) === true ? 5 : 1;
}

/**
 * Finishes an operation that started scraping runs: without waiting (`choice` undefined), the service's answer
 * (`immediate`); with waiting, polls every run of `results` and outputs one item per run or per extracted record.
 * `choice` is read with `readWaitChoice` before the run is started, so a bad wait setting sends nothing.
 */
export async function finishRuns(
	ctx: IExecuteFunctions,
	itemIndex: number,
	choice: WaitChoice | undefined,
	results: IDataObject[],
	immediate: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const tracked = trackRuns(results);
	if (!choice || tracked.length === 0) return immediate;
	const outcome = await waitForRuns(ctx, tracked, itemIndex, {
		maxWaitMs: choice.maxWaitSeconds * 1000,
		pollIntervalMs: choice.pollIntervalSeconds * 1000,
	});
	const items: IDataObject[] = [];
	for (const run of outcome.runs) {
		const completed = run.read && run.results.every((r) => isTerminalStatus(r.status));
		if (choice.output === 'records') items.push(...runRecordItems(run, choice.maxWaitSeconds));
		else items.push(runItem(run, completed, choice.maxWaitSeconds));
	}
	return items.map((json) => ({ json, pairedItem: { item: itemIndex } }));
}

/** Name is required by every create-and-run. */
export const nameProperty = (placeholder: string): INodeProperties => ({
	displayName: 'Name',
	name: 'name',
	type: 'string',
	required: true,
	default: '',
	placeholder,
	description: 'A name for the new scraper, shown in the service dashboard and on every result',
});

/** A section C id parameter: a whole number typed, or picked from a list the node reads from the results. */
export function marketplaceIdParameter(
	name: string,
	displayName: string,
	searchListMethod: string,
	description: string,
	placeholder: string,
): INodeProperties[] {
	return idParameter({
		name,
		displayName,
		description,
		searchListMethod,
		idPattern: INTEGER_ID_PATTERN,
		placeholder,
		legacy: { type: 'number', default: 0, typeOptions: { minValue: 1, numberPrecision: 0 }, placeholder },
	});
}

/** A whole-number id the user chose (picked, typed or, before version 2, a number field), checked before sending. */
export function integerIdOf(ctx: IExecuteFunctions, name: string, label: string, itemIndex: number): number {
	return new InputValidator(ctx.getNode(), itemIndex).integer(readId(ctx, name, itemIndex, 0), label, { min: 1 });
}
