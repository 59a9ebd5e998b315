import type { IDataObject } from 'n8n-workflow';

import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../../simulator/platform';
import type { UrlDetail } from '../bulkJobs';
import { jsonOf, ROUTES, usePlatform } from '../helpers';

// Bulk > Retry Failed URLs through n8n's engine against the simulator: one new job with exactly the URLs that
// failed (and canceled, when asked), on the job's scraper and its kind; nothing when nothing failed; never twice.

const ctx = usePlatform({ rateLimit: 100_000 });
const manualScraper = DEMO_MANUAL_SCRAPER_IDS[1];
const urls = (tag: string, n: number, failing: number[] = []) =>
	Array.from({ length: n }, (_, i) => `https://shop.example.com/${tag}/${i + 1}${failing.includes(i) ? '/sim-fail' : ''}`);

/** A bulk job of `scraperId` started in the simulator and run to its end (simulated time). */
function endedJob(scraperId: string, list: string[], kind: 'manual' | 'ai' = 'manual'): string {
	const id = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, scraperId, list, kind).id;
	ctx.sim.clock.advance(600_000);
	return id;
}

/** An AI scraper made the way users make one (its first result, type AI, is how its kind is known). */
async function createdAiScraper(): Promise<string> {
	const created = await ctx.run({ resource: 'aiScraper', operation: 'createAndRun', url: 'https://shop.example.com/', prompt: 'Titles' });
	expect(created.error).toBeUndefined();
	return String(created.items[0].json.scraperId);
}

const retry = (bulkId: string, more: IDataObject = {}) => ({ resource: 'bulk', operation: 'retryFailed', bulkId, simplify: false, ...more });
const startsLogged = () => [...ctx.sim.server.log.for(ROUTES.bulk), ...ctx.sim.server.log.for(ROUTES.aiBulk)];

beforeEach(() => {
	ctx.sim.options.bulkUrlDurationMs = 1_000;
	ctx.sim.options.bulkConcurrency = 2;
});

