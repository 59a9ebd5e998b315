import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { NodeCall } from './call';

/** One poll's call: its requests share the credentials read for it (a rotated token is used at the next poll). */
export type PollCall = NodeCall<IPollFunctions>;

/** What a polling trigger declares; `pollWithState` runs every poll the same way. */
export interface PollingTrigger<Params, State, Found> {
	readParameters: (ctx: IPollFunctions) => Params;
	/** The editor's sample (Fetch Test Event): recent records, nothing remembered. */
	sample: (call: PollCall, params: Params) => Promise<INodeExecutionData[]>;
	readState: (staticData: IDataObject) => State | undefined;
	commitState: (staticData: IDataObject, state: State) => void;
	/** The first poll of an activation: where to start, and whether this poll already collects (a backfill). */
	start: (call: PollCall, params: Params) => Promise<{ state: State; collect: boolean }>;
	/** What finished since `state`, and the state to keep once this poll has fully succeeded. */
	collect: (call: PollCall, state: State, params: Params) => Promise<{ found: Found[]; state: State }>;
	passes: (found: Found, params: Params) => boolean;
	items: (found: Found, params: Params) => INodeExecutionData[];
}

/**
 * One poll of a trigger that fires once per finished job or run: in the editor a sample; when active, what finished
 * since the last successful poll. Nothing is written before every request of the poll has succeeded, so a failed
 * poll keeps the old state and the next one tries again; what the filters leave out stays handled.
 */
export async function pollWithState<Params, State, Found>(
	ctx: IPollFunctions,
	trigger: PollingTrigger<Params, State, Found>,
): Promise<INodeExecutionData[][] | null> {
	const params = trigger.readParameters(ctx);
	const call = new NodeCall(ctx);
	if (ctx.getMode() === 'manual') return [await trigger.sample(call, params)];
	const staticData = ctx.getWorkflowStaticData('node');
	let state = trigger.readState(staticData);
	if (state === undefined) {
		const start = await trigger.start(call, params);
		if (!start.collect) {
			trigger.commitState(staticData, start.state);
			return null;
		}
		state = start.state;
	}
	const outcome = await trigger.collect(call, state, params);
	trigger.commitState(staticData, outcome.state);
	const items = outcome.found.filter((found) => trigger.passes(found, params)).flatMap((found) => trigger.items(found, params));
	return items.length > 0 ? [items] : null;
}
