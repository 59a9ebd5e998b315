/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the harness is test code that loads the package the way n8n does, in plain Node */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import {
	createDeferredPromise,
	createRunExecutionData,
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import corePackageJson from '../../package.json';
import x402PackageJson from '../../x402/package.json';

const ROOT = path.resolve(__dirname, '../..');

/** The repository's two packages: the verifiable core at the root and the x402 gateway package in x402/. */
const PACKAGES = [
	{ dir: ROOT, json: corePackageJson },
	{ dir: path.join(ROOT, 'x402'), json: x402PackageJson },
];
export const PACKAGE_NAME = corePackageJson.name;
export const X402_PACKAGE_NAME = x402PackageJson.name;

/**
 * Tests run the TypeScript source. The benchmarks set SCRAPER_PACKAGE_FROM=dist to measure the bundle n8n loads
 * (`npm run build`): tsx's transpiled source carries helpers (function naming) that cost time per call.
 */
function fromDist(): boolean {
	return process.env.SCRAPER_PACKAGE_FROM === 'dist';
}

/** `dist/nodes/X/X.node.js` of a package -> the file to load: the build itself, or the TypeScript source. */
function sourceOf(packageDir: string, distPath: string): string {
	if (fromDist()) return path.join(packageDir, distPath);
	return path.join(packageDir, distPath.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
}

function loadExport<T>(file: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- modules are listed in package.json, as n8n loads them
	const mod = require(file) as Record<string, new () => T>;
	const Class = Object.values(mod).find((value) => typeof value === 'function');
	if (!Class) throw new Error(`${file} exports no class`);
	return new Class();
}

let registry: { nodes: Map<string, INodeType>; credentials: Map<string, ICredentialType> } | undefined;

/** Our nodes and credentials, loaded from each package.json's `n8n` lists and named as n8n names community nodes. */
export function loadPackage() {
	if (registry) return registry;
	const nodes = new Map<string, INodeType>();
	const credentials = new Map<string, ICredentialType>();
	for (const { dir, json } of PACKAGES) {
		const files = [...json.n8n.nodes, ...json.n8n.credentials].map((file) => sourceOf(dir, file));
		const missing = files.find((file) => !existsSync(file));
		if (missing) throw new Error(`${missing} is missing${fromDist() ? ': run `npm run build` first' : ''}`);
		for (const file of json.n8n.nodes) {
			const node = loadExport<INodeType>(sourceOf(dir, file));
			nodes.set(`${json.name}.${node.description.name}`, node);
		}
		for (const file of json.n8n.credentials) {
			const credential = loadExport<ICredentialType>(sourceOf(dir, file));
			credentials.set(credential.name, credential);
		}
	}
	registry = { nodes, credentials };
	return registry;
}

/** A node's full type (`<package>.<name>`) from its short name, in whichever of our packages declares it. */
export function fullNodeType(nodeType: string): string {
	if (nodeType.includes('.')) return nodeType;
	const { nodes } = loadPackage();
	const found = [...nodes.keys()].find((type) => type.endsWith(`.${nodeType}`));
	if (!found) throw new Error(`None of our packages has a node named ${nodeType}`);
	return found;
}

/**
 * A node type as n8n offers it to an AI Agent (n8n's convertNodeToAiTool): `<type>Tool`, no main input, an ai_tool
 * output, the same behaviour.
 */
export function asToolType(node: INodeType): INodeType {
	const description: INodeTypeDescription = {
		...node.description,
		name: `${node.description.name}Tool`,
		displayName: `${node.description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
	};
	return { ...node, description, execute: node.execute };
}

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

/** Node types by full name, as n8n's loader serves them to the engine. */
export class NodeTypes implements INodeTypes {
	constructor(private readonly types: Map<string, INodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return {};
	}
}

/**
 * Applies a credential's `authenticate` the way n8n's CredentialsHelper does: generic header/query/body/auth
 * entries are resolved as expressions with `$credentials`, functions are called.
 */
export class CredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Map<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const options = requestOptions as IHttpRequestOptions;
		const authenticate = this.types.get(typeName)?.authenticate;
		if (!authenticate) return options;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '')
				: value;
		const { properties } = authenticate;
		for (const key of ['headers', 'qs', 'body'] as const) {
			const entries = properties[key] as IDataObject | undefined;
			if (!entries) continue;
			const target = ((options as unknown as Record<string, IDataObject>)[key] ??= {});
			for (const [name, value] of Object.entries(entries)) target[name] = resolve(value) as IDataObject[string];
		}
		if (properties.auth) {
			const auth = properties.auth as { username: string; password: string };
			options.auth = { username: String(resolve(auth.username)), password: String(resolve(auth.password)) };
		}
		return options;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('getCredentials is not used by nodes');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		// A copy, as n8n decrypts a fresh object for each use.
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types.get(type)?.properties ?? [];
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

/** What n8n gives a node besides its parameters: credentials, URLs, and the execution's hooks. */
let executions = 0;

/** A fresh execution id, as n8n gives each execution its own. */
export function newExecutionId(): string {
	executions += 1;
	return `harness-execution-${process.pid}-${executions}`;
}

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

export interface ListSearchOptions {
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
		name: NODE_NAME,
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

function toItems(input: RunOptions['input']): INodeExecutionData[] {
	if (!input) return [{ json: {} }];
	return (input as Array<IDataObject | INodeExecutionData>).map((entry) =>
		entry && typeof entry === 'object' && 'json' in entry && typeof entry.json === 'object'
			? (entry as INodeExecutionData)
			: { json: entry as IDataObject },
	);
}

export interface ExecuteOptions {
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
		executionData: { nodeExecutionStack: [{ node: options.start, data: { main: [options.input] }, source: null }] },
	});
	const running = new WorkflowExecute(additionalData, mode, runExecutionData).processRunExecutionData(workflow);
	const stop = options.cancelAfterMs === undefined ? undefined : setTimeout(() => running.cancel(), options.cancelAfterMs);
	await running;
	const run = await finished.promise;
	clearTimeout(stop);
	return run;
}

/**
 * Runs Manual Trigger -> our node through n8n-core's real WorkflowExecute and returns our node's output.
 * Parameters get their defaults filled in by n8n's own NodeHelpers, exactly as the editor saves them.
 */
export async function runNode(options: RunOptions): Promise<RunResult> {
	const { nodes, credentials: credentialTypes } = loadPackage();
	const types = new Map<string, INodeType>(nodes);
	types.set('n8n-nodes-base.manualTrigger', new ManualTrigger());
	let fullType: string;
	if (options.nodeType.endsWith('Tool')) {
		// One of our nodes as an AI Agent's tool: each run is one tool call.
		const base = fullNodeType(options.nodeType.slice(0, -'Tool'.length));
		fullType = `${base}Tool`;
		types.set(fullType, asToolType(types.get(base) as INodeType));
	} else {
		fullType = fullNodeType(options.nodeType);
	}
	const nodeTypes = new NodeTypes(types);
	const nodeType = nodeTypes.getByNameAndVersion(fullType, options.typeVersion);

	const credentialRefs: INode['credentials'] = {};
	for (const type of Object.keys(options.credentials)) credentialRefs[type] = { id: `${type}-id`, name: `${type} test` };

	const triggerNode: INode = {
		id: 'trigger',
		name: 'Manual Trigger',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodeUnderTest: INode = {
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
	nodeUnderTest.parameters =
		NodeHelpers.getNodeParameters(nodeType.description.properties, options.parameters, true, false, nodeUnderTest, nodeType.description) ?? {};

	const workflow = new Workflow({
		id: 'harness',
		name: 'Harness',
		nodes: [triggerNode, nodeUnderTest],
		connections: { 'Manual Trigger': { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		nodeTypes,
		active: false,
		settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
	});

	const run = await executeWorkflow(workflow, {
		start: triggerNode,
		input: toItems(options.input),
		credentialTypes,
		credentials: options.credentials,
		executionId: options.executionId,
		mode: options.mode,
		cancelAfterMs: options.cancelAfterMs,
	});

	const taskData = run.data.resultData.runData[NODE_NAME]?.[0];
	const items = (taskData?.data?.main?.[0] ?? []) as INodeExecutionData[];
	const error = (taskData?.error ?? run.data.resultData.error) as RunResult['error'];
	return { run, items, error, nodeName: NODE_NAME };
}

/** Runs and fails the test with the node's error when it did not succeed. */
export async function runNodeOk(options: RunOptions): Promise<INodeExecutionData[]> {
	const result = await runNode(options);
	if (result.error) {
		throw new Error(`Node failed: ${result.error.message}${result.error.description ? ` — ${result.error.description}` : ''}`);
	}
	return result.items;
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
