// The test harness: each node runs through n8n-core's real WorkflowExecute (Manual Trigger -> our node), with
// credentials applied the way n8n applies them (package.ts loads the packages, execute.ts runs the engine).
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteContextData,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	IRun,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { executeWorkflow } from './execute';
import { asToolType, fullNodeType, loadPackage, NodeTypes } from './package';

export { harnessAdditionalData, newExecutionId, runListSearch } from './execute';
export { fullNodeType, loadPackage, NodeTypes, PACKAGE_NAME, X402_PACKAGE_NAME } from './package';

/** Stands in for n8n-nodes-base's Manual Trigger: it emits the items the test gives the workflow. */
class ManualTrigger implements INodeType {
	description = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Test start node',
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: ['main'],
		properties: [] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export interface RunOptions {
	/** The node under test: type without the package prefix (e.g. `scraperPlatform`) or a full type name. */
	nodeType: string;
	parameters: INode['parameters'];
	/** Credential data by credential type name. */
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Items the Manual Trigger emits; default one empty item. */
	input?: IDataObject[] | INodeExecutionData[];
	continueOnFail?: boolean;
	typeVersion?: number;
	mode?: WorkflowExecuteMode;
	/** Extra nodes after ours, connected in a chain (e.g. a Set node is not available; keep for our own nodes). */
	timezone?: string;
	/** Stops the execution this long after it starts, as the editor's Stop button does (n8n cancels it). */
	cancelAfterMs?: number;
	/** The execution's id; each run gets its own unless set (runs sharing one are one execution to the node). */
	executionId?: string;
	/** The node's Retry On Fail settings, as the editor's node settings set them. */
	retry?: RunNodeRetry;
	/**
	 * The execution's context data (`getContext('flow')` and `'node'`) at its start, as n8n restores a saved execution
	 * that resumes (after a Wait, on another worker, after a restart).
	 */
	contextData?: IExecuteContextData;
}

/** A node's Retry On Fail settings (n8n runs a failed node again, up to `maxTries` times in all). */
export type RunNodeRetry = Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;

export interface RunResult {
	run: IRun;
	/** Output items of the node under test (first output, first run). */
	items: INodeExecutionData[];
	/** The error that stopped the node, when it failed. */
	error?: Error & { description?: string | null; context?: IDataObject; httpCode?: string | null };
	nodeName: string;
}

const NODE_NAME = 'Node Under Test';

function toItems(input: RunOptions['input']): INodeExecutionData[] {
	if (!input) return [{ json: {} }];
	return (input as Array<IDataObject | INodeExecutionData>).map((entry) =>
		entry && typeof entry === 'object' && 'json' in entry && typeof entry.json === 'object'
			? (entry as INodeExecutionData)
			: { json: entry as IDataObject },
	);
}

/** Our node's type by full name, with the types the engine needs beside it; a `...Tool` name is the node as an AI Agent's tool. */
function nodeTypesFor(nodeType: string): { nodeTypes: NodeTypes; fullType: string } {
	const types = new Map<string, INodeType>(loadPackage().nodes);
	types.set('n8n-nodes-base.manualTrigger', new ManualTrigger());
	if (!nodeType.endsWith('Tool')) return { nodeTypes: new NodeTypes(types), fullType: fullNodeType(nodeType) };
	// One of our nodes as an AI Agent's tool: each run is one tool call.
	const base = fullNodeType(nodeType.slice(0, -'Tool'.length));
	types.set(`${base}Tool`, asToolType(types.get(base) as INodeType));
	return { nodeTypes: new NodeTypes(types), fullType: `${base}Tool` };
}

/** The node under test with its parameters' defaults filled in by n8n's own NodeHelpers, as the editor saves them. */
function nodeUnderTest(options: RunOptions, nodeTypes: NodeTypes, fullType: string): INode {
	const nodeType = nodeTypes.getByNameAndVersion(fullType, options.typeVersion);
	const credentialRefs: INode['credentials'] = {};
	for (const type of Object.keys(options.credentials)) credentialRefs[type] = { id: `${type}-id`, name: `${type} test` };
	const node: INode = {
		id: 'node',
		name: NODE_NAME,
		type: fullType,
		typeVersion: options.typeVersion ?? (Array.isArray(nodeType.description.version) ? Math.max(...nodeType.description.version) : nodeType.description.version),
		position: [200, 0],
		parameters: {},
		credentials: credentialRefs,
		continueOnFail: options.continueOnFail,
		onError: options.continueOnFail ? 'continueRegularOutput' : undefined,
		...options.retry,
	};
	node.parameters = NodeHelpers.getNodeParameters(nodeType.description.properties, options.parameters, true, false, node, nodeType.description) ?? {};
	return node;
}

/** Runs Manual Trigger -> our node through n8n-core's real WorkflowExecute and returns our node's output. */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const { nodeTypes, fullType } = nodeTypesFor(options.nodeType);
	const triggerNode: INode = { id: 'trigger', name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const workflow = new Workflow({
		id: 'harness',
		name: 'Harness',
		nodes: [triggerNode, nodeUnderTest(options, nodeTypes, fullType)],
		connections: { 'Manual Trigger': { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		nodeTypes,
		active: false,
		settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
	});
	const { credentials, executionId, mode, cancelAfterMs, contextData } = options;
	const run = await executeWorkflow(workflow, { start: triggerNode, input: toItems(options.input), credentialTypes: loadPackage().credentials, credentials, executionId, mode, cancelAfterMs, contextData });
	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	const items = (taskData?.data?.main?.[0] ?? []) as INodeExecutionData[];
	const error = (taskData?.error ?? run.data.resultData.error) as RunResult['error'];
	return { run, items, error, nodeName: NODE_NAME };
}

/** Every string in an output or error, flattened: what a leak check scans. */
export function allText(value: unknown): string {
	const seen = new Set<unknown>();
	const parts: string[] = [];
	const walk = (v: unknown) => {
		if (v === null || v === undefined) return;
		if (typeof v === 'string') return void parts.push(v);
		if (typeof v !== 'object') return void parts.push(String(v));
		if (seen.has(v)) return;
		seen.add(v);
		if (v instanceof Error) {
			parts.push(v.message, String(v.stack ?? ''));
			const extra = v as unknown as Record<string, unknown>;
			walk(extra.description);
			walk(extra.context);
			walk(extra.cause);
		}
		for (const key of Object.keys(v as object)) walk((v as Record<string, unknown>)[key]);
	};
	walk(value);
	return parts.join('\n');
}

/**
 * An item's error message as its rule reads it: n8n's ` [item X]` mark, which the node appends to the message of an
 * error one input item caused, is checked and then left off.
 */
export function withoutItemMark<E extends { message: string }>(error: E, itemIndex = 0): E {
	const mark = ` [item ${itemIndex}]`;
	expect(error.message.endsWith(mark)).toBe(true);
	return { ...error, message: error.message.slice(0, -mark.length) };
}
