import {
	CronError,
	DEMO_SCHEDULE,
	MARKETPLACE_DEMO_TOKEN,
	MARKETPLACE_OTHER_USER_TOKEN,
	MarketplaceSimulator,
	SCHEDULE_CATCH_UP_LIMIT,
	cronFirings,
	nextCronFiring,
	parseCron,
	type CreateAndRunResponse,
	type RunListRecord,
	type ScrapingRunRecord,
} from '../../simulator/marketplace';
import { served } from '../served';

/**
 * Scheduled scrapers (section C configuration `scheduled`, `cron`, `cron_timezone`, `cron_*`): the simulator makes
 * their runs by itself on the simulated clock, created lazily when anything is read, each with its firing time.
 */

const sim = served(new MarketplaceSimulator({ queuedMs: 1_000, runMs: 3_000 }));

beforeEach(() => {
	Object.assign(sim.options, { queuedMs: 1_000, runMs: 3_000, runStaggerMs: 0, scheduleCatchUpLimit: SCHEDULE_CATCH_UP_LIMIT });
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

interface Answer<T> {
	status: number;
	body: T;
}

async function api<T>(method: string, path: string, body?: unknown, token = MARKETPLACE_DEMO_TOKEN, server = sim): Promise<Answer<T>> {
	const response = await fetch(`${server.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: JSON.parse(await response.text()) as T };
}

async function results(query = '', server = sim): Promise<RunListRecord[]> {
	const answer = await api<{ data: RunListRecord[] }>('GET', `/api/results${query}`, undefined, MARKETPLACE_DEMO_TOKEN, server);
	expect(answer.status).toBe(200);
	return answer.body.data;
}

/** Every result of the account, page by page (newest first). */
async function allResults(server = sim): Promise<RunListRecord[]> {
	const all: RunListRecord[] = [];
	for (let page = 1; ; page++) {
		const data = await results(`?page=${page}&per_page=100`, server);
		all.push(...data);
		if (data.length < 100) return all;
	}
}

async function scrapingRun(id: number): Promise<ScrapingRunRecord> {
	const answer = await api<{ data: ScrapingRunRecord }>('GET', `/api/scraping-runs/${id}`);
	expect(answer.status).toBe(200);
	return answer.body.data;
}

/** Distinct scraping runs of a listing, in listing order. */
function runIds(records: RunListRecord[]): number[] {
	return [...new Set(records.map((r) => r.scraping_run_id))];
}

/**
 * Moves the simulated clock to `offsetMs` after the next multiple of `periodMs`, so a test that then schedules and
 * advances by whole periods knows exactly which firings fall in its span (real time passing during the test is
 * milliseconds, far below the margins).
 */
function alignTo(periodMs: number, offsetMs = 500): number {
	const now = sim.clock.now();
	const boundary = now - (now % periodMs) + periodMs;
	sim.clock.advance(boundary + offsetMs - now);
	// The boundary, not a second clock reading: real time moves the clock on by a millisecond now and then.
	return boundary;
}

const PORTAL = '/api/scrapers/real-estate-portal/create-and-run';
const portalLocations = {
	name: 'Scheduled rentals',
	options: 'locations',
	locations: ['Surry Hills', 'Newtown'],
	channel: 'rent',
	property_types: ['house', 'unit apartment'],
};
const portalLinks = {
	name: 'Scheduled listing pages',
	options: 'links',
	urls: ['https://www.portal.example/rent/list-1', 'https://www.portal.example/rent/list-2'],
	channel: 'rent',
	property_types: ['all'],
};
const searchLeads = { name: 'Scheduled plumbers', search_type: 'keywords', keywords: 'plumbers austin', limit_pages: 1 };

async function createPortal(body: object = portalLocations): Promise<CreateAndRunResponse> {
	const answer = await api<CreateAndRunResponse>('POST', PORTAL, body);
	expect(answer.status).toBe(200);
	return answer.body;
}

describe('cron expressions', () => {
	it('parses the standard 5-field forms: *, numbers, names, lists, ranges, steps', () => {
		expect(parseCron('*/5 * * * *').minutes).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]);
		expect(parseCron('10-50/20 * * * *').minutes).toEqual([10, 30, 50]);
		expect(parseCron('5/15 * * * *').minutes).toEqual([5, 20, 35, 50]);
		expect(parseCron('0,30 9-11,14 * * *')).toMatchObject({ minutes: [0, 30], hours: [9, 10, 11, 14] });
		expect(parseCron('0 0 * jan,Mar-may *').months.flatMap((on, m) => (on ? [m] : []))).toEqual([1, 3, 4, 5]);
		expect(parseCron('0 0 * * MON-FRI').daysOfWeek).toEqual([false, true, true, true, true, true, false]);
		// 0 and 7 are both Sunday.
		expect(parseCron('0 0 * * 7').daysOfWeek).toEqual(parseCron('0 0 * * 0').daysOfWeek);
		expect(parseCron('0 0 * * 5-7').daysOfWeek).toEqual([true, false, false, false, false, true, true]);
		// Whitespace is normalised; the fields are kept as written (they are the configuration's cron_* parts).
		expect(parseCron('  */5   9-17  *  * MON-FRI ')).toMatchObject({ expression: '*/5 9-17 * * MON-FRI', fields: ['*/5', '9-17', '*', '*', 'MON-FRI'] });
	});

	it.each([
		['', /expected 5 fields/],
		['* * * *', /expected 5 fields/],
		['0 * * * * *', /expected 5 fields/],
		['@hourly', /macros/],
		['60 * * * *', /field 1 \(minute\) "60": 60 is out of range 0-59/],
		['* 24 * * *', /field 2 \(hour\).*out of range 0-23/],
		['* * 0 * *', /field 3 \(day of month\).*out of range 1-31/],
		['* * * 13 *', /field 4 \(month\).*out of range 1-12/],
		['* * * * 8', /field 5 \(day of week\).*out of range 0-7/],
		['5-1 * * * *', /runs backwards/],
		['*/0 * * * *', /step 0 is out of range/],
		['*/61 * * * *', /step 61 is out of range/],
		['1,,2 * * * *', /empty list item/],
		['*/x * * * *', /step "x" is not a number/],
		['1-2-3 * * * *', /not a range/],
		['*/2/3 * * * *', /more than one "\/"/],
		['? * * * *', /not a number/],
		['0 0 L * *', /"L" is not a number/],
		['0 0 * * MON#2', /not a number or a name/],
		['0 0 * FOO *', /not a number or a name/],
		['0 0 31 2 *', /can never fire/],
		['0 0 30,31 2 *', /can never fire/],
	])('refuses %j', (expression, message) => {
		expect(() => parseCron(expression)).toThrow(CronError);
		expect(() => parseCron(expression)).toThrow(message);
		expect(() => parseCron(expression)).toThrow(`Invalid cron expression "${expression}"`);
	});

	it('fires at each matching UTC minute in (after, until], in order', () => {
		const base = Date.UTC(2025, 0, 1);
		expect([...cronFirings('*/15 * * * *', base, base + HOUR)].map((t) => new Date(t).toISOString())).toEqual([
			'2025-01-01T00:15:00.000Z',
			'2025-01-01T00:30:00.000Z',
			'2025-01-01T00:45:00.000Z',
			'2025-01-01T01:00:00.000Z',
		]);
		// `after` is excluded, `until` included.
		expect([...cronFirings('0 * * * *', base, base)]).toEqual([]);
		expect([...cronFirings('0 * * * *', base - 1, base)]).toEqual([base]);
		// Day of month and day of week both restricted: either matches (Vixie cron). 1 January 2025 is a Wednesday.
		const january = (expression: string) => [...cronFirings(expression, base - 1, Date.UTC(2025, 0, 31, 23, 59))].map((t) => new Date(t).getUTCDate());
		expect(january('0 0 1 * MON')).toEqual([1, 6, 13, 20, 27]);
		// One of them starting with `*`: both must match.
		expect(january('0 0 */2 * MON')).toEqual([13, 27]);
		expect(january('0 0 * * MON')).toEqual([6, 13, 20, 27]);
		expect(nextCronFiring('0 0 29 2 *', base)).toBe(Date.UTC(2028, 1, 29));
		expect(nextCronFiring('0 9 * * MON-FRI', Date.UTC(2025, 0, 3, 9))).toBe(Date.UTC(2025, 0, 6, 9));
	});

	it('reads the expression in a time zone, through daylight-saving changes', () => {
		const iso = (ts: Iterable<number>) => [...ts].map((t) => new Date(t).toISOString());
		// 09:00 in Berlin is 08:00 UTC in winter, 07:00 UTC in summer.
		expect(nextCronFiring('0 9 * * *', Date.UTC(2025, 0, 10), 'Europe/Berlin')).toBe(Date.UTC(2025, 0, 10, 8));
		expect(nextCronFiring('0 9 * * *', Date.UTC(2025, 6, 10), 'Europe/Berlin')).toBe(Date.UTC(2025, 6, 10, 7));
		// 30 March 2025: 02:00 jumps to 03:00, so 02:30 does not exist that day.
		expect(iso(cronFirings('30 2 * * *', Date.UTC(2025, 2, 29), Date.UTC(2025, 2, 31, 12), 'Europe/Berlin'))).toEqual([
			'2025-03-29T01:30:00.000Z',
			'2025-03-31T00:30:00.000Z',
		]);
		// 26 October 2025: 03:00 goes back to 02:00, so 02:30 happens twice.
		expect(iso(cronFirings('30 2 * * *', Date.UTC(2025, 9, 25, 12), Date.UTC(2025, 9, 26, 12), 'Europe/Berlin'))).toEqual([
			'2025-10-26T00:30:00.000Z',
			'2025-10-26T01:30:00.000Z',
		]);
		expect(() => [...cronFirings('* * * * *', 0, 1, 'Mars/Olympus_Mons')]).toThrow(/unknown time zone "Mars\/Olympus_Mons"/);
	});
});

describe('schedule control methods and the stored configuration', () => {
	it('scheduleScraper keeps scheduled, cron, cron_timezone and the cron_* parts consistent; unscheduleScraper restores the defaults', async () => {
		const created = await createPortal();
		const id = created.scraper.id;
		const before = sim.clock.now();
		const info = sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, ' 0,30  9-17 * * MON-FRI', { timezone: 'Europe/Berlin' });
		expect(info.scraper).toMatchObject({ id, scheduled: true, schedule: { cron: '0,30 9-17 * * MON-FRI', cron_timezone: 'Europe/Berlin' } });
		expect(info.scraper.schedule?.next_run_at).toBe(new Date(nextCronFiring('0,30 9-17 * * MON-FRI', sim.clock.now(), 'Europe/Berlin') as number).toISOString());
		expect(info.configuration).toMatchObject({
			id,
			scheduled: true,
			cron: '0,30 9-17 * * MON-FRI',
			cron_timezone: 'Europe/Berlin',
			cron_minutes: '0,30',
			cron_hours: '9-17',
			cron_day_of_month: '*',
			cron_month: '*',
			cron_day_of_week: 'MON-FRI',
			cron_minutes_n_detail: null,
			cron_minutes_x_detail: null,
		});
		const c = info.configuration;
		expect([c.cron_minutes, c.cron_hours, c.cron_day_of_month, c.cron_month, c.cron_day_of_week].join(' ')).toBe(c.cron);
		expect(info.schedule).toMatchObject({ runsCreated: 0, firingsSkipped: 0, failEvery: null });
		expect(Date.parse(info.schedule?.since ?? '')).toBeGreaterThanOrEqual(before);

		const off = sim.unscheduleScraper(MARKETPLACE_DEMO_TOKEN, id);
		expect(off.scraper).toMatchObject({ scheduled: false, schedule: null });
		expect(off.configuration).toMatchObject({ scheduled: false, cron: null, cron_timezone: 'UTC', cron_minutes: '*', cron_hours: '*', cron_day_of_month: '*', cron_month: '*', cron_day_of_week: '*' });
		expect(off.schedule).toBeNull();
		// Unscheduling again changes nothing.
		expect(sim.unscheduleScraper(MARKETPLACE_DEMO_TOKEN, id).configuration).toEqual(off.configuration);
		// An HTTP-created scraper is unscheduled, as before.
		expect(created.scraper).toMatchObject({ scheduled: false, schedule: null });
	});

	it('refuses invalid expressions, unknown time zones, bad failEvery, unknown or foreign scrapers, invalid inputs', async () => {
		const id = (await createPortal()).scraper.id;
		expect(() => sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '61 * * * *')).toThrow(CronError);
		expect(() => sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '61 * * * *')).toThrow(/^MarketplaceSimulator\.scheduleScraper: Invalid cron expression "61 \* \* \* \*"/);
		expect(() => sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '* * * * *', { timezone: 'Nowhere/City' })).toThrow(/unknown time zone "Nowhere\/City"/);
		expect(() => sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '* * * * *', { failEvery: 0 })).toThrow(/failEvery must be an integer >= 1/);
		expect(() => sim.scheduleScraper(MARKETPLACE_OTHER_USER_TOKEN, id, '* * * * *')).toThrow(/no scraper/);
		expect(() => sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, 99_999, '* * * * *')).toThrow(/no scraper 99999/);
		expect(() => sim.scheduleScraper('nope', id, '* * * * *')).toThrow(/unknown token/);
		expect(() => sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'real_estate_portal', input: { ...portalLocations, channel: 'lease' }, cron: '* * * * *' })).toThrow(
			/invalid input: channel:/,
		);
		// Nothing was scheduled by the refused calls.
		expect(sim.scraperInfo(MARKETPLACE_DEMO_TOKEN, id).scraper.scheduled).toBe(false);
		// Time zone names are canonicalised as Intl knows them.
		expect(sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '0 * * * *', { timezone: 'utc' }).configuration.cron_timezone).toBe('UTC');
	});
});

describe('scheduled runs on the simulated clock', () => {
	it('a run appears at each firing after advance(), progresses like a POST run without URLs, with the same results', async () => {
		const boundary = alignTo(5 * MIN);
		const created = await createPortal();
		const id = created.scraper.id;
		const manual = created.results[0].scraping_run_id;
		sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '*/5 * * * *');
		expect(runIds(await results())).toEqual([manual]);

		sim.clock.advance(5 * MIN);
		let list = await results();
		expect(runIds(list)).toHaveLength(2);
		const [scheduled] = list;
		expect(scheduled.scraping_run_id).toBeGreaterThan(manual);
		// Exactly the run-list record fields; created_at is the firing time.
		expect(Object.keys(scheduled).sort()).toEqual(['content', 'created_at', 'id', 'scraped_url', 'scraper_id', 'scraper_name', 'scraping_run_id', 'status', 'updated_at']);
		expect(scheduled).toEqual({
			id: scheduled.id,
			scraper_id: id,
			scraping_run_id: scheduled.scraping_run_id,
			scraper_name: 'Scheduled rentals',
			scraped_url: 'Default',
			status: 'queued',
			content: null,
			created_at: new Date(boundary + 5 * MIN).toISOString(),
			updated_at: new Date(boundary + 5 * MIN).toISOString(),
		});

		sim.clock.advance(1_000); // queuedMs
		expect((await scrapingRun(scheduled.scraping_run_id)).status).toBe('running');
		sim.clock.advance(3_000); // runMs
		const done = await scrapingRun(scheduled.scraping_run_id);
		expect(done).toMatchObject({ id: scheduled.scraping_run_id, scraper_id: id, status: 'succeeded', created_at: scheduled.created_at });
		expect(done.results[0].updated_at).toBe(new Date(boundary + 5 * MIN + 4_000).toISOString());
		// Same extracted data as the run started at creation (and as POST /run without URLs).
		const first = await scrapingRun(manual);
		expect(done.results[0].content).toEqual(first.results[0].content);
		const viaRun = await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${id}/run`, {});
		sim.clock.advance(4_000);
		expect((await scrapingRun(viaRun.body.data[0].scraping_run_id)).results[0].content).toEqual(done.results[0].content);

		// The other reads show it like any run.
		const latest = await api<{ data: RunListRecord[] }>('GET', `/api/results/latest/${id}`);
		expect(latest.body.data[0].scraping_run_id).toBe(viaRun.body.data[0].scraping_run_id);
		const html = await fetch(`${sim.url}/api/scraping-runs/html/${scheduled.scraping_run_id}`, { headers: { authorization: `Bearer ${MARKETPLACE_DEMO_TOKEN}` } });
		expect((JSON.parse(await html.text()) as { data: ScrapingRunRecord }).data.results[0].content).toMatch(/^<!DOCTYPE html>/);

		// The next firing makes the next run.
		sim.clock.advance(5 * MIN - 8_000);
		list = await results();
		expect(runIds(list)).toHaveLength(4);
		expect(list[0].created_at).toBe(new Date(boundary + 10 * MIN).toISOString());
		expect(sim.scraperInfo(MARKETPLACE_DEMO_TOKEN, id).schedule?.runsCreated).toBe(2);
	});

	it('a big clock jump creates every skipped run with its own created_at, in order; pages list them newest first', async () => {
		const boundary = alignTo(5 * MIN);
		const info = sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'leads_search', input: searchLeads, cron: '*/5 * * * *' });
		// Created without a run: the first run is the first firing.
		expect(await results()).toEqual([]);
		sim.clock.advance(3 * DAY);

		const all = await allResults();
		const firings = 3 * 24 * 12;
		expect(all).toHaveLength(firings);
		expect(sim.scraperInfo(MARKETPLACE_DEMO_TOKEN, info.scraper.id).schedule).toMatchObject({ runsCreated: firings, firingsSkipped: 0 });
		// Newest first, one run per firing, each at its own firing time, run ids growing with time.
		all.forEach((record, i) => {
			expect(record.created_at).toBe(new Date(boundary + (firings - i) * 5 * MIN).toISOString());
			expect(record.scraper_id).toBe(info.scraper.id);
			if (i > 0) expect(record.scraping_run_id).toBe(all[i - 1].scraping_run_id - 1);
		});
		// Everything but the newest (fired 500 ms ago) has long finished.
		expect(all[0].status).toBe('queued');
		for (const record of all.slice(1)) expect(record.status).toBe('succeeded');
		expect(new Set(all.slice(1).map((r) => JSON.stringify(r.content))).size).toBe(1);
		// per_page pages are slices of the same order.
		const page3 = await results('?page=3&per_page=7');
		expect(page3).toEqual(all.slice(14, 21));
	});

	it('nothing is created for firings before the schedule started', async () => {
		const boundary = alignTo(10 * MIN, 2 * MIN);
		const id = (await createPortal()).scraper.id;
		// The clock moves on with nobody reading; firings of that hour are before the schedule: no runs.
		sim.clock.advance(HOUR);
		sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '*/10 * * * *');
		expect(runIds(await results())).toHaveLength(1);
		sim.clock.advance(8 * MIN - 1_000);
		expect(runIds(await results())).toHaveLength(1);
		sim.clock.advance(1_000);
		const list = await results();
		expect(runIds(list)).toHaveLength(2);
		expect(list[0].created_at).toBe(new Date(boundary + HOUR + 10 * MIN).toISOString());
		// Scheduling again (here every minute) starts from now: the firing just made is not made again.
		sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '* * * * *');
		expect(runIds(await results())).toHaveLength(2);
		sim.clock.advance(MIN);
		expect(runIds(await results())).toHaveLength(3);
	});

	it('unscheduling creates the runs already due, then no more', async () => {
		alignTo(5 * MIN);
		const id = (await createPortal()).scraper.id;
		sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '*/5 * * * *');
		sim.clock.advance(12 * MIN);
		// Nobody read since: the two due runs are created by the unschedule call itself.
		const off = sim.unscheduleScraper(MARKETPLACE_DEMO_TOKEN, id);
		expect(off.scraper.scheduled).toBe(false);
		expect(runIds(await results())).toHaveLength(3);
		sim.clock.advance(DAY);
		expect(runIds(await results())).toHaveLength(3);
		// Scheduling again starts from now.
		sim.scheduleScraper(MARKETPLACE_DEMO_TOKEN, id, '0 * * * *');
		sim.clock.advance(HOUR);
		expect(runIds(await results())).toHaveLength(4);
	});

	it('failing runs on schedule: failEvery, and the sim-fail marker', async () => {
		alignTo(5 * MIN);
		const every3 = sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'real_estate_portal', input: portalLinks, cron: '*/5 * * * *', failEvery: 3 });
		const marked = sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, {
			type: 'real_estate_portal',
			input: { ...portalLinks, name: 'Half failing', urls: ['https://www.portal.example/ok', 'https://www.portal.example/sim-fail'] },
			cron: '*/5 * * * *',
		});
		sim.clock.advance(30 * MIN);
		const all = await allResults();
		const runsOf = (scraperId: number) => runIds(all.filter((r) => r.scraper_id === scraperId)).reverse();
		const statuses = await Promise.all(runsOf(every3.scraper.id).map(async (run) => (await scrapingRun(run)).status));
		// Runs 3 and 6 fail (all their results); the newest, run 6, has not finished yet.
		expect(statuses).toEqual(['succeeded', 'succeeded', 'failed', 'succeeded', 'succeeded', 'queued']);
		sim.clock.advance(4_000);
		const sixth = await scrapingRun(runsOf(every3.scraper.id)[5]);
		expect(sixth.status).toBe('failed');
		expect(sixth.results.map((r) => [r.status, r.content])).toEqual([
			['failed', null],
			['failed', null],
		]);
		// A sim-fail URL fails its result in every scheduled run: each run is failed.
		for (const run of runsOf(marked.scraper.id)) {
			const record = await scrapingRun(run);
			expect(record.status).toBe('failed');
			expect(record.results.map((r) => r.status)).toEqual(['succeeded', 'failed']);
		}
	});

	it('runs firing at the same instant never interleave in the listing; ties go to the run created last', async () => {
		const boundary = alignTo(10 * MIN);
		const a = sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'real_estate_portal', input: portalLinks, cron: '*/5 * * * *' });
		const b = sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'real_estate_portal', input: { ...portalLinks, name: 'Other pages' }, cron: '*/10 * * * *' });
		sim.clock.advance(20 * MIN);
		// Manual run after the jump, before any read: the due scheduled runs are created first, so they get lower ids.
		const manual = (await api<{ data: RunListRecord[] }>('POST', `/api/scrapers/${a.scraper.id}/run`, {})).body.data[0];
		const list = await allResults();
		expect(list.slice(0, 2).map((r) => r.scraping_run_id)).toEqual([manual.scraping_run_id, manual.scraping_run_id]);
		const at = (minutes: number) => new Date(boundary + minutes * MIN).toISOString();
		// Scheduled: a at 5, 10, 15, 20; b at 10, 20. Same instant: lower scraper id fired first (lower run id), listed second.
		const scheduled = list.slice(2);
		expect(scheduled.map((r) => [r.created_at, r.scraper_id])).toEqual(
			[
				[at(20), b.scraper.id],
				[at(20), a.scraper.id],
				[at(15), a.scraper.id],
				[at(10), b.scraper.id],
				[at(10), a.scraper.id],
				[at(5), a.scraper.id],
			].flatMap((pair) => [pair, pair]),
		);
		// Each run's two results are adjacent, highest result id first; run ids descend down the list.
		for (let i = 0; i < list.length; i += 2) {
			expect(list[i].scraping_run_id).toBe(list[i + 1].scraping_run_id);
			expect(list[i].id).toBe(list[i + 1].id + 1);
			if (i > 0) expect(list[i].scraping_run_id).toBeLessThan(list[i - 1].scraping_run_id);
		}
		expect(list.map((r) => r.scraped_url).slice(0, 2)).toEqual([...portalLinks.urls].reverse());
	});

	it('is deterministic: the same calls on the same clock give the same runs, ids, times and content', async () => {
		const twin = new MarketplaceSimulator({ clock: sim.clock, queuedMs: 1_000, runMs: 3_000 });
		await twin.listen();
		try {
			alignTo(MIN, 10_000);
			for (const s of [sim, twin]) {
				s.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'pdf', input: { name: 'Reports', keywords: [{ keyword: 'annual report', prompt: 'Annual?' }], unique: true }, cron: '*/7 * * * *' });
				s.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'leads_social', input: { name: 'Buzz', keywords: 'heat pumps', sentiment_type: 'all', expected_data: 3 }, cron: '*/3 * * * *', failEvery: 4 });
			}
			sim.clock.advance(2 * HOUR);
			const mine = await allResults(sim);
			const theirs = await allResults(twin);
			expect(mine.length).toBeGreaterThan(50);
			expect(theirs).toEqual(mine);
		} finally {
			await twin.close();
		}
	});

	it('caps one catch-up at scheduleCatchUpLimit runs per scraper: the newest are kept, the rest counted as skipped', async () => {
		sim.options.scheduleCatchUpLimit = 50;
		const boundary = alignTo(MIN);
		const info = sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'leads_search', input: searchLeads, cron: '* * * * *' });
		sim.clock.advance(2 * HOUR);
		const all = await allResults();
		expect(all).toHaveLength(50);
		expect(all[0].created_at).toBe(new Date(boundary + 120 * MIN).toISOString());
		expect(all[49].created_at).toBe(new Date(boundary + 71 * MIN).toISOString());
		expect(sim.scraperInfo(MARKETPLACE_DEMO_TOKEN, info.scraper.id).schedule).toMatchObject({ runsCreated: 50, firingsSkipped: 70 });
		// Smaller steps stay under the cap.
		sim.clock.advance(10 * MIN);
		expect(await allResults()).toHaveLength(60);
	});

	it('stays fast for a month of an every-minute schedule (default cap: the newest 10,000 runs)', async () => {
		alignTo(MIN);
		const info = sim.createScheduledScraper(MARKETPLACE_DEMO_TOKEN, { type: 'leads_search', input: searchLeads, cron: '* * * * *' });
		sim.clock.advance(30 * DAY);
		const started = Date.now();
		const page = await results('?per_page=100');
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(page).toHaveLength(100);
		expect(sim.scraperInfo(MARKETPLACE_DEMO_TOKEN, info.scraper.id).schedule).toMatchObject({ runsCreated: SCHEDULE_CATCH_UP_LIMIT, firingsSkipped: 43_200 - SCHEDULE_CATCH_UP_LIMIT });
	});
});

describe('demo data', () => {
	it('seedDemo schedules Inner-city rentals every 10 minutes from seeding on: 6 new runs an hour', async () => {
		const boundary = alignTo(10 * MIN, 1_000);
		sim.seedDemo();
		const before = runIds(await allResults());
		const rentals = (await allResults()).find((r) => r.scraper_name === 'Inner-city rentals');
		if (!rentals) throw new Error('no demo portal scraper');
		const info = sim.scraperInfo(MARKETPLACE_DEMO_TOKEN, rentals.scraper_id);
		expect(info.configuration).toMatchObject({ name: 'Inner-city rentals', scheduled: true, cron: DEMO_SCHEDULE.cron, cron_timezone: 'UTC', cron_minutes: '*/10' });
		expect(info.scraper.schedule?.next_run_at).toBe(new Date(boundary + 10 * MIN).toISOString());

		sim.clock.advance(HOUR);
		const after = await allResults();
		const added = after.filter((r) => !before.includes(r.scraping_run_id));
		expect(added.map((r) => [r.scraper_name, r.created_at])).toEqual([6, 5, 4, 3, 2, 1].map((n) => ['Inner-city rentals', new Date(boundary + n * 10 * MIN).toISOString()]));
	});
});
