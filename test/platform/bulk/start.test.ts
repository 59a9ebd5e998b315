import type { IDataObject } from 'n8n-workflow';

import { DEMO_AI_SCRAPER_IDS, DEMO_MANUAL_SCRAPER_IDS } from '../../simulator/platform';
import { statusCounts, urls } from '../bulkJobs';
import type { UrlDetail } from '../bulkJobs';
import { jsonOf, ROUTES, usePlatform } from '../helpers';

const ctx = usePlatform();
const scraperId = DEMO_MANUAL_SCRAPER_IDS[0];

/** Bulk > Start of these URLs on the manual scraper, waiting for completion (1 s polls), the whole job as output. */
const waitingStart = (list: string[], options: IDataObject = {}, more: IDataObject = {}): IDataObject => ({
	resource: 'bulk',
	operation: 'start',
	simplify: false,
	scraperId,
	urls: list.join('\n'),
	waitForCompletion: true,
	options: { pollIntervalSeconds: 1, ...options },
	...more,
});

describe('Bulk > Start', () => {
	beforeEach(() => {
		ctx.sim.options.bulkUrlDurationMs = 2_000;
		ctx.sim.options.bulkConcurrency = 2;
	});

	it('starts one job per input item from the URL list, sending exactly scraperId and urls', async () => {
		const list = urls(3);
		const result = await ctx.run({ resource: 'bulk', operation: 'start', simplify: false, scraperId, urls: list.join('\n') });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.bulk)?.body).toEqual({ scraperId, urls: list });
		const job = result.items[0].json;
		expect(job.id).toEqual(expect.any(String));
		expect(job.scraperId).toBe(scraperId);
		expect(job.completed).toBe(false);
		expect((job.urlDetails as UrlDetail[]).map((u) => u.url)).toEqual(list);
	});

	it("takes URLs typed as a JSON list, as the service's own n8n node does, and sends that list", async () => {
		const list = urls(2);
		const result = await ctx.run({ resource: 'bulk', operation: 'start', simplify: false, scraperId, urls: JSON.stringify(list, null, 1) });
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.bulk)?.body).toEqual({ scraperId, urls: list });
	});

	it('collects the URL field of all input items into one job, paired with every item', async () => {
		const list = urls(4);
		const result = await ctx.run(
			{ resource: 'bulk', operation: 'start', simplify: false, scraperId, urlSource: 'inputItems', urlField: 'link' },
			{ input: list.map((link) => ({ link })) },
		);
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(1);
		expect(ctx.sim.server.log.last(ROUTES.bulk)?.body).toEqual({ scraperId, urls: list });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].pairedItem).toEqual(list.map((_, item) => ({ item })));
	});

	it('an input item without the URL field is named, and nothing is started', async () => {
		const result = await ctx.run(
			{ resource: 'bulk', operation: 'start', simplify: false, scraperId, urlSource: 'inputItems', urlField: 'link' },
			{ input: [{ link: 'https://a.example.com/' }, { other: 'x' }] },
		);
		expect(result.error?.message).toBe('Invalid \'URL Field\': input item 2 has no field "link"');
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('with Continue On Fail, that error is one item paired with every input item, and nothing is started', async () => {
		const result = await ctx.run(
			{ resource: 'bulk', operation: 'start', simplify: false, scraperId, urlSource: 'inputItems', urlField: 'link' },
			{ input: [{ link: 'https://a.example.com/' }, { other: 'x' }, { link: 'https://b.example.com/' }], continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{
				json: {
					error: 'Invalid \'URL Field\': input item 2 has no field "link"',
					description: 'Make every input item carry the URL in a field named "link", or change \'URL Field\'.',
				},
				pairedItem: [{ item: 0 }, { item: 1 }, { item: 2 }],
			},
		]);
		expect(ctx.sim.server.log.count()).toBe(0);
	});

	it('Wait for Completion: 20 URLs with 3 failing end with 17 finished and 3 failed, counts consistent', async () => {
		ctx.sim.options.bulkUrlDurationMs = 100;
		const list = urls(20, [3, 9, 15]);
		const result = await ctx.run({
			resource: 'bulk',
			operation: 'start',
			simplify: false,
			scraperId,
			urls: list.join(','),
			waitForCompletion: true,
			options: { pollIntervalSeconds: 1, maxWaitSeconds: 60 },
		});
		expect(result.error).toBeUndefined();
		const job = result.items[0].json;
		expect(job.completed).toBe(true);
		expect(job.waitTimedOut).toBeUndefined();
		const details = job.urlDetails as UrlDetail[];
		expect(statusCounts(details)).toEqual({ Finished: 17, Failed: 3 });
		expect(details.filter((d) => d.status === 'Failed').map((d) => d.url)).toEqual([list[3], list[9], list[15]]);
		const summary = job.summary as IDataObject;
		// scrapedCount counts URLs the job has processed (finished or failed).
		expect(summary).toMatchObject({ totalUrls: 20, successfulUrls: 17, failedUrls: 3, scrapedCount: 20 });
		const merged = job.mergedData as IDataObject[];
		// Merged records come only from the finished URLs, each carrying its source URL.
		const finishedUrls = new Set(details.filter((d) => d.status === 'Finished').map((d) => d.url));
		expect(merged.length).toBeGreaterThanOrEqual(17);
		expect(new Set(merged.map((r) => r.url))).toEqual(finishedUrls);
		// Polled through GET /api/v1/results/{id}, and the job was started once.
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(1);
		expect(ctx.sim.server.log.count(ROUTES.result)).toBeGreaterThanOrEqual(1);
	});

	it('Wait for Completion that times out outputs the latest state with a clear note, never hangs', async () => {
		ctx.sim.options.bulkUrlDurationMs = 600_000;
		const started = Date.now();
		const result = await ctx.run(waitingStart(urls(2), { maxWaitSeconds: 2 }));
		expect(Date.now() - started).toBeLessThan(10_000);
		const job = result.items[0].json;
		expect(job.completed).toBe(false);
		expect(job.waitTimedOut).toBe(true);
		expect(job.waitMessage).toMatch(/still running after 2 s: 0 of 2 URLs done/);
	});

	it('One Item per Record outputs each record with the job id', async () => {
		ctx.sim.options.bulkUrlDurationMs = 50;
		const result = await ctx.run(waitingStart(urls(3), {}, { bulkOutput: 'records' }));
		expect(result.error).toBeUndefined();
		const records = jsonOf(result.items);
		expect(records.length).toBeGreaterThanOrEqual(3);
		const bulkIds = new Set(records.map((r) => r.bulkId));
		expect(bulkIds.size).toBe(1);
		expect(ctx.sim.getRecord(String([...bulkIds][0]))?.type).toBe('Bulk-AI');
	});

	it('One Item per Record whose wait ends first outputs the job id, its state and the note, never nothing', async () => {
		ctx.sim.options.bulkUrlDurationMs = 600_000;
		const result = await ctx.run(waitingStart(urls(2), { maxWaitSeconds: 2 }, { bulkOutput: 'records' }));
		expect(result.error).toBeUndefined();
		// No record exists yet: the item is the job, shaped as One Item per Job simplified reports a wait that ended first.
		expect(result.items).toHaveLength(1);
		const job = result.items[0].json;
		expect(ctx.sim.getRecord(String(job.id))?.type).toBe('Bulk-AI');
		expect(job).toEqual({
			id: job.id,
			scraperId,
			status: 'Running',
			completed: false,
			totalUrls: 2,
			successfulUrls: 0,
			failedUrls: 0,
			...(job.totalTokenUsage === undefined ? {} : { totalTokenUsage: job.totalTokenUsage }),
			waitTimedOut: true,
			waitMessage: `The job is still running after 2 s: 0 of 2 URLs done. Read it later with Bulk > Get ('Bulk Job ID' ${String(job.id)}), or start a workflow when it finishes with the Scraper Platform Trigger (Bulk Job Completed). Or raise 'Max Wait (Seconds)'.`,
		});
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(1);
	});
});

