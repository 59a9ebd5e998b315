import type { IDataObject } from 'n8n-workflow';

import type { TriggerDatabase } from '../../harness/trigger';
import { BULK_TRIGGER_TYPE, TRIGGER_TYPE } from '../../harness/trigger';
import { MINUTE, SCRAPER_A, SCRAPER_B, ids, newTrigger, startJob, useSimulator } from './helpers';

/**
 * The Scraper Bulk Trigger, replaced by the Scraper Platform Trigger's Bulk Job Completed event: workflows saved with
 * it load and run as before, their state included, and no job fires twice whatever the user edits.
 */

const ctx = useSimulator();

/** A workflow saved with the old type, activated: its first job already fired, its state saved as n8n saves it. */
async function activatedWithOldTrigger(typeVersion: number, scraperId: string | IDataObject) {
	const { sim } = ctx;
	const database: TriggerDatabase = { saves: 0 };
	const old = newTrigger(sim, { scraperId }, database, typeVersion, BULK_TRIGGER_TYPE);
	expect(old.node.name).toBe('Scraper Bulk Trigger');
	await old.poll();
	const fired = startJob(sim, { scraperId: SCRAPER_B });
	sim.clock.advance(MINUTE);
	expect(ids(await old.poll())).toEqual([fired]);
	return { database, fired };
}

describe('Scraper Bulk Trigger (replaced, hidden): saved workflows', () => {
	it.each([
		['version 1 (Scraper ID as text)', 1, SCRAPER_B],
		['version 2 (Scraper ID as a locator)', 2, { __rl: true, mode: 'id', value: SCRAPER_B }],
	])('%s loads and runs as saved; after a restart and an edit nothing fires twice', async (_saved, typeVersion, scraperId) => {
		const { sim } = ctx;
		const { database, fired } = await activatedWithOldTrigger(typeVersion, scraperId);
		startJob(sim, { scraperId: SCRAPER_A });
		const next = startJob(sim, { scraperId: SCRAPER_B, urls: 2 });
		sim.clock.advance(MINUTE);
		// A restart, then the user edits the workflow (Output changed) and saves: n8n reactivates it over the same state.
		const edited = newTrigger(sim, { scraperId, output: 'records' }, database, typeVersion, BULK_TRIGGER_TYPE);
		const items = await edited.poll();
		expect(new Set(items.map((item) => item.json.bulkId))).toEqual(new Set([next]));
		expect(items.some((item) => item.json.bulkId === fired)).toBe(false);
		sim.clock.advance(MINUTE);
		expect(await edited.poll()).toEqual([]);
	});

	it('swapped for the Scraper Platform Trigger under the same name, it goes on from the old state: nothing fires twice', async () => {
		const { sim } = ctx;
		const scraperId = { __rl: true, mode: 'id', value: SCRAPER_B };
		const { database, fired } = await activatedWithOldTrigger(2, scraperId);
		const next = startJob(sim, { scraperId: SCRAPER_B });
		sim.clock.advance(MINUTE);
		// The state is the node's (kept under its name), in the same shape for both types.
		const swapped = newTrigger(sim, { scraperId, options: { lookbackHours: 24 } }, database, 1, TRIGGER_TYPE, 'Scraper Bulk Trigger');
		expect(ids(await swapped.poll())).toEqual([next]);
		expect(fired).not.toBe(next);
		sim.clock.advance(MINUTE);
		expect(await swapped.poll()).toEqual([]);
	});

	it('the new trigger added beside it starts from its own activation: jobs the old one fired do not fire again', async () => {
		const { sim } = ctx;
		const { database } = await activatedWithOldTrigger(2, '');
		const added = newTrigger(sim, {}, database);
		expect(await added.poll()).toEqual([]);
		const next = startJob(sim);
		sim.clock.advance(MINUTE);
		expect(ids(await added.poll())).toEqual([next]);
	});
});
