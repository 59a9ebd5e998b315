import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollWithState } from '../../shared/execution/trigger';
import type { PollingTrigger } from '../../shared/execution/trigger';
import type { BulkJob } from '../jobs/job';
import { collectCompletedJobs, newestUpdate } from './paging';
import { readParameters } from './properties';
import type { TriggerParameters } from './properties';
import { jobItems, passesStatusFilters, sampleItems } from './shaping';
import { commitState, readState, startState } from './state';
import type { TriggerState } from './state';

const HOUR_MS = 3_600_000;

const bulkTrigger: PollingTrigger<TriggerParameters, TriggerState, BulkJob> = {
	readParameters,
	sample: sampleItems,
	readState,
	commitState,
	async start(call, params) {
		// A backfill: that many hours ago on this clock, and this very poll emits what completed since.
		if (params.lookbackHours !== undefined) return { state: startState(Date.now() - params.lookbackHours * HOUR_MS), collect: true };
		// Otherwise the newest bulk record's updatedAt (the service's clock), so nothing before it triggers.
		return { state: startState(await newestUpdate(call)), collect: false };
	},
	async collect(call, state, params) {
		const { jobs, state: next } = await collectCompletedJobs(call, state, params.scraperId);
		return { found: jobs, state: next };
	},
	passes: passesStatusFilters,
	items: jobItems,
};

/** One poll: in the editor a sample, when active the jobs completed since the last successful poll. */
export async function pollBulkTrigger(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	return await pollWithState(ctx, bulkTrigger);
}
