import type { ICredentialDataDecryptedObject, IExecuteFunctions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';

import type { RequestLimiter } from './concurrency';

/** n8n's context for one call of a node: an execution, a trigger's poll, or a picker's search. */
export type NodeContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/**
 * What one call of a node by n8n shares between its items and their requests: n8n's context, the credentials it
 * decrypted and, with Parallel Requests, the limiter every request takes a slot of. Passed to the operations, the
 * transport and the pickers and triggers' readers in place of module-level state.
 *
 * Its lifetime is the call: made when n8n calls the node (an execution of the node, for an AI agent one tool call; one
 * poll of a trigger; one search of a picker) and dropped when the call returns. So a poll reads the credentials afresh
 * and uses a token rotated since the last poll, while the items of one execution decrypt them once.
 */
export class NodeCall<C extends NodeContext = NodeContext> {
	private readonly credentials = new Map<string, Promise<ICredentialDataDecryptedObject>>();

	constructor(
		readonly ctx: C,
		readonly limiter?: RequestLimiter,
	) {}

	/** The credential of `type`, decrypted once for the call. */
	async credentialsOf(type: string): Promise<ICredentialDataDecryptedObject> {
		let pending = this.credentials.get(type);
		if (!pending) {
			pending = this.ctx.getCredentials(type);
			this.credentials.set(type, pending);
		}
		return await pending;
	}

	/** Where the execution's Stop button is heard; a poll or a search has none. */
	get cancelSignal(): AbortSignal | undefined {
		return 'getExecutionCancelSignal' in this.ctx ? this.ctx.getExecutionCancelSignal() : undefined;
	}
}

/** A call that runs the node's items (the router makes it): its context is an execution's. */
export type ExecutionCall = NodeCall<IExecuteFunctions>;
