import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runForEachItem } from './items';

/**
 * One operation: its parameters and its behaviour, in one file. `properties` carry no displayOptions for
 * resource/operation: `describeResources` adds them, so an operation file holds only what is its own.
 */
export interface Operation {
	value: string;
	name: string;
	action: string;
	description: string;
	properties: INodeProperties[];
	/** Runs for one input item; the router pairs and orders outputs and applies Continue On Fail. */
	execute?: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** Runs once for all input items (e.g. one bulk job from every item's URL); pairs items itself. */
	executeAll?: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
	/** Items handled at once by `execute` (default 1); read per execution, e.g. from a parameter. */
	concurrency?: (this: IExecuteFunctions) => number;
}

export interface Resource {
	value: string;
	name: string;
	operations: Operation[];
}

function withDisplay(property: INodeProperties, show: IDisplayOptions['show']): INodeProperties {
	const displayOptions: IDisplayOptions = {
		...property.displayOptions,
		show: { ...show, ...property.displayOptions?.show },
	};
	return { ...property, displayOptions };
}

/** The Resource and Operation selectors followed by every operation's parameters. */
export function describeResources(resources: Resource[], defaultResource: string): INodeProperties[] {
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
			options: resource.operations.map(
				(op): INodePropertyOptions => ({
					name: op.name,
					value: op.value,
					action: op.action,
					description: op.description,
				}),
			),
			default: firstOperation,
		});
	}
	for (const resource of resources) {
		for (const op of resource.operations) {
			for (const property of op.properties) {
				properties.push(withDisplay(property, { resource: [resource.value], operation: [op.value] }));
			}
		}
	}
	return properties;
}

/** Finds the chosen operation and runs it over the input items. */
export async function routeOperation(ctx: IExecuteFunctions, resources: Resource[]): Promise<INodeExecutionData[][]> {
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
	if (operation.executeAll) return [await operation.executeAll.call(ctx)];
	const execute = operation.execute;
	if (!execute) throw new NodeOperationError(ctx.getNode(), `The operation "${operationValue}" has no behaviour`);
	let concurrency: number;
	try {
		concurrency = operation.concurrency ? operation.concurrency.call(ctx) : 1;
	} catch (error) {
		// A refused node-wide setting fails every item, each with its own error item under Continue On Fail.
		return [await runForEachItem(ctx, async () => await Promise.reject(error))];
	}
	return [await runForEachItem(ctx, (itemIndex) => execute.call(ctx, itemIndex), { concurrency })];
}
