import type { IDataObject } from 'n8n-workflow';

import { advance } from '../../../nodes/ScraperMarketplace/trigger/advance';
import { pollRuns } from '../../../nodes/ScraperMarketplace/trigger/collect';
import { commitState, EMITTED_KEPT, readState, stateOf } from '../../../nodes/ScraperMarketplace/trigger/state';
import { page, params, pendingRun } from './pages';
import { HOUR, ResultsModel } from './resultsModel';

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

	it('loads a state saved with a doubtful end (an earlier release) without it, and the next commit drops the field', () => {
		const saved: IDataObject = { version: 2, newestRunId: 900, pending: [{ id: 812, since: 5, checked: 7 }], emitted: [899], doubtfulEnd: 812 };
		const state = readState(saved)!;
		expect(state).toEqual({ version: 2, newestRunId: 900, pending: [{ id: 812, since: 5, checked: 7 }], emitted: [899] });
		commitState(saved, state);
		expect(saved).not.toHaveProperty('doubtfulEnd');
		expect(readState(saved)).toEqual(state);
	});

	it('keeps the end a poll met while it holds one, drops it once none does, and ignores one not whole', () => {
		const endMet = { newest: 930, oldest: 901, results: 100 };
		const staticData: IDataObject = {};
		commitState(staticData, stateOf(900, [], [], endMet));
		const kept = JSON.parse(JSON.stringify(staticData)) as IDataObject;
		expect(readState(kept)).toEqual({ version: 2, newestRunId: 900, pending: [], emitted: [], endMet });
		commitState(kept, stateOf(930, []));
		expect(kept).not.toHaveProperty('endMet');
		for (const broken of [{ ...endMet, results: 'x' }, { newest: 930, oldest: 901 }, 901, null]) {
			expect(readState({ ...kept, endMet: broken })).not.toHaveProperty('endMet');
		}
	});

	it('a run remembered by version 1 stays tracked: its age from its created_at once read, else from the first poll that keeps it', async () => {
		const model = new ResultsModel();
		const run = model.create({ scraperId: 1, size: 1, durationMs: Infinity });
		model.create({ scraperId: 1, size: 150, durationMs: 0 });
		model.now += HOUR;
		const migrated = readState({ version: 1, newestRunId: run.id + 1, pending: [run.id] })!;
		const outcome = await pollRuns(model.io(), migrated, params());
		expect(outcome.state.pending).toEqual([{ id: run.id, since: run.createdAt, checked: model.now }]);
		// Not read this poll (an empty listing, no direct read): kept, its age counted from now.
		const kept = advance(stateOf(10, [{ id: 9, checked: 0 }]), { ...params(), pages: [page([])], runs: new Map() }, 42_000);
		expect('state' in kept && kept.state.pending).toEqual([{ id: 9, since: 42_000, checked: 0 }]);
	});
});
