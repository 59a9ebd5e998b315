import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BEFORE_OPTIONS, FROM_OPTIONS, optionsCollection, OPTIONS_VERSION } from '../descriptions/collections';
import { RequestLimiter } from './concurrency';
import { NodeCall } from './call';
import type { ExecutionCall } from './call';
import { answerForAgent, errorItem, runForEachItem, withItemIndex } from './items';
import { InputValidator } from '../input/validation';

/** The most requests one node sends at once: the service's highest plan allows 100 per account. */
const MAX_PARALLEL_REQUESTS = 100;

/** The two settings of Parallel Requests; `requestsDefault` is what a newly added setting shows. */
function parallelSettings(autoDescription: string, requestsDefault: number): INodeProperties[] {
	return [
		{
			displayName: 'Auto',
			name: 'auto',
			type: 'boolean',
			default: false,
			description: autoDescription,
		},
		{
			displayName: 'Requests at Once',
			name: 'requests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS, numberPrecision: 0 },
			default: requestsDefault,
			description: 'How many items to work on at once (1 to 100). Your plan sets how many the service accepts: free 10, pro 100.',
		},
	];
}

const AUTO_DESCRIPTION =
	"Whether to find the account's limit by itself: start at 2, grow while answers succeed, halve when the service answers 429 (too many requests).";

const PARALLEL_DESCRIPTION = "Send several items' requests at once. Output order and pairing stay as the input's.";

/** Before `OPTIONS_VERSION`: a collection of its own below the parameters. */
const legacyParallelProperty: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallel',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: PARALLEL_DESCRIPTION,
	options: parallelSettings(`${AUTO_DESCRIPTION} Never above 'Requests at Once', or 100 when that is not set.`, 1),
	displayOptions: { show: BEFORE_OPTIONS },
};

/**
 * From `OPTIONS_VERSION`: inside Options, as n8n's HTTP Request node keeps Batching. A fixed collection always holds
 * both settings, so Requests at Once is the ceiling of Auto too, and starts at the free plan's 10.
 */
const parallelOption: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallel',
	type: 'fixedCollection',
	placeholder: 'Add Parallel Requests',
	default: { settings: {} },
	description: PARALLEL_DESCRIPTION,
	options: [{ displayName: 'Parallel Requests', name: 'settings', values: parallelSettings(`${AUTO_DESCRIPTION} Never above 'Requests at Once'.`, 10) }],
};

/** An operation's parameters with Parallel Requests where the node version keeps it. */
function withParallel(properties: INodeProperties[]): INodeProperties[] {
	const fromOptions = JSON.stringify(FROM_OPTIONS['@version']);
	const options = properties.find((p) => p.name === 'options' && JSON.stringify(p.displayOptions?.show?.['@version']) === fromOptions);
	const own = properties.map((p) =>
		p === options ? { ...p, options: [...(p.options as INodeProperties[]), parallelOption].sort((x, y) => x.displayName.localeCompare(y.displayName)) } : p,
	);
	const added: INodeProperties[] = options
		? []
		: [optionsCollection([parallelOption], { displayOptions: { show: FROM_OPTIONS } })];
	return [...own, ...added, legacyParallelProperty];
}

/**
 * Parallel Requests as set (checked, never clamped), or undefined when the user set none; with it, the limiter every
 * request of the call takes a slot of: Auto adapts it to the account, a fixed number is a plain cap.
 */
function readParallel(ctx: IExecuteFunctions): { max: number; limiter: RequestLimiter } | undefined {
	const v = new InputValidator(ctx.getNode(), 0);
	const path = ctx.getNode().typeVersion >= OPTIONS_VERSION ? 'options.parallel.settings' : 'parallel';
	const options = ctx.getNodeParameter(path, 0, {}) as { auto?: unknown; requests?: unknown };
	const auto = options.auto === undefined ? false : v.boolean(options.auto, 'Auto');
	if (options.requests === undefined && !auto) return undefined;
	const max = options.requests === undefined ? MAX_PARALLEL_REQUESTS : v.integer(options.requests, 'Requests at Once', { min: 1, max: MAX_PARALLEL_REQUESTS });
	return { max, limiter: new RequestLimiter(max, auto) };
}

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

function withDisplay(property: INodeProperties, show: IDisplayOptions['show']): INodeProperties {
	const displayOptions: IDisplayOptions = {
		...property.displayOptions,
		show: { ...show, ...property.displayOptions?.show },
	};
	return { ...property, displayOptions };
}

/** The Resource and Operation selectors followed by every operation's parameters. */
export function describeResources<R extends ExecutionCall>(resources: Array<Resource<R>>, defaultResource: string): INodeProperties[] {
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
			const own = op.parallel ? withParallel(op.properties) : op.properties;
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

/** Finds the chosen operation and runs it over the input items, all of them in one call (see NodeCall). */
export async function routeOperation(ctx: IExecuteFunctions, resources: Resource[]): Promise<INodeExecutionData[][]>;
export async function routeOperation<R extends ExecutionCall>(ctx: IExecuteFunctions, resources: Array<Resource<R>>, makeCall: CallFactory<R>): Promise<INodeExecutionData[][]>;
export async function routeOperation(
	ctx: IExecuteFunctions,
	resources: Resource[],
	makeCall: CallFactory<ExecutionCall> = plainCall,
): Promise<INodeExecutionData[][]> {
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
		parallel = operation.parallel ? readParallel(ctx) : undefined;
		concurrency = parallel?.max ?? (operation.concurrency ? operation.concurrency.call(ctx) : 1);
	} catch (error) {
		// A refused node-wide setting fails every item, each with its own error item under Continue On Fail.
		return [await runForEachItem(ctx, async () => await Promise.reject(error))];
	}
	const call = makeCall(ctx, parallel?.limiter);
	return [await runForEachItem(ctx, (itemIndex) => execute.call(ctx, itemIndex, call), { concurrency })];
}
