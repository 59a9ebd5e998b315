import type { IDataObject } from 'n8n-workflow';

import { allText, loadPackage, PACKAGE_NAME } from '../../harness';
import { PlatformSimulator } from '../../simulator/platform';
import { callPlatform } from '../../simulator/platform/client';
import type { PlatformSimulator as Sim } from '../../simulator/platform';
import type { TriggerDatabase } from '../../harness/trigger';
import { BULK_TRIGGER_TYPE, TRIGGER_TYPE, TriggerInstance } from '../../harness/trigger';
import {
	LIST,
	MINUTE,
	PastClock,
	SCRAPER_A,
	SCRAPER_B,
	TOKEN,
	countRequests,
	ids,
	newTrigger,
	record,
	startJob,
	useSimulator,
} from './helpers';

const ctx = useSimulator();
const HOUR = 3_600_000;

/** Cancels the job's pending URLs through the API, as a user would. */
async function cancel(sim: Sim, id: string): Promise<void> {
	const response = await callPlatform(sim.url, 'PATCH', `/api/v1/scrapers-bulks/result/${id}/cancel`, { token: TOKEN });
	expect(response.status).toBe(200);
}

/** One job of each outcome, all completed a minute later. */
async function mixedOutcomes(sim: Sim) {
	const ok = startJob(sim, { urls: 2 });
	const partlyFailed = startJob(sim, { urls: 2, fail: [1] });
	const failedOnly = startJob(sim, { urls: 2, fail: true });
	const canceled = startJob(sim, { urls: 5, urlMs: 10_000 });
	sim.clock.advance(15_000);
	await cancel(sim, canceled);
	sim.clock.advance(MINUTE);
	expect(record(sim, failedOnly).status).toBe('Failed');
	expect(record(sim, canceled).status).toBe('Canceled');
	expect(record(sim, partlyFailed).status).toBe('Finished');
	return { ok, partlyFailed, failedOnly, canceled };
}

describe('Scraper Bulk Trigger: filters', () => {
	it('by default emits finished and partly failed jobs, skips failed-only and canceled ones; the options include them', async () => {
		const { sim } = ctx;
		const plain = newTrigger(sim);
		const failed = newTrigger(sim, { options: { includeFailed: true } });
		const all = newTrigger(sim, { options: { includeFailed: true, includeCanceled: true } });
		for (const t of [plain, failed, all]) await t.poll();
		const jobs = await mixedOutcomes(sim);
		expect(new Set(ids(await plain.poll()))).toEqual(new Set([jobs.ok, jobs.partlyFailed]));
		expect(new Set(ids(await failed.poll()))).toEqual(new Set([jobs.ok, jobs.partlyFailed, jobs.failedOnly]));
		const everything = await all.poll();
		expect(new Set(ids(everything))).toEqual(new Set(Object.values(jobs)));
		const canceled = everything.find((item) => item.json.id === jobs.canceled)!.json;
		expect(canceled.status).toBe('Canceled');
		expect((canceled.urlDetails as IDataObject[]).map((u) => u.status)).toEqual(['Finished', 'Finished', 'Canceled', 'Canceled', 'Canceled']);
		// Skipped jobs stay skipped: later polls do not bring them back.
		for (const t of [plain, failed, all]) {
			sim.clock.advance(MINUTE);
			expect(await t.poll()).toEqual([]);
		}
	});

	const picked = { __rl: true, mode: 'list', value: SCRAPER_B, cachedResultName: 'shop.example.com · bulk scraper' };
	it.each([
		['picked from the list', TRIGGER_TYPE, 1, picked],
		['typed By ID', TRIGGER_TYPE, 1, { __rl: true, mode: 'id', value: SCRAPER_B }],
		['picked from the list (Scraper Bulk Trigger version 2)', BULK_TRIGGER_TYPE, 2, picked],
		['as Scraper Bulk Trigger version 1 stored it (text)', BULK_TRIGGER_TYPE, 1, SCRAPER_B],
	])("Scraper ID %s keeps only that scraper's jobs, still with one request per poll", async (_shape, nodeType, typeVersion, scraperId) => {
		const { sim } = ctx;
		const trigger = newTrigger(sim, { scraperId }, undefined, typeVersion, nodeType);
		await trigger.poll();
		const a = [startJob(sim, { scraperId: SCRAPER_A }), startJob(sim, { scraperId: SCRAPER_A, urls: 2 })];
		const b = [startJob(sim, { scraperId: SCRAPER_B, urls: 3 }), startJob(sim, { scraperId: SCRAPER_B })];
		sim.clock.advance(MINUTE);
		const poll = await countRequests(sim, () => trigger.poll());
		expect(ids(poll.value)).toEqual([b[1], b[0]]);
		expect(poll.value.every((item) => item.json.scraperId === SCRAPER_B)).toBe(true);
		expect(poll.total).toBe(1);
		sim.clock.advance(MINUTE);
		expect(await trigger.poll()).toEqual([]);
		expect(a).toHaveLength(2);
	});
});

