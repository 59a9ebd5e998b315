import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

/** What a polling trigger declares; `pollWithState` runs every poll the same way. */
export interface PollingTrigger<Params, State, Found> {
	readParameters: (ctx: IPollFunctions) => Params;
	/** The editor's sample (Fetch Test Event): recent records, nothing remembered. */
	sample: (ctx: IPollFunctions, params: Params) => Promise<INodeExecutionData[]>;
	readState: (staticData: IDataObject) => State | undefined;
	commitState: (staticData: IDataObject, state: State) => void;
	/** The first poll of an activation: where to start, and whether this poll already collects (a backfill). */
	start: (ctx: IPollFunctions, params: Params) => Promise<{ state: State; collect: boolean }>;
	/** What finished since `state`, and the state to keep once this poll has fully succeeded. */
	collect: (ctx: IPollFunctions, state: State, params: Params) => Promise<{ found: Found[]; state: State }>;
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
	if (ctx.getMode() === 'manual') return [await trigger.sample(ctx, params)];
	const staticData = ctx.getWorkflowStaticData('node');
	let state = trigger.readState(staticData);
	if (state === undefined) {
		const start = await trigger.start(ctx, params);
		if (!start.collect) {
			trigger.commitState(staticData, start.state);
			return null;
		}
		state = start.state;
	}
	const outcome = await trigger.collect(ctx, state, params);
	trigger.commitState(staticData, outcome.state);
	const items = outcome.found.filter((found) => trigger.passes(found, params)).flatMap((found) => trigger.items(found, params));
	return items.length > 0 ? [items] : null;
}
