import { NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';
import type {
	EngineRequest,
	EngineResponse,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
} from 'n8n-workflow';

import { executeWorkflow } from './execute';
import { asToolType, fullNodeType, loadPackage, NodeTypes } from './package';

/**
 * An AI Agent without a model, for tests: it asks n8n's engine to run its tool nodes exactly as n8n's AI Agent 3.x
 * does (an EngineRequest with one action per tool call; the engine runs the tool node once per call, each run with
 * its own execution context, then resumes the agent with the results), following a script of turns.
 */

export interface ToolCall {
	/** The tool node's name in the workflow. */
	tool: string;
	/** The arguments a model would give: `$fromAI('key')` in the tool's parameters reads `input.key`. */
	input: IDataObject;
}

/** One model turn: the tool calls it makes at once, or a function of what the tools answered so far. */
type AgentTurn = ToolCall[] | ((observations: Observation[]) => ToolCall[]);

interface Observation {
	tool: string;
	input: IDataObject;
	/** The json of the tool's output items, what n8n's agent serialises for the model. */
	output?: IDataObject[];
	/** The tool run's error message, when the tool node failed. */
	error?: string;
}

interface AgentState {
	turn: number;
	observations: Observation[];
}

const AGENT_NAME = 'Scripted Agent';

function scriptedAgent(turns: AgentTurn[]): INodeType {
	return {
		description: {
			displayName: 'Scripted Agent',
			name: 'scriptedAgent',
			group: ['transform'],
			version: 1,
			description: 'Calls its tools as a script says',
			defaults: { name: AGENT_NAME },
			inputs: [NodeConnectionTypes.Main, NodeConnectionTypes.AiTool],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async execute(this: IExecuteFunctions, response?: EngineResponse) {
			// The engine may call a node with an empty response (no actions answered yet).
			const metadata = response?.metadata as Partial<AgentState> | undefined;
			const previous = typeof metadata?.turn === 'number' ? (metadata as AgentState) : undefined;
			const observations = [...(previous?.observations ?? [])];
			for (const result of response?.actionResponses ?? []) {
				const data = result.data;
				observations.push({
					tool: result.action.nodeName,
					input: result.action.input,
					output: data.data?.ai_tool?.[0]?.map((item) => item.json),
					error: data.error?.message,
				});
			}
			const turn = previous ? previous.turn + 1 : 0;
			const script = turns[turn];
			const calls = typeof script === 'function' ? script(observations) : script;
			if (!calls || calls.length === 0) return [[{ json: { observations } as unknown as IDataObject }]];
			const request: EngineRequest<AgentState & { itemIndex: number }> = {
				actions: calls.map((call, index) => ({
					actionType: 'ExecutionNodeAction' as const,
					nodeName: call.tool,
					input: call.input,
					type: NodeConnectionTypes.AiTool,
					id: `call_${turn}_${index}`,
					metadata: { itemIndex: 0, turn, observations },
				})),
				metadata: { itemIndex: 0, turn, observations },
			};
			return request;
		},
	};
}

export interface AgentTool {
	/** Node name in the workflow, what the agent calls. */
	name: string;
	/** Short type of our node, e.g. `scraperGateway`; it runs as `<type>Tool`. */
	nodeType: string;
	parameters: INodeParameters;
	typeVersion?: number;
	/** Settings > On Error = Continue (regular output). */
	continueOnFail?: boolean;
}

interface AgentRunOptions {
	tools: AgentTool[];
	credentials: Record<string, ICredentialDataDecryptedObject>;
	turns: AgentTurn[];
	executionId?: string;
}

interface AgentRunResult {
	run: IRun;
	/** Every tool call and what it answered, in order. */
	observations: Observation[];
	/** The error that ended the execution, if any. */
	error?: Error;
	/** The description n8n gives the model for each tool (n8n-workflow's own getToolDescriptionForNode). */
	toolDescriptions: Record<string, string>;
}

/** The tool node of one of our nodes as n8n's AI Agent sees it, with its type and the description the model gets. */
function toolNode(tool: AgentTool, index: number): { node: INode; type: string; toolType: INodeType; description: string } {
	const base = fullNodeType(tool.nodeType);
	const baseType = loadPackage().nodes.get(base);
	if (!baseType) throw new Error(`Unknown node ${tool.nodeType}`);
	const toolType = asToolType(baseType);
	const credentialRefs: INode['credentials'] = {};
	for (const type of baseType.description.credentials?.map((c) => c.name) ?? []) credentialRefs[type] = { id: `${type}-id`, name: `${type} test` };
	const node: INode = {
		id: `tool-${index}`,
		name: tool.name,
		type: `${base}Tool`,
		typeVersion: tool.typeVersion ?? Math.max(...[baseType.description.version].flat()),
		position: [200, 200 + index * 100],
		parameters: {},
		credentials: credentialRefs,
		continueOnFail: tool.continueOnFail,
		onError: tool.continueOnFail ? 'continueRegularOutput' : undefined,
	};
	node.parameters = NodeHelpers.getNodeParameters(toolType.description.properties, tool.parameters, true, false, node, toolType.description) ?? {};
	return { node, type: `${base}Tool`, toolType, description: NodeHelpers.getToolDescriptionForNode(node, toolType) };
}

/** Runs Manual Trigger -> Scripted Agent with our nodes as its tools through n8n-core's WorkflowExecute. */
export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
	const types = new Map<string, INodeType>();
	types.set('test.scriptedAgent', scriptedAgent(options.turns));
	types.set('test.manualTrigger', {
		description: { ...scriptedAgent([]).description, name: 'manualTrigger', inputs: [], outputs: [NodeConnectionTypes.Main], group: ['trigger'] },
		async execute(this: IExecuteFunctions) {
			return [[{ json: {} }]];
		},
	});
	const workflowNodes: INode[] = [
		{ id: 'trigger', name: 'Manual Trigger', type: 'test.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'agent', name: AGENT_NAME, type: 'test.scriptedAgent', typeVersion: 1, position: [200, 0], parameters: {} },
	];
	const connections: Workflow['connectionsBySourceNode'] = { 'Manual Trigger': { main: [[{ node: AGENT_NAME, type: 'main', index: 0 }]] } };
	const toolDescriptions: Record<string, string> = {};
	for (const [index, tool] of options.tools.entries()) {
		const { node, type, toolType, description } = toolNode(tool, index);
		types.set(type, toolType);
		toolDescriptions[tool.name] = description;
		workflowNodes.push(node);
		connections[tool.name] = { ai_tool: [[{ node: AGENT_NAME, type: 'ai_tool', index: 0 }]] };
	}
	const settings = { timezone: 'UTC', executionOrder: 'v1' as const };
	const workflow = new Workflow({ id: 'harness-agent', name: 'Harness agent', nodes: workflowNodes, connections, nodeTypes: new NodeTypes(types), active: false, settings });
	const { credentials, executionId } = options;
	const run = await executeWorkflow(workflow, { start: workflowNodes[0], input: [{ json: {} }], credentialTypes: loadPackage().credentials, credentials, executionId });
	const agentOutput = run.data.resultData.runData[AGENT_NAME]?.at(-1)?.data?.main?.[0] as INodeExecutionData[] | undefined;
	const observations = (agentOutput?.[0]?.json.observations ?? []) as unknown as Observation[];
	return { run, observations, error: run.data.resultData.error, toolDescriptions };
}
