import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollWithState } from '../../shared/execution/trigger';
import type { PollingTrigger } from '../../shared/execution/trigger';
import type { TrackedRun } from '../runs/track';
import { pollRuns } from './collect';
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
	start: async (call, params) => ({ state: (await pollRuns(serviceIO(call), undefined, params)).state, collect: false }),
	async collect(call, state, params) {
		const { emit, state: next } = await pollRuns(serviceIO(call), state, params);
		return { found: emit, state: next };
	},
	passes,
	items: runItems,
};

/** One poll: in the editor a sample; when active, the runs that finished since the last successful poll. */
export async function pollRunTrigger(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	return await pollWithState(ctx, runTrigger);
}
