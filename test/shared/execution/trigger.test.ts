// The trigger's poll driver of nodes/shared/execution, checked alone.
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollWithState } from '../../../nodes/shared/execution/trigger';
import type { PollingTrigger } from '../../../nodes/shared/execution/trigger';

describe('pollWithState: one poll of a trigger', () => {
	interface Fake {
		ctx: IPollFunctions;
		staticData: IDataObject;
	}
	function fakePoll(mode: 'manual' | 'trigger', staticData: IDataObject = {}): Fake {
		const ctx = { getMode: () => mode, getWorkflowStaticData: () => staticData } as unknown as IPollFunctions;
		return { ctx, staticData };
	}
	/** A trigger over numbers: it finds `found`, keeps `state` as { at }, and lets even numbers pass. */
	function trigger(found: number[], options: { backfill?: boolean; fail?: boolean } = {}): PollingTrigger<{ even: boolean }, { at: number }, number> {
		return {
			readParameters: () => ({ even: true }),
			sample: async () => [{ json: { sample: true } }],
			readState: (data) => (typeof data.at === 'number' ? { at: data.at } : undefined),
			commitState: (data, state) => {
				data.at = state.at;
			},
			start: async () => ({ state: { at: 10 }, collect: options.backfill === true }),
			collect: async (_ctx, state) => {
				if (options.fail) throw new Error('the service did not answer');
				return { found, state: { at: state.at + found.length } };
			},
			passes: (value, params) => !params.even || value % 2 === 0,
			items: (value): INodeExecutionData[] => [{ json: { value } }],
		};
	}

	it('in the editor: the sample, and nothing remembered', async () => {
		const { ctx, staticData } = fakePoll('manual');
		expect(await pollWithState(ctx, trigger([1, 2]))).toEqual([[{ json: { sample: true } }]]);
		expect(staticData).toEqual({});
	});

	it('first activation: only notes where it starts, fires nothing', async () => {
		const { ctx, staticData } = fakePoll('trigger');
		expect(await pollWithState(ctx, trigger([1, 2]))).toBeNull();
		expect(staticData).toEqual({ at: 10 });
	});

	it('a backfill collects in the first poll already', async () => {
		const { ctx, staticData } = fakePoll('trigger');
		expect(await pollWithState(ctx, trigger([2, 3, 4], { backfill: true }))).toEqual([[{ json: { value: 2 } }, { json: { value: 4 } }]]);
		expect(staticData).toEqual({ at: 13 });
	});

	it('later polls fire what passes the filters; what is filtered out stays handled; nothing found fires nothing', async () => {
		const { ctx, staticData } = fakePoll('trigger', { at: 20 });
		expect(await pollWithState(ctx, trigger([1, 3]))).toBeNull();
		expect(staticData).toEqual({ at: 22 });
		expect(await pollWithState(ctx, trigger([]))).toBeNull();
		expect(staticData).toEqual({ at: 22 });
	});

	it('a failed poll keeps the old state, so the next one tries again', async () => {
		const { ctx, staticData } = fakePoll('trigger', { at: 20 });
		await expect(pollWithState(ctx, trigger([2], { fail: true }))).rejects.toThrow('the service did not answer');
		expect(staticData).toEqual({ at: 20 });
	});
});
