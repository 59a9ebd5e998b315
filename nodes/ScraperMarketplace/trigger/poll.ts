import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollWithState } from '../../shared/execution/trigger';
import type { PollingTrigger } from '../../shared/execution/trigger';
import type { TrackedRun } from '../runs/track';
import { collectFinishedRuns, initialState } from './collect';
import { serviceIO } from './io';
import { readParameters } from './properties';
import type { RunTriggerParameters } from './properties';
import { passes, runItems, sampleItems } from './shaping';
import { commitState, readState } from './state';
import type { RunTriggerState } from './state';

const runTrigger: PollingTrigger<RunTriggerParameters, RunTriggerState, TrackedRun> = {
	readParameters,
	sample: sampleItems,
	readState,
	commitState,
	// The first activation notes where the results list stands and which runs are still going: nothing is emitted.
	start: async (call, params) => ({ state: await initialState(serviceIO(call), params), collect: false }),
	async collect(call, state, params) {
		const { runs, state: next } = await collectFinishedRuns(serviceIO(call), state, params);
		return { found: runs, state: next };
	},
	passes,
	items: runItems,
};

/** One poll: in the editor a sample; when active, the runs that finished since the last successful poll. */
export async function pollRunTrigger(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	return await pollWithState(ctx, runTrigger);
}