describe('Bulk job Simplify (version 3, One Item per Job)', () => {
	// A scraper of its own: the jobs left running here must not meet the cancel tests' scraper.
	let scraperId: string;
	beforeAll(() => {
		scraperId = ctx.sim.createManualScraper();
	});
	const SIMPLIFIED = ['id', 'scraperId', 'status', 'completed', 'totalUrls', 'successfulUrls', 'failedUrls', 'totalTokenUsage', 'waitTimedOut', 'waitMessage'];

	it('on by default: at most ten flat fields, the summary counts on top, equal to the full job', async () => {
		ctx.sim.options.bulkUrlDurationMs = 50;
		const started = await ctx.run({ resource: 'bulk', operation: 'start', scraperId, urls: urls(4, [2]).join('\n'), waitForCompletion: true, options: { pollIntervalSeconds: 1 } });
		expect(started.error).toBeUndefined();
		const simple = started.items[0].json;
		expect(Object.keys(simple).length).toBeLessThanOrEqual(10);
		for (const key of Object.keys(simple)) expect(SIMPLIFIED).toContain(key);
		for (const value of Object.values(simple)) expect(typeof value === 'object' && value !== null).toBe(false);
		expect(simple).not.toHaveProperty('urlDetails');
		const full = await ctx.run({ resource: 'bulk', operation: 'get', bulkId: simple.id, simplify: false });
		const summary = full.items[0].json.summary as IDataObject;
		expect(simple).toEqual({
			id: full.items[0].json.id,
			scraperId,
			status: full.items[0].json.status,
			completed: true,
			totalUrls: 4,
			successfulUrls: 3,
			failedUrls: 1,
			totalTokenUsage: summary.totalTokenUsage,
		});
	});

	it('a wait that ended first keeps its note within the ten fields', async () => {
		ctx.sim.options.bulkUrlDurationMs = 600_000;
		const result = await ctx.run({ resource: 'bulk', operation: 'start', scraperId, urls: urls(2).join('\n'), waitForCompletion: true, options: { pollIntervalSeconds: 1, maxWaitSeconds: 1 } });
		const simple = result.items[0].json;
		expect(simple).toMatchObject({ completed: false, waitTimedOut: true, waitMessage: expect.stringMatching(/^The job is still running after 1 s/) });
		expect(Object.keys(simple).length).toBeLessThanOrEqual(10);
	});

	it('version 2 outputs the whole job', async () => {
		ctx.sim.options.bulkUrlDurationMs = 2_000;
		const result = await ctx.run({ resource: 'bulk', operation: 'start', scraperId, urls: urls(1).join('\n') }, { typeVersion: 2 });
		expect(result.items[0].json).toHaveProperty('urlDetails');
		expect(result.items[0].json).toHaveProperty('summary');
	});
});

