import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether this run answers an AI Agent's tool call. n8n offers a node with `usableAsTool` under its type name plus
 * `Tool` and runs that type for each call; `isToolExecution` is true only where a tool runs as a sub-node (agents
 * before version 3), so the type name is the test that holds for every agent.
 */
export function isToolCall(ctx: IExecuteFunctions): boolean {
	return ctx.getNode().type.endsWith('Tool') || ctx.isToolExecution?.() === true;
}