describe('Scraper Bulk Trigger: output', () => {
	it('one item per job carries id, scraper, status, summary counts, URL details and merged data', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		await trigger.poll();
		const id = startJob(sim, { urls: 3, fail: [2] });
		sim.clock.advance(MINUTE);
		const [item, ...rest] = await trigger.poll();
		expect(rest).toEqual([]);
		const full = record(sim, id);
		expect(item.json).toEqual({
			id,
			scraperId: SCRAPER_A,
			status: 'Finished',
			completed: true,
			summary: full.data.summary,
			urlDetails: full.data.urlDetails,
			mergedData: full.data.mergedData,
			createdAt: full.createdAt,
			updatedAt: full.updatedAt,
		});
		expect(full.data.summary).toMatchObject({ totalUrls: 3, successfulUrls: 2, failedUrls: 1 });
		expect(allText([item])).not.toContain(TOKEN);
	});

	it('one item per merged record, each with the bulk job id; a job without records adds none', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim, { output: 'records', options: { includeFailed: true } });
		await trigger.poll();
		const first = startJob(sim, { urls: 2 });
		const failedOnly = startJob(sim, { urls: 1, fail: true });
		const second = startJob(sim, { urls: 3 });
		sim.clock.advance(MINUTE);
		const items = await trigger.poll();
		const expected = [first, second].flatMap((id) => record(sim, id).data.mergedData.map((r) => ({ bulkId: id, ...r })));
		expect(items.map((item) => item.json)).toEqual(expected);
		expect(items.length).toBeGreaterThanOrEqual(5);
		expect(items.some((item) => item.json.bulkId === failedOnly)).toBe(false);
		expect(record(sim, failedOnly).status).toBe('Failed');
	});
});

describe('Scraper Bulk Trigger: backfill on first activation', () => {
	let sim: PlatformSimulator;
	afterEach(async () => {
		await sim?.close();
	});

	it("'Include Jobs Completed in the Last (Hours)' emits those jobs at activation, and only once", async () => {
		// The simulated service starts 40 hours in the past so jobs can complete "yesterday" and "today".
		sim = new PlatformSimulator({ clock: new PastClock(40 * HOUR), bulkUrlDurationMs: 1000, bulkConcurrency: 1 });
		await sim.listen();
		const old = startJob(sim);
		sim.clock.advance(30 * HOUR);
		const recent = [startJob(sim), startJob(sim, { urls: 2 })];
		const running = startJob(sim, { urlMs: 10 * HOUR + 30 * MINUTE });
		sim.clock.advance(10 * HOUR - 5 * MINUTE);
		// Now the service's clock is about the real one again.
		expect(Math.abs(sim.clock.now() - Date.now())).toBeLessThan(10 * MINUTE);

		const backfill = newTrigger(sim, { options: { lookbackHours: 24 } });
		const plain = newTrigger(sim);
		const activation = await countRequests(sim, () => backfill.poll());
		expect(ids(activation.value)).toEqual(recent);
		expect(activation.total).toBe(1);
		expect(await plain.poll()).toEqual([]);

		sim.clock.advance(MINUTE);
		expect(await backfill.poll()).toEqual([]);
		sim.clock.advance(40 * MINUTE);
		expect(ids(await backfill.poll())).toEqual([running]);
		expect(ids(await plain.poll())).toEqual([running]);
		sim.clock.advance(MINUTE);
		expect(await backfill.poll()).toEqual([]);
		expect(ids(activation.value)).not.toContain(old);
	});
});

