import type { IDataObject } from 'n8n-workflow';

import { collectFinishedRuns } from '../../../nodes/ScraperMarketplace/trigger/collect';
import { commitState, EMITTED_KEPT, readState, stateOf } from '../../../nodes/ScraperMarketplace/trigger/state';
import { RunSorter } from '../../../nodes/ScraperMarketplace/trigger/tracking';
import { params, pendingRun } from './pages';
import { HOUR, NODE, ResultsModel } from './resultsModel';

/** The Run Trigger's static data, and a state saved by version 1 of the node. */

describe('Run Trigger: state', () => {
	it('reads its own shapes only: version 2, and version 1 migrated with its pending runs kept', () => {
		expect(readState({})).toBeUndefined();
		expect(readState({ version: 3, newestRunId: 5, pending: [] })).toBeUndefined();
		expect(readState({ version: 1, newestRunId: 5, pending: [4, 'x', 2, 4] })).toEqual({
			version: 2,
			newestRunId: 5,
			pending: [
				{ id: 2, checked: 0 },
				{ id: 4, checked: 0 },
			],
			emitted: [],
		});
	});

	it('is written whole as JSON and read back the same; pending in run order, the newest 1,000 emitted ids', () => {
		const emitted = Array.from({ length: EMITTED_KEPT + 5 }, (_, i) => 1 + i);
		const state = stateOf(900, [pendingRun(8, 5), { id: 3, checked: 0 }], emitted);
		expect(state.pending.map((p) => p.id)).toEqual([3, 8]);
		expect(state.emitted).toEqual(emitted.slice(5));
		const staticData: IDataObject = {};
		commitState(staticData, state);
		expect(readState(JSON.parse(JSON.stringify(staticData)) as IDataObject)).toEqual(state);
		expect(JSON.stringify(staticData)).not.toContain('null');
	});

	it('keeps a doubtful end while a poll saw one, and drops it from the saved data once none did', () => {
		const staticData: IDataObject = {};
		commitState(staticData, stateOf(900, [], [], 812));
		const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		expect(readState(saved)).toMatchObject({ newestRunId: 900, doubtfulEnd: 812 });
		commitState(saved, stateOf(950, []));
		expect(saved).not.toHaveProperty('doubtfulEnd');
		expect(readState({ ...saved, doubtfulEnd: 'x' })).not.toHaveProperty('doubtfulEnd');
	});

	it('a run remembered by version 1 stays tracked: its age from its created_at once read, else from the first poll that keeps it', async () => {
		const model = new ResultsModel();
		const run = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		model.create({ scraperId: 1, size: 150, durationMs: 0 });
		model.now += HOUR;
		const migrated = readState({ version: 1, newestRunId: run.id + 1, pending: [run.id] })!;
		const outcome = await collectFinishedRuns(model.io(), migrated, params());
		expect(outcome.state.pending).toEqual([{ id: run.id, since: run.createdAt, checked: model.now }]);
		const sorter = new RunSorter(params(), [], 42_000);
		sorter.keep({ id: 9, checked: 0 });
		expect(sorter.outcome(10, NODE).state.pending).toEqual([{ id: 9, since: 42_000, checked: 0 }]);
	});
});
