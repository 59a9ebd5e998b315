import { loadPackage, PACKAGE_NAME } from '../../harness';
import type { TriggerDatabase } from '../../harness/trigger';
import { RUN_TRIGGER_TYPE, SCRAPER_RUN_TRIGGER_TYPE } from '../../harness/trigger';
import { createScraper, newRunTrigger, runIds, scrapersFilter, startRun, useRunSimulator } from './helpers';

/**
 * The Scraper Run Trigger, replaced by the Scraper Marketplace Trigger's Scraping Run Finished event: workflows saved
 * with it load and run as before, their state included, and no run fires twice whatever the user edits.
 */

const QUEUED_MS = 1_000;
const RUN_MS = 3_000;
const MINUTE = 60_000;

const ctx = useRunSimulator({ queuedMs: QUEUED_MS, runMs: RUN_MS });

/** A workflow saved with the old type, activated: one run already fired, a second still going, the state saved. */
async function activatedWithOldTrigger() {
	const { sim } = ctx;
	const { scraperId } = await createScraper(sim, 'Bakers');
	sim.clock.advance(MINUTE);
	const database: TriggerDatabase = { saves: 0 };
	const old = newRunTrigger(sim, scrapersFilter(scraperId), database, SCRAPER_RUN_TRIGGER_TYPE);
	expect(old.node.name).toBe('Scraper Run Trigger');
	await old.poll();
	const fired = await startRun(sim, scraperId);
	sim.clock.advance(QUEUED_MS + RUN_MS);
	expect(runIds(await old.poll())).toEqual([fired]);
	const going = await startRun(sim, scraperId, { urls: 2 });
	expect(await old.poll()).toEqual([]);
	return { database, scraperId, fired, going };
}

describe('Scraper Run Trigger (replaced, hidden): saved workflows', () => {
	it('loads and runs as saved; after a restart and an edit the run going at the restart fires once, the fired one never again', async () => {
		const { sim } = ctx;
		const { database, scraperId, fired, going } = await activatedWithOldTrigger();
		sim.clock.advance(QUEUED_MS + RUN_MS);
		// A restart, then the user edits the workflow (Output changed) and saves: n8n reactivates it over the same state.
		const edited = newRunTrigger(sim, { ...scrapersFilter(scraperId), output: 'records' }, database, SCRAPER_RUN_TRIGGER_TYPE);
		const items = await edited.poll();
		expect(new Set(runIds(items))).toEqual(new Set([going]));
		expect(runIds(items)).not.toContain(fired);
		sim.clock.advance(MINUTE);
		expect(await edited.poll()).toEqual([]);
	});

	it('swapped for the Scraper Marketplace Trigger under the same name, it goes on from the old state: nothing fires twice', async () => {
		const { sim } = ctx;
		const { database, scraperId, fired, going } = await activatedWithOldTrigger();
		sim.clock.advance(QUEUED_MS + RUN_MS);
		const swapped = newRunTrigger(sim, scrapersFilter(scraperId), database, RUN_TRIGGER_TYPE, 'Scraper Run Trigger');
		expect(runIds(await swapped.poll())).toEqual([going]);
		expect(fired).not.toBe(going);
		sim.clock.advance(MINUTE);
		expect(await swapped.poll()).toEqual([]);
	});
});

describe('Scraper Marketplace Trigger: node description', () => {
	const description = (type: string) => loadPackage().nodes.get(type)!.description;
	const names = (type: string) => [...new Set(description(type).properties.map((p) => p.name))];

	it('is listed under the Scraper Marketplace (its name plus "Trigger"), with an Event; the type it replaced is hidden', () => {
		expect(description(RUN_TRIGGER_TYPE)).toMatchObject({ name: 'scraperMarketplaceTrigger', polling: true, group: ['trigger'], credentials: [{ name: 'scraperMarketplaceApi', required: true }] });
		expect(description(RUN_TRIGGER_TYPE).displayName).toBe(`${description(`${PACKAGE_NAME}.scraperMarketplace`).displayName} Trigger`);
		expect(description(RUN_TRIGGER_TYPE).hidden).toBeUndefined();
		expect(description(RUN_TRIGGER_TYPE).properties[0]).toMatchObject({ name: 'event', default: 'scrapingRunFinished' });
		expect(description(SCRAPER_RUN_TRIGGER_TYPE)).toMatchObject({ name: 'scraperRunTrigger', hidden: true, version: 1 });
		expect(names(RUN_TRIGGER_TYPE)).toEqual(['event', ...names(SCRAPER_RUN_TRIGGER_TYPE)]);
	});
});
