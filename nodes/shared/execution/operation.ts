import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RequestLimiter } from './concurrency';
import { NodeCall } from './call';
import type { ExecutionCall } from './call';
import { answerForAgent, errorItem, runForEachItem, withItemIndex } from './items';
import { readParallel, withParallel } from './parallel';

/**
 * One operation: its parameters and its behaviour, in one file. `properties` carry no displayOptions for
 * resource/operation: `describeResources` adds them, so an operation file holds only what is its own.
 */
export interface Operation<R extends ExecutionCall = ExecutionCall> {
	value: string;
	name: string;
	action: string;
	description: string;
	properties: INodeProperties[];
	/**
	 * Runs for one input item; the router pairs and orders outputs and applies Continue On Fail. `this` is n8n's
	 * context, as in n8n's own nodes; `call` is what the items of this execution share (requests go through it).
	 */
	execute?: (this: IExecuteFunctions, itemIndex: number, call: R) => Promise<INodeExecutionData[]>;
	/**
	 * Runs once for all input items (e.g. one bulk job from every item's URL) and pairs its output itself; the router
	 * applies Continue On Fail (one error item paired with every input item) and answers an agent.
	 */
	executeAll?: (this: IExecuteFunctions, call: R) => Promise<INodeExecutionData[]>;
	/** Items handled at once by `execute` when the user set nothing (default 1); read per execution. */
	concurrency?: (this: IExecuteFunctions) => number;
	/** Offers the Parallel Requests option: items are independent, so their requests may overlap. */
	parallel?: boolean;
}

export interface Resource<R extends ExecutionCall = ExecutionCall> {
	value: string;
	name: string;
	operations: Array<Operation<R>>;
}

/** The property shown only where `show` holds, besides its own conditions (an operation's, a trigger event's). */
export function withDisplay(property: INodeProperties, show: IDisplayOptions['show']): INodeProperties {
	const displayOptions: IDisplayOptions = {
		...property.displayOptions,
		show: { ...show, ...property.displayOptions?.show },
	};
	return { ...property, displayOptions };
}

/** An operation offers Parallel Requests only in a node that says from which version it sits in Options. */
function parallelSince(optionsSince: number | undefined): number {
	if (optionsSince === undefined) throw new Error('An operation offers Parallel Requests: its node must pass its Options version');
	return optionsSince;
}

/**
 * The Resource and Operation selectors followed by every operation's parameters. `optionsSince`: the node's version
 * from which Parallel Requests sits in Options (before it, in a collection of its own).
 */
export function describeResources<R extends ExecutionCall>(resources: Array<Resource<R>>, defaultResource: string, optionsSince?: number): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map((r) => ({ name: r.name, value: r.value })),
			default: defaultResource,
		},
	];
	for (const resource of resources) {
		const firstOperation: string = resource.operations[0].value;
		properties.push({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			// Listed alphabetically, as n8n lists them; the default stays the first declared (saved workflows omit it).
			options: resource.operations
				.map(
					(op): INodePropertyOptions => ({
						name: op.name,
						value: op.value,
						action: op.action,
						description: op.description,
					}),
				)
				.sort((x, y) => x.name.localeCompare(y.name)),
			default: firstOperation,
		});
	}
	for (const resource of resources) {
		for (const op of resource.operations) {
			const own = op.parallel ? withParallel(op.properties, parallelSince(optionsSince)) : op.properties;
			for (const property of own) {
				properties.push(withDisplay(property, { resource: [resource.value], operation: [op.value] }));
			}
		}
	}
	return properties;
}

/**
 * Runs an operation that makes one request from every input item. Its error is answered as the item loop answers
 * one: to an agent, one sentence per input item; with Continue On Fail, one error item paired with every input item.
 */
async function runForAllItems<R extends ExecutionCall>(call: R, executeAll: NonNullable<Operation<R>['executeAll']>): Promise<INodeExecutionData[]> {
	const { ctx } = call;
	const outcome = await executeAll.call(ctx, call).then(
		(items) => ({ items }),
		(error: unknown) => ({ error: withItemIndex(ctx, error, 0) }),
	);
	if ('items' in outcome) return outcome.items;
	const inputs = ctx.getInputData().map((_, itemIndex) => itemIndex);
	const answers = inputs.map((itemIndex) => answerForAgent(ctx, outcome.error, itemIndex));
	if (answers.length > 0 && answers.every((answer) => answer !== undefined)) return answers as INodeExecutionData[];
	if (ctx.continueOnFail()) return [errorItem(outcome.error, inputs)];
	throw outcome.error;
}

/** Makes the call of a node's execution; a node whose items share more than requests passes its own. */
export type CallFactory<R extends ExecutionCall> = (ctx: IExecuteFunctions, limiter: RequestLimiter | undefined) => R;

const plainCall: CallFactory<ExecutionCall> = (ctx, limiter) => new NodeCall(ctx, limiter);

/** How a node routes: the call its items share (see NodeCall), and its Options version (see `describeResources`). */
export interface RouteSettings<R extends ExecutionCall> {
	makeCall?: CallFactory<R>;
	optionsSince?: number;
}

/** Finds the chosen operation and runs it over the input items, all of them in one call (see NodeCall). */
export async function routeOperation<R extends ExecutionCall = ExecutionCall>(
	ctx: IExecuteFunctions,
	resources: Array<Resource<R>>,
	settings: RouteSettings<R> = {},
): Promise<INodeExecutionData[][]> {
	// A node without a call of its own runs plain NodeCalls (its R is ExecutionCall).
	const makeCall = settings.makeCall ?? (plainCall as unknown as CallFactory<R>);
	const resourceValue = ctx.getNodeParameter('resource', 0) as string;
	const operationValue = ctx.getNodeParameter('operation', 0) as string;
	const operation = resources
		.find((r) => r.value === resourceValue)
		?.operations.find((op) => op.value === operationValue);
	if (!operation) {
		throw new NodeOperationError(ctx.getNode(), `The operation "${operationValue}" of "${resourceValue}" is not supported`, {
			description: 'Open the node and choose the resource and operation again.',
		});
	}
	if (operation.executeAll) return [await runForAllItems(makeCall(ctx, undefined), operation.executeAll)];
	const execute = operation.execute;
	if (!execute) throw new NodeOperationError(ctx.getNode(), `The operation "${operationValue}" has no behaviour`);
	let parallel: ReturnType<typeof readParallel>;
	let concurrency: number;
	try {
		parallel = operation.parallel ? readParallel(ctx, parallelSince(settings.optionsSince)) : undefined;
		concurrency = parallel?.max ?? (operation.concurrency ? operation.concurrency.call(ctx) : 1);
	} catch (error) {
		// A refused node-wide setting fails every item, each with its own error item under Continue On Fail.
		return [await runForEachItem(ctx, async () => await Promise.reject(error))];
	}
	const call = makeCall(ctx, parallel?.limiter);
	return [await runForEachItem(ctx, (itemIndex) => execute.call(ctx, itemIndex, call), { concurrency })];
}