describe('Bulk > Start reads the job id the way the service gives it', () => {
	afterEach(() => {
		ctx.sim.options.bulkStartAnswer = 'both';
		ctx.sim.options.bulkStartStatus = 200;
	});

	it.each(['both', 'bulkResultId', 'bulkResultIdOnly'] as const)(
		'answer "%s": the output id, Wait for Completion and merged records all use bulkResultId',
		async (answer) => {
			ctx.sim.options.bulkStartAnswer = answer;
			ctx.sim.options.bulkUrlDurationMs = 100;
			const result = await ctx.run(waitingStart(urls(2), {}, { bulkOutput: 'records' }));
			expect(result.error).toBeUndefined();
			const jobIds = new Set(jsonOf(result.items).map((r) => r.bulkId));
			expect(jobIds.size).toBe(1);
			const jobId = String([...jobIds][0]);
			expect(ctx.sim.getRecord(jobId)?.type).toBe('Bulk-AI');
			// Every poll asked for that job: none with an empty or wrong id.
			const polled = ctx.sim.server.log.for(ROUTES.result).map((r) => r.path);
			expect(polled.length).toBeGreaterThanOrEqual(1);
			expect(new Set(polled)).toEqual(new Set([`/api/v1/results/${jobId}`]));
		},
	);

	it.each(['bulkResultId', 'bulkResultIdOnly'] as const)('answer "%s" without waiting: the job item has its id, status and URLs', async (answer) => {
		ctx.sim.options.bulkStartAnswer = answer;
		ctx.sim.options.bulkStartStatus = 201;
		const result = await ctx.run({ resource: 'bulk', operation: 'start', simplify: false, scraperId, urls: urls(2).join('\n') });
		expect(result.error).toBeUndefined();
		const job = result.items[0].json;
		expect(ctx.sim.getRecord(String(job.id))?.type).toBe('Bulk-AI');
		expect(job).toMatchObject({ scraperId, status: 'Running', completed: false });
		expect((job.urlDetails as UrlDetail[]).map((u) => u.url)).toEqual(urls(2));
		// Only an answer without the record costs one read to fill it in.
		expect(ctx.sim.server.log.count(ROUTES.result)).toBe(answer === 'bulkResultIdOnly' ? 1 : 0);
	});
});

describe('Bulk > Start of an AI scraper', () => {
	it('Scraper Kind AI sends the same body to the AI bulk endpoint and waits the same way', async () => {
		ctx.sim.options.bulkUrlDurationMs = 100;
		const aiScraper = DEMO_AI_SCRAPER_IDS.general;
		const result = await ctx.run({
			resource: 'bulk',
			operation: 'start',
			simplify: false,
			scraperKind: 'ai',
			scraperId: aiScraper,
			urls: urls(3).join('\n'),
			waitForCompletion: true,
			options: { pollIntervalSeconds: 1 },
		});
		expect(result.error).toBeUndefined();
		expect(ctx.sim.server.log.last(ROUTES.aiBulk)?.body).toEqual({ scraperId: aiScraper, urls: urls(3) });
		expect(ctx.sim.server.log.count(ROUTES.bulk)).toBe(0);
		expect(result.items[0].json).toMatchObject({ scraperId: aiScraper, completed: true, status: 'Finished' });
	});

	it('a manual scraper with Scraper Kind AI gets the service\'s refusal, and no job starts', async () => {
		const result = await ctx.run({ resource: 'bulk', operation: 'start', simplify: false, scraperKind: 'ai', scraperId, urls: urls(1)[0] });
		expect(result.error?.httpCode).toBe('422');
		expect(result.error?.message).toMatch(/scraperId/);
		expect(ctx.sim.server.log.count(ROUTES.result)).toBe(0);
	});
});