describe('Bulk > Retry Failed URLs', () => {
	it('starts exactly one job on the same manual scraper with exactly the failed URLs, in the job order', async () => {
		const list = urls('a', 6, [1, 4]);
		const bulkId = endedJob(manualScraper, list);
		ctx.sim.server.log.clear();
		const result = await ctx.run(retry(bulkId));
		expect(result.error).toBeUndefined();
		expect(startsLogged()).toHaveLength(1);
		expect(ctx.sim.server.log.last(ROUTES.bulk)?.body).toEqual({ scraperId: manualScraper, urls: [list[1], list[4]] });
		// The job was read once and the scraper's kind detected from its oldest results.
		expect(ctx.sim.server.log.for(ROUTES.result).map((r) => r.path)).toEqual([`/api/v1/results/${bulkId}`]);
		expect(ctx.sim.server.log.last(ROUTES.results)?.query).toMatchObject({ search: manualScraper, sortField: 'createdAt', sortOrder: 'ASC', page: '1' });
		// Bulk > Start's output: the new job.
		const job = result.items[0].json;
		expect(job.id).not.toBe(bulkId);
		expect(ctx.sim.getRecord(String(job.id))?.type).toBe('Bulk-AI');
		expect(job).toMatchObject({ scraperId: manualScraper, completed: false });
		expect((job.urlDetails as UrlDetail[]).map((u) => u.url)).toEqual([list[1], list[4]]);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('retries canceled URLs too only when Include Canceled URLs is on', async () => {
		ctx.sim.options.bulkUrlDurationMs = 10_000;
		ctx.sim.options.bulkConcurrency = 1;
		const list = urls('b', 5, [0]);
		const bulkId = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, manualScraper, list).id;
		ctx.sim.clock.advance(15_000); // the first failed, the second running, three pending
		expect((await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId })).items[0].json.canceledUrls).toEqual(list.slice(2));
		ctx.sim.clock.advance(60_000);

		ctx.sim.server.log.clear();
		await ctx.run(retry(bulkId));
		expect(startsLogged().map((r) => r.body)).toEqual([{ scraperId: manualScraper, urls: [list[0]] }]);

		ctx.sim.server.log.clear();
		const withCanceled = await ctx.run(retry(bulkId, { options: { includeCanceled: true } }));
		expect(withCanceled.error).toBeUndefined();
		expect(startsLogged().map((r) => r.body)).toEqual([{ scraperId: manualScraper, urls: [list[0], ...list.slice(2)] }]);
	});

	it('when nothing failed, outputs one item saying so with the job id and counts, and starts nothing', async () => {
		const bulkId = endedJob(manualScraper, urls('c', 3));
		ctx.sim.server.log.clear();
		const result = await ctx.run(retry(bulkId));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items)).toEqual([
			{
				retried: false,
				message: `Bulk job "${bulkId}" has no failed URLs: no job was started`,
				bulkJobId: bulkId,
				scraperId: manualScraper,
				status: 'Finished',
				totalUrls: 3,
				successfulUrls: 3,
				failedUrls: 0,
				canceledUrls: 0,
			},
		]);
		// Only the job was read: no kind detection, no start.
		expect(ctx.sim.server.log.counts()).toEqual({ [ROUTES.result]: 1 });
	});

	it('a job whose only unfinished URLs were canceled retries nothing without the option, and says which it looked for', async () => {
		ctx.sim.options.bulkUrlDurationMs = 10_000;
		ctx.sim.options.bulkConcurrency = 1;
		const list = urls('d', 3);
		const bulkId = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, manualScraper, list).id;
		ctx.sim.clock.advance(5_000);
		await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId });
		ctx.sim.clock.advance(60_000);
		ctx.sim.server.log.clear();
		const without = (await ctx.run(retry(bulkId))).items[0].json;
		expect(without).toMatchObject({ retried: false, successfulUrls: 1, failedUrls: 0, canceledUrls: 2, status: 'Canceled' });
		expect(startsLogged()).toHaveLength(0);
		const withOption = (await ctx.run(retry(bulkId, { options: { includeCanceled: true } }))).items[0].json;
		expect(withOption.retried).toBeUndefined();
		expect(startsLogged().map((r) => r.body)).toEqual([{ scraperId: manualScraper, urls: list.slice(1) }]);
	});

	it("an AI scraper's job is retried on the AI bulk endpoint, its kind detected from the scraper's results", async () => {
		const aiScraper = await createdAiScraper();
		const list = urls('e', 4, [0, 3]);
		const bulkId = endedJob(aiScraper, list, 'ai');
		ctx.sim.server.log.clear();
		const result = await ctx.run(retry(bulkId));
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(0);
		expect(ctx.sim.server.log.for(ROUTES.aiBulk).map((r) => r.body)).toEqual([{ scraperId: aiScraper, urls: [list[0], list[3]] }]);
		expect(result.items[0].json).toMatchObject({ scraperId: aiScraper });
	});

	it.each([
		['ai', ROUTES.aiBulk],
		['manual', ROUTES.bulk],
	] as const)('Scraper Kind %s is used as chosen, without reading the scraper\'s results', async (kind, route) => {
		const scraper = kind === 'ai' ? await createdAiScraper() : manualScraper;
		const bulkId = endedJob(scraper, urls(`f-${kind}`, 2, [1]), kind);
		ctx.sim.server.log.clear();
		const result = await ctx.run(retry(bulkId, { options: { retryScraperKind: kind } }));
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.count(route)).toBe(1);
		expect(ctx.sim.server.log.count(ROUTES.results)).toBe(0);
		expect(startsLogged()).toHaveLength(1);
	});

	it('the wrong kind chosen gets the service\'s refusal, and no job starts', async () => {
		const bulkId = endedJob(manualScraper, urls('g', 2, [0]));
		const result = await ctx.run(retry(bulkId, { options: { retryScraperKind: 'ai' } }));
		expect(result.error?.httpCode).toBe('422');
		expect(result.error?.message).toMatch(/scraperId/);
		expect(ctx.sim.server.log.for(ROUTES.aiBulk).map((r) => r.status)).toEqual([422]);
	});
});