describe('Scraper Bulk Trigger: Fetch Test Event (manual mode)', () => {
	it('says clearly that no job has completed yet, also while one is running', async () => {
		const { sim } = ctx;
		const trigger = newTrigger(sim);
		const error = await trigger.fetchTestEvent().then(
			() => undefined,
			(e: unknown) => e as Error & { description?: string },
		);
		expect(error?.message).toBe('No completed bulk job found yet');
		expect(error?.description).toContain('Bulk > Start');
		startJob(sim, { urls: 2, urlMs: HOUR });
		sim.clock.advance(MINUTE);
		await expect(trigger.fetchTestEvent()).rejects.toThrow('No completed bulk job found yet');
		// The editor's sample never touches the trigger's state.
		expect(trigger.staticData()).toEqual({});
		expect(trigger.database.saves).toBe(0);
	});

	it('returns the most recent completed job, shaped like a real event', async () => {
		const { sim } = ctx;
		const older = startJob(sim);
		sim.clock.advance(MINUTE);
		const newer = startJob(sim, { urls: 2 });
		startJob(sim, { urls: 1, urlMs: HOUR });
		sim.clock.advance(MINUTE);
		const trigger = newTrigger(sim);
		const sample = await countRequests(sim, () => trigger.fetchTestEvent());
		expect(ids(sample.value)).toEqual([newer]);
		expect(sample.value[0].json.mergedData).toEqual(record(sim, newer).data.mergedData);
		expect(sample.total).toBe(1);
		expect(sim.server.log.last(LIST)!.query).toMatchObject({ sortField: 'updatedAt', sortOrder: 'DESC', search: 'Bulk-AI' });
		const records = await newTrigger(sim, { output: 'records' }).fetchTestEvent();
		expect(records.map((item) => item.json.bulkId)).toEqual(record(sim, newer).data.mergedData.map(() => newer));
		expect(ids(await newTrigger(sim, { scraperId: SCRAPER_A }).fetchTestEvent())).toEqual([newer]);
		expect(older).not.toBe(newer);
	});

	it('applies the filters to the sample and names them when nothing matches', async () => {
		const { sim } = ctx;
		startJob(sim, { scraperId: SCRAPER_A });
		const failed = startJob(sim, { scraperId: SCRAPER_B, fail: true });
		sim.clock.advance(MINUTE);
		const error = await newTrigger(sim, { scraperId: SCRAPER_B })
			.fetchTestEvent()
			.then(
				() => undefined,
				(e: unknown) => e as Error & { description?: string },
			);
		expect(error?.message).toBe(`No completed bulk job of scraper ${SCRAPER_B} found yet`);
		expect(error?.description).toContain('jobs in which every URL failed and canceled jobs are skipped unless enabled in Options');
		expect(ids(await newTrigger(sim, { scraperId: SCRAPER_B, options: { includeFailed: true } }).fetchTestEvent())).toEqual([failed]);
	});

	it('a rejected token is thrown with the how-to-fix description, without the token', async () => {
		const { sim } = ctx;
		const trigger = new TriggerInstance({ baseUrl: sim.url, apiToken: 'not-a-valid-token' });
		const error = await trigger.fetchTestEvent().then(
			() => undefined,
			(e: unknown) => e as Error & { description?: string },
		);
		expect(error?.message).toBe('Scraper Platform did not accept the API token (401 Unauthorized)');
		expect(error?.description).toContain("Check the token in the 'Scraper Platform API' credential");
		expect(allText(error)).not.toContain('not-a-valid-token');
		// When active, the same error fails the poll (n8n logs it) and stores nothing.
		const database: TriggerDatabase = { saves: 0 };
		await expect(new TriggerInstance({ baseUrl: sim.url, apiToken: 'not-a-valid-token', database }).poll()).rejects.toThrow('401');
		expect(database).toEqual({ saves: 0 });
	});
});

describe('Scraper Bulk Trigger: validation before any request', () => {
	it.each([
		[{ scraperId: 'scraper-1' }, 'Invalid \'Scraper ID\': "scraper-1" is not a UUID'],
		[{ options: { lookbackHours: 0 } }, "Invalid 'Include Jobs Completed in the Last (Hours)': 0 is out of range from 1 to 720"],
		[{ options: { lookbackHours: 2.5 } }, "Invalid 'Include Jobs Completed in the Last (Hours)': it must be a whole number, got 2.5"],
	])('%j is rejected in the editor and when active, with no request sent', async (parameters, message) => {
		const { sim } = ctx;
		const trigger = newTrigger(sim, parameters);
		await expect(trigger.fetchTestEvent()).rejects.toThrow(message);
		await expect(trigger.poll()).rejects.toThrow(message);
		expect(sim.server.log.count()).toBe(0);
	});
});

describe('Scraper Platform Trigger: node description', () => {
	it('is a polling trigger on the platform credential with an Event, not an AI tool, listed under the Scraper Platform', () => {
		const node = loadPackage().nodes.get(TRIGGER_TYPE)!;
		const d = node.description;
		expect(d).toMatchObject({ name: 'scraperPlatformTrigger', displayName: 'Scraper Platform Trigger', polling: true, inputs: [], group: ['trigger'] });
		// n8n's node creator lists a trigger in the panel of the node whose name it extends with "Trigger".
		expect(d.displayName).toBe(`${loadPackage().nodes.get(`${PACKAGE_NAME}.scraperPlatform`)!.description.displayName} Trigger`);
		expect(d.hidden).toBeUndefined();
		expect(d.usableAsTool).toBeUndefined();
		expect(d.credentials).toEqual([{ name: 'scraperPlatformApi', required: true }]);
		expect(d.properties[0]).toMatchObject({ name: 'event', type: 'options', default: 'bulkJobCompleted' });
		expect(d.properties.filter((p) => p.name === 'scraperId')).toHaveLength(1);
		expect(typeof node.poll).toBe('function');
	});

	it('the Scraper Bulk Trigger it replaced still loads, hidden from the node creator, with the same parameters', () => {
		const old = loadPackage().nodes.get(BULK_TRIGGER_TYPE)!.description;
		expect(old).toMatchObject({ name: 'scraperBulkTrigger', hidden: true, version: [1, 2], polling: true });
		// The new trigger's parameters for this event: the Event selector, then exactly the old trigger's.
		const names = (type: string, event?: string) => [
			...new Set(
				loadPackage()
					.nodes.get(type)!
					.description.properties.filter((p) => event === undefined || p.name === 'event' || p.displayOptions?.show?.event?.includes(event))
					.map((p) => p.name),
			),
		];
		expect(names(TRIGGER_TYPE, 'bulkJobCompleted')).toEqual(['event', ...names(BULK_TRIGGER_TYPE)]);
	});
});
