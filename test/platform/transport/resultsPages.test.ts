import { collectRecords } from '../../../nodes/shared/paging/pages';
import { hasNextPage, metaSaysMore, resultsPage, resultsPages } from '../../../nodes/ScraperPlatform/transport/api';
import { isCanceledStatus, isFailedStatus, isTerminalStatus, TERMINAL_STATUSES } from '../../../nodes/ScraperPlatform/transport/vocabulary';
import { TriggerInstance } from '../../harness/trigger';
import { PLATFORM_OTHER_USER_TOKEN } from '../../simulator/platform';
import { ROUTES, usePlatform } from '../helpers';

describe('Platform vocabulary: statuses', () => {
	it('reads statuses in any case; ended means finished, failed or canceled', () => {
		for (const status of ['Finished', 'COMPLETED', 'failed', 'Error', 'Canceled', 'cancelled']) expect(isTerminalStatus(status)).toBe(true);
		for (const status of ['Running', 'Pending', 'Processing', '', undefined, null]) expect(isTerminalStatus(status)).toBe(false);
		expect(TERMINAL_STATUSES).toHaveLength(6);
		expect(isFailedStatus('Error')).toBe(true);
		expect(isCanceledStatus('Cancelled')).toBe(true);
		expect(isCanceledStatus('Failed')).toBe(false);
	});
});

describe('Platform results list: where the next page is', () => {
	it('meta.totalPage decides, else meta.total, else a full page may have a next one', () => {
		expect(hasNextPage(1, 100, 100, { totalPage: 2 })).toBe(true);
		expect(hasNextPage(2, 100, 30, { totalPage: 2 })).toBe(false);
		expect(hasNextPage(1, 100, 100, { total: 150 })).toBe(true);
		expect(hasNextPage(2, 100, 50, { total: 150 })).toBe(false);
		expect(hasNextPage(1, 100, 100, { total: 100 })).toBe(false);
		expect(hasNextPage(3, 100, 100, undefined)).toBe(true);
		expect(hasNextPage(3, 100, 99, undefined)).toBe(false);
	});

	it('an empty page is the last whatever meta says (for the plain walks of the Bulk Trigger)', () => {
		expect(hasNextPage(1, 100, 0, { totalPage: 5, total: 500 })).toBe(false);
	});

	it("the paging guard reads meta's word apart from the page: an empty page 3 of 5 still says more follow", () => {
		expect(metaSaysMore(3, 10, 0, { totalPage: 5, total: 50 })).toBe(true);
		expect(metaSaysMore(3, 10, 0, { total: 50 })).toBe(true);
		expect(metaSaysMore(5, 10, 10, { total: 20, totalPage: 2 })).toBe(false);
		expect(metaSaysMore(1, 10, 10, undefined)).toBeUndefined();
		const records = Array.from({ length: 10 }, (_, i) => ({ id: `r${i}` }));
		expect(resultsPage(3, 10, [], { page: 3, pageSize: 10, total: 50, totalPage: 5 })).toEqual({
			records: [],
			next: undefined,
			listing: { after: 4, full: false, meta: { more: true, total: 50, before: 20 } },
		});
		// A full page where meta says the list ends: `next` trusts meta, the guard may read page 3 (meta can lag behind).
		expect(resultsPage(2, 10, records, { page: 2, pageSize: 10, total: 20, totalPage: 2 })).toMatchObject({
			next: undefined,
			listing: { after: 3, full: true, meta: { more: false, total: 20 } },
		});
		expect(resultsPage(4, 10, records, undefined)).toEqual({ records, next: 5, listing: { after: 5, full: true, meta: undefined } });
	});
});

describe('Platform results list: the one page reader', () => {
	const ctx = usePlatform();
	beforeAll(() => {
		ctx.sim.seedResults(PLATFORM_OTHER_USER_TOKEN, 230);
	});
	const pollCall = () =>
		new TriggerInstance({ baseUrl: ctx.sim.url, apiToken: PLATFORM_OTHER_USER_TOKEN }).call('trigger');

	it('reads one page with the query given, its data decoded, and names the next page', async () => {
		const read = resultsPages(pollCall(), { pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC' }, 0);
		const first = await read(1);
		expect(first.records).toHaveLength(100);
		expect(first.next).toBe(2);
		expect(typeof first.records[0].data).toBe('object');
		const last = await read(3);
		expect(last.records).toHaveLength(30);
		expect(last.next).toBeUndefined();
		expect(ctx.sim.server.log.for(ROUTES.results).map((r) => r.query)).toEqual([
			{ page: '1', pageSize: '100', sortField: 'createdAt', sortOrder: 'ASC' },
			{ page: '3', pageSize: '100', sortField: 'createdAt', sortOrder: 'ASC' },
		]);
	});

	it('with the shared walker, reads every page once and no page more than a limit needs', async () => {
		const read = resultsPages(pollCall(), { pageSize: 40, sortField: 'createdAt', sortOrder: 'DESC' }, 0);
		const all = await collectRecords(read, 1, Infinity);
		expect(new Set(all.map((record) => record.id)).size).toBe(230);
		expect(ctx.sim.server.log.count(ROUTES.results)).toBe(6);
		ctx.sim.server.log.clear();
		expect(await collectRecords(read, 2, 45)).toHaveLength(45);
		expect(ctx.sim.server.log.for(ROUTES.results).map((r) => r.query.page)).toEqual(['2', '3']);
	});
});