describe('Bulk > Retry Failed URLs: wait and output shapes, as Bulk > Start', () => {
	it('Wait for Completion, One Item per Record: the retried URLs\' records, each with the new job id', async () => {
		ctx.sim.options.bulkUrlDurationMs = 10_000;
		ctx.sim.options.bulkConcurrency = 1;
		const list = urls('h', 4);
		const bulkId = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, manualScraper, list).id;
		ctx.sim.clock.advance(5_000);
		await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId });
		ctx.sim.clock.advance(60_000);
		ctx.sim.options.bulkUrlDurationMs = 50;
		const result = await ctx.run(
			retry(bulkId, { waitForCompletion: true, bulkOutput: 'records', options: { includeCanceled: true, pollIntervalSeconds: 1 } }),
		);
		expect(result.error).toBeUndefined();
		const records = jsonOf(result.items);
		const jobIds = new Set(records.map((r) => r.bulkId));
		expect(jobIds.size).toBe(1);
		const newJob = String([...jobIds][0]);
		expect(newJob).not.toBe(bulkId);
		expect(new Set(records.map((r) => r.url))).toEqual(new Set(list.slice(1)));
		expect(ctx.sim.server.log.for(ROUTES.result).filter((r) => r.path === `/api/v1/results/${newJob}`).length).toBeGreaterThanOrEqual(1);
	});

	it('One Item per Record whose wait ends first outputs the new job id, its state and the note, never nothing', async () => {
		const bulkId = endedJob(manualScraper, urls('h2', 3, [0, 2]));
		ctx.sim.options.bulkUrlDurationMs = 600_000;
		const result = await ctx.run(retry(bulkId, { waitForCompletion: true, bulkOutput: 'records', options: { pollIntervalSeconds: 1, maxWaitSeconds: 2 } }));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const job = result.items[0].json;
		expect(job.id).not.toBe(bulkId);
		expect(ctx.sim.getRecord(String(job.id))?.type).toBe('Bulk-AI');
		expect(job).toMatchObject({ scraperId: manualScraper, status: 'Running', completed: false, totalUrls: 2, waitTimedOut: true });
		expect(job.waitMessage).toMatch(/^The job is still running after 2 s: 0 of 2 URLs done\. Read it later with Bulk > Get \('Bulk Job ID' /);
		expect(job.waitMessage).toContain(String(job.id));
		expect(job).not.toHaveProperty('urlDetails');
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(startsLogged()).toHaveLength(1);
	});

	it('status reads failing after the start: the output names the new job, and reads went on until Max Wait', async () => {
		const bulkId = endedJob(manualScraper, urls('h3', 2, [1]));
		ctx.sim.server.log.clear();
		// The retried job's reads fail from its start on; the read of the job retried was answered before it.
		ctx.sim.server.beforeHandle = (request) => {
			if (request.route === ROUTES.bulk) ctx.sim.server.faults.add({ kind: 'status', status: 503, routes: [ROUTES.result] });
		};
		try {
			const started = Date.now();
			const result = await ctx.run(retry(bulkId, { waitForCompletion: true, options: { pollIntervalSeconds: 1, maxWaitSeconds: 12 } }), { continueOnFail: true });
			expect(Date.now() - started).toBeGreaterThanOrEqual(12_000);
			const item = result.items[0].json;
			const newJob = String(item.bulkJobId);
			expect(newJob).not.toBe(bulkId);
			expect(ctx.sim.getRecord(newJob)?.type).toBe('Bulk-AI');
			expect(item.error).toMatch(new RegExp(`^Bulk job "${newJob}" was started, but its status could not be read`));
			expect(item.description).toMatch(/^Do not start it again: it goes on in the service\. Read it later with Bulk > Get/);
			expect(item.latestState).toMatchObject({ id: newJob, scraperId: manualScraper, completed: false });
			// The job retried was read once; the new one more than one read's four attempts; started once.
			const reads = ctx.sim.server.log.for(ROUTES.result).map((r) => r.path);
			expect(reads.filter((path) => path === `/api/v1/results/${bulkId}`)).toHaveLength(1);
			expect(reads.filter((path) => path === `/api/v1/results/${newJob}`).length).toBeGreaterThan(4);
			expect(startsLogged()).toHaveLength(1);
		} finally {
			ctx.sim.server.beforeHandle = undefined;
		}
	}, 60_000);

	it('Simplify (version 3 default): the new job in at most ten flat fields, waited for', async () => {
		ctx.sim.options.bulkUrlDurationMs = 50;
		const bulkId = endedJob(manualScraper, urls('i', 3, [0, 2]));
		// Simplify left to its default.
		const result = await ctx.run({ resource: 'bulk', operation: 'retryFailed', bulkId, waitForCompletion: true, options: { pollIntervalSeconds: 1 } });
		expect(result.error).toBeUndefined();
		const simple = result.items[0].json;
		expect(Object.keys(simple).length).toBeLessThanOrEqual(10);
		expect(simple).toMatchObject({ scraperId: manualScraper, completed: true, totalUrls: 2, failedUrls: 2, status: 'Failed' });
		expect(simple).not.toHaveProperty('urlDetails');
	});

	it('version 2: Include Canceled URLs and Scraper Kind sit on the panel, and the whole job is output', async () => {
		ctx.sim.options.bulkUrlDurationMs = 10_000;
		ctx.sim.options.bulkConcurrency = 1;
		const list = urls('j', 3);
		const bulkId = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, manualScraper, list).id;
		ctx.sim.clock.advance(5_000);
		await ctx.run({ resource: 'bulk', operation: 'cancel', bulkId });
		ctx.sim.clock.advance(60_000);
		ctx.sim.server.log.clear();
		const result = await ctx.run({ resource: 'bulk', operation: 'retryFailed', bulkId, includeCanceled: true, retryScraperKind: 'manual' }, { typeVersion: 2 });
		expect(result.error).toBeUndefined();
		expect(startsLogged().map((r) => r.body)).toEqual([{ scraperId: manualScraper, urls: list.slice(1) }]);
		expect(result.items[0].json).toHaveProperty('urlDetails');
	});
});

