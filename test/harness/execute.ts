/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the harness is test code in plain Node: execution ids name this process, and a timer stops an execution as the editor's Stop button does */
// What n8n gives a node besides its parameters (credentials, URLs, the execution's hooks), and n8n-core's real
// engine running a workflow or a node's list search with it.
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import { createDeferredPromise, createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IExecuteContextData,
	INode,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	IRun,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { CredentialsHelper } from './credentials';
import { fullNodeType, loadPackage, NodeTypes } from './package';

let executions = 0;

/** A fresh execution id, as n8n gives each execution its own. */
export function newExecutionId(): string {
	executions += 1;
	return `harness-execution-${process.pid}-${executions}`;
}

/** What n8n gives a node besides its parameters: credentials, URLs, and the execution's hooks. */
export function harnessAdditionalData(
	credentialTypes: Map<string, ICredentialType>,
	credentials: Record<string, ICredentialDataDecryptedObject>,
	hooks?: ExecutionLifecycleHooks,
	currentNodeParameters?: INodeParameters,
	executionId: string = newExecutionId(),
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper: new CredentialsHelper(credentialTypes, credentials),
		currentNodeParameters,
		executionId,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		variables: {},
		userId: 'harness-user',
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not used by these nodes');
		},
		getRunExecutionData: async () => undefined,
	} as unknown as IWorkflowExecuteAdditionalData;
}

interface ListSearchOptions {
	nodeType: string;
	/** The `listSearch` method, as a resource locator's `searchListMethod` names it. */
	method: string;
	/** The form as the user has filled it so far (the method may read e.g. the chosen resource). */
	parameters: INode['parameters'];
	credentials: Record<string, ICredentialDataDecryptedObject>;
	typeVersion?: number;
	filter?: string;
	paginationToken?: string;
}

/**
 * Calls a node's list search as the editor's `From list` picker does through n8n's server: a LoadOptionsContext on
 * the node being edited, with the form's current parameters, the filter typed and the token of the page scrolled to.
 */
export async function runListSearch(options: ListSearchOptions): Promise<INodeListSearchResult> {
	const { nodes, credentials: credentialTypes } = loadPackage();
	const nodeTypes = new NodeTypes(new Map(nodes));
	const fullType = fullNodeType(options.nodeType);
	const nodeType = nodeTypes.getByNameAndVersion(fullType, options.typeVersion);
	const credentialRefs: INode['credentials'] = {};
	for (const type of Object.keys(options.credentials)) credentialRefs[type] = { id: `${type}-id`, name: `${type} test` };
	const node: INode = {
		id: 'node',
		name: 'Node Under Test',
		type: fullType,
		typeVersion: options.typeVersion ?? Math.max(...[nodeType.description.version].flat()),
		position: [0, 0],
		parameters: {},
		credentials: credentialRefs,
	};
	node.parameters = NodeHelpers.getNodeParameters(nodeType.description.properties, options.parameters, true, false, node, nodeType.description) ?? {};
	const workflow = new Workflow({ nodes: [node], connections: {}, nodeTypes, active: false, settings: { timezone: 'UTC' } });
	const additionalData = harnessAdditionalData(credentialTypes, options.credentials, undefined, node.parameters);
	const method = nodeType.methods?.listSearch?.[options.method];
	if (!method) throw new Error(`${fullType} has no list search ${options.method}`);
	const context = new LoadOptionsContext(workflow, node, additionalData, '');
	return await method.call(context, options.filter, options.paginationToken);
}

interface ExecuteOptions {
	/** The node the execution starts at, given `input` (a trigger's items). */
	start: INode;
	input: INodeExecutionData[];
	credentialTypes: Map<string, ICredentialType>;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** Default: a fresh one. */
	executionId?: string;
	mode?: WorkflowExecuteMode;
	/** Stops the execution this long after it starts, as the editor's Stop button does. */
	cancelAfterMs?: number;
	/** Context data the execution starts with (a resumed execution's, as n8n saved it). */
	contextData?: IExecuteContextData;
}

/** Runs `workflow` from `start` through n8n-core's real WorkflowExecute, with its lifecycle hooks; resolves when it ends. */
export async function executeWorkflow(workflow: Workflow, options: ExecuteOptions): Promise<IRun> {
	const mode = options.mode ?? 'manual';
	const executionId = options.executionId ?? newExecutionId();
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name,
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		activeVersionId: null,
	} as unknown as ConstructorParameters<typeof ExecutionLifecycleHooks>[2]);
	const finished = createDeferredPromise<IRun>();
	hooks.addHandler('workflowExecuteAfter', (run) => finished.resolve(run));
	const additionalData = harnessAdditionalData(options.credentialTypes, options.credentials, hooks, undefined, executionId);
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: options.start, data: { main: [options.input] }, source: null }], contextData: options.contextData ?? {} },
	});
	const running = new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
	const stop = options.cancelAfterMs === undefined ? undefined : setTimeout(() => running.cancel(), options.cancelAfterMs);
	await running;
	const run = await finished.promise;
	clearTimeout(stop);
	return run;
}