describe('Bulk > Retry Failed URLs: checked first, never started twice', () => {
	it('a start of unknown outcome (a 502) names the job it retried, its scraper and the URLs, and is not sent again', async () => {
		const list = urls('u', 7, [0, 2, 3, 5]);
		const bulkId = endedJob(manualScraper, list);
		ctx.sim.server.log.clear();
		ctx.sim.server.faults.add({ kind: 'status', status: 502, times: 1, routes: [ROUTES.bulk] });
		const result = await ctx.run(retry(bulkId));
		const failed = [list[0], list[2], list[3], list[5]];
		expect(result.error?.message).toBe(
			`Scraper Platform answered 502 (Bad Gateway): the retry of bulk job "${bulkId}" (a new job on scraper "${manualScraper}" for its 4 URLs (${failed.slice(0, 3).join(', ')} and 1 more)) may have been created [item 0]`,
		);
		expect(result.error?.description).toMatch(new RegExp(`Look for a new bulk job of scraper "${manualScraper}" with Result > Get Many \\(newest first, Filters > 'Scraper ID' ${manualScraper} and 'Search' Bulk-AI\\)`));
		expect(result.error?.message).not.toMatch(/NaN|""/);
		expect(startsLogged()).toHaveLength(1);
	});

	it('a job still running is refused naming it, and nothing is started', async () => {
		ctx.sim.options.bulkUrlDurationMs = 600_000;
		const bulkId = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, manualScraper, urls('k', 3, [0])).id;
		ctx.sim.server.log.clear();
		const result = await ctx.run(retry(bulkId));
		expect(result.error?.message).toBe(`Bulk job "${bulkId}" is still running: 0 of 3 URLs done [item 0]`);
		expect(result.error?.description).toMatch(/Wait for it first/);
		expect(startsLogged()).toHaveLength(0);
	});

	it('a result that is not a bulk job is refused, and nothing is started', async () => {
		const aiScraper = await createdAiScraper();
		const rerun = await ctx.run({ resource: 'aiScraper', operation: 'rerun', scraperId: aiScraper, url: 'https://shop.example.com/x' });
		const resultId = String(rerun.items[0].json.id);
		expect(ctx.sim.getRecord(resultId)?.type).toBe('Rerun-AI');
		ctx.sim.server.log.clear();
		const result = await ctx.run(retry(resultId));
		expect(result.error?.message).toBe(`Result "${resultId}" is not a bulk job: it lists no URLs [item 0]`);
		expect(startsLogged()).toHaveLength(0);
	});

	it.each([
		['Bulk Job ID', { bulkId: 'not-a-uuid' }],
		['Max Wait (Seconds)', { waitForCompletion: true, options: { maxWaitSeconds: 0 } }],
		['Scraper Kind', { options: { retryScraperKind: '={{ "robot" }}' } }],
		['Include Canceled URLs', { options: { includeCanceled: '={{ "often" }}' } }],
		['Output', { bulkOutput: '={{ "rows" }}' }],
	])("a bad '%s' is refused naming it before any request", async (label, parameters) => {
		const result = await ctx.run({ ...retry('3f2b9c1e-8a4d-4e6f-9b2a-1c3d5e7f9a0b'), ...parameters });
		expect(result.error?.message).toMatch(new RegExp(`^Invalid '${label.replace(/[()]/g, '\\$&')}'`));
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it.each([
		['a 502', { kind: 'status', status: 502, times: 1 }],
		['a reset connection', { kind: 'reset', times: 1 }],
	] as const)('after %s the start is not repeated, and the message says the job may have started', async (_what, fault) => {
		const bulkId = endedJob(manualScraper, urls('l', 2, [0]));
		ctx.sim.server.log.clear();
		ctx.sim.server.faults.add({ ...fault, routes: [ROUTES.bulk] });
		const result = await ctx.run(retry(bulkId));
		expect(result.error?.message).toMatch(new RegExp(`the retry of bulk job "${bulkId}" \\(a new job on scraper "${manualScraper}" for its 1 URL \\(https://shop\\.example\\.com/l/1/sim-fail\\)\\) may have been created \\[item 0\\]$`));
		expect(result.error?.description).toMatch(/did not send the request again/);
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(1);
	});

	it('a 429 storm over several items: every item retried once, each with its own job\'s failed URLs, nothing lost', async () => {
		const jobs = Array.from({ length: 6 }, (_, i) => {
			const list = urls(`storm-${i}`, 4, [i % 4, (i + 2) % 4]);
			return { id: ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, DEMO_MANUAL_SCRAPER_IDS[i % 3], list).id, scraperId: DEMO_MANUAL_SCRAPER_IDS[i % 3], failed: list.filter((u) => u.includes('sim-fail')) };
		});
		ctx.sim.clock.advance(600_000);
		ctx.sim.server.log.clear();
		ctx.sim.server.faults.add({ kind: 'status', status: 429, rate: 0.5, retryAfterSeconds: 0, routes: [ROUTES.bulk, ROUTES.result, ROUTES.results] });
		const result = await ctx.run({ resource: 'bulk', operation: 'retryFailed', bulkId: '={{ $json.job }}', simplify: false }, { input: jobs.map((j) => ({ job: j.id })) });
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(jobs.length);
		const accepted = ctx.sim.server.log.for(ROUTES.bulk).filter((r) => r.status === 200);
		expect(accepted.map((r) => r.body)).toEqual(jobs.map((j) => ({ scraperId: j.scraperId, urls: j.failed })));
		expect(ctx.sim.server.log.for().filter((r) => r.status === 429).length).toBeGreaterThan(3);
		result.items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			expect((item.json.urlDetails as UrlDetail[]).map((u) => u.url)).toEqual(jobs[i].failed);
		});
	}, 60_000);

	it('with Continue On Fail, a running job is an error item and the other items are retried', async () => {
		ctx.sim.options.bulkUrlDurationMs = 1_000;
		const done = endedJob(manualScraper, urls('m', 2, [1]));
		ctx.sim.options.bulkUrlDurationMs = 600_000;
		const running = ctx.sim.startBulk(PLATFORM_DEMO_TOKEN, manualScraper, urls('n', 2)).id;
		ctx.sim.server.log.clear();
		const result = await ctx.run({ resource: 'bulk', operation: 'retryFailed', bulkId: '={{ $json.job }}', simplify: false }, { input: [{ job: running }, { job: done }], continueOnFail: true });
		expect(result.items).toHaveLength(2);
		expect(result.items[0]).toMatchObject({ json: { error: expect.stringMatching(/is still running/) }, pairedItem: { item: 0 } });
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		expect(startsLogged()).toHaveLength(1);
	});
});
