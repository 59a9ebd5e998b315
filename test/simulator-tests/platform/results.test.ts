import { callPlatform } from '../../simulator/platform/client';
import {
	PLATFORM_DEMO_TOKEN,
	PLATFORM_OTHER_USER_TOKEN,
	PlatformSimulator,
	RESULT_SORT_FIELDS,
	type ListedResultRecord,
	type ResultRecord,
	type ResultSortField,
} from '../../simulator/platform';

type Query = Record<string, string | number | undefined>;

describe('platform simulator: results list and detail', () => {
	let sim: PlatformSimulator;
	let base: string;

	beforeAll(async () => {
		sim = new PlatformSimulator();
		base = await sim.listen();
	});
	afterAll(() => sim.close());

	const list = (query: Query, token = PLATFORM_DEMO_TOKEN) =>
		callPlatform<ListedResultRecord[]>(base, 'GET', '/api/v1/results', {
			token,
			query: { page: 1, pageSize: 100, sortField: 'createdAt', sortOrder: 'ASC', ...query },
		});

	describe('paging over 1,234 results', () => {
		beforeAll(() => sim.seedResults(PLATFORM_DEMO_TOKEN, 1234));

		it('walks every record exactly once, with consistent meta', async () => {
			const seen = new Set<string>();
			let pages = 0;
			for (let page = 1; ; page++) {
				const res = await list({ page, pageSize: 100, sortField: 'createdAt', sortOrder: 'DESC' });
				expect(res.status).toBe(200);
				expect(res.body.meta).toEqual({ page, pageSize: 100, total: 1234, totalPage: 13 });
				pages++;
				for (const r of res.body.data) seen.add(r.id);
				if (page >= (res.body.meta?.totalPage ?? 0)) {
					expect(res.body.data).toHaveLength(34);
					break;
				}
				expect(res.body.data).toHaveLength(100);
			}
			expect(pages).toBe(13);
			expect(seen.size).toBe(1234);
			const beyond = await list({ page: 14 });
			expect(beyond.body.data).toEqual([]);
			expect(beyond.body.meta?.total).toBe(1234);
			// Larger pages than the recommended 100 are served.
			expect((await list({ pageSize: 500 })).body.data).toHaveLength(500);
		});

		it('lists records with data as a JSON-encoded string and no page contents', async () => {
			const res = await list({ pageSize: 1 });
			const record = res.body.data[0];
			expect(typeof record.data).toBe('string');
			expect(JSON.parse(record.data)).toEqual(expect.any(Object));
			expect(record).not.toHaveProperty('htmlContent');
			expect(record).toEqual(
				expect.objectContaining({ id: expect.any(String), userId: expect.any(String), scraperId: expect.any(String), type: expect.any(String) }),
			);
			const detail = await callPlatform<ResultRecord>(base, 'GET', `/api/v1/results/${record.id}`);
			expect(detail.body.data.data).toEqual(JSON.parse(record.data));
			expect(detail.body.data.htmlContent).toEqual(expect.any(String));
		});

		it("shows only the caller's records", async () => {
			const res = await list({}, PLATFORM_OTHER_USER_TOKEN);
			expect(res.body.meta?.total).toBe(0);
		});
	});

	describe('sorting, search, date range', () => {
		let local: PlatformSimulator;
		let url: string;
		const get = (query: Query) =>
			callPlatform<ListedResultRecord[]>(url, 'GET', '/api/v1/results', {
				query: { page: 1, pageSize: 1000, sortField: 'createdAt', sortOrder: 'ASC', ...query },
			});

		beforeAll(async () => {
			local = new PlatformSimulator();
			url = await local.listen();
			local.seedResults(PLATFORM_DEMO_TOKEN, 40, { createdAt: '2024-03-01T00:00:00.000Z', stepMs: 60_000 });
		});
		afterAll(() => local.close());

		/** Nulls last in ASC, first in DESC; ties by id ascending. */
		function inOrder(a: ListedResultRecord, b: ListedResultRecord, field: ResultSortField, order: 'ASC' | 'DESC'): boolean {
			const va = a[field];
			const vb = b[field];
			const key = (v: string | number | null) => (field === 'createdAt' || field === 'updatedAt' ? Date.parse(String(v)) : v);
			let c = 0;
			if (va === null && vb !== null) c = 1;
			else if (va !== null && vb === null) c = -1;
			else if (va !== null && vb !== null) c = (key(va) ?? 0) < (key(vb) ?? 0) ? -1 : (key(va) ?? 0) > (key(vb) ?? 0) ? 1 : 0;
			if (order === 'DESC') c = -c;
			return c < 0 || (c === 0 && a.id < b.id);
		}

		it.each(RESULT_SORT_FIELDS.flatMap((field) => [[field, 'ASC'] as const, [field, 'DESC'] as const]))(
			'sorts by %s %s, stable by id',
			async (field, order) => {
				const res = await get({ sortField: field, sortOrder: order });
				const rows = res.body.data;
				expect(rows).toHaveLength(40);
				for (let i = 1; i < rows.length; i++) expect(inOrder(rows[i - 1], rows[i], field, order)).toBe(true);
				// A sort that actually reorders: the first row differs between ASC and DESC unless all values tie.
				const values = new Set(rows.map((r) => String(r[field])));
				if (values.size > 1) {
					const other = await get({ sortField: field, sortOrder: order === 'ASC' ? 'DESC' : 'ASC' });
					expect(other.body.data[0][field]).not.toEqual(rows[0][field]);
				}
			},
		);

		it('search matches any scalar column, case-insensitively', async () => {
			const byType = (await get({ search: 'rerun-ai' })).body.data;
			expect(byType.length).toBeGreaterThan(0);
			expect(byType.every((r) => r.type === 'Rerun-AI')).toBe(true);
			const byUrl = (await get({ search: 'SEED-3.example' })).body.data;
			expect(byUrl.length).toBe(8);
			expect(byUrl.every((r) => r.url.includes('seed-3.example'))).toBe(true);
			const byError = (await get({ search: 'timeout' })).body.data;
			expect(byError.length).toBeGreaterThan(0);
			expect(byError.every((r) => r.status === 'Failed' && (r.error ?? '').includes('timeout'))).toBe(true);
			const all = (await get({})).body.data;
			const byId = await get({ search: all[7].id.toUpperCase() });
			expect(byId.body.data.map((r) => r.id)).toEqual([all[7].id]);
			expect(byId.body.meta?.total).toBe(1);
			expect((await get({ search: 'no-such-text' })).body.meta?.total).toBe(0);
		});

		it('filters a date-range column: startAt inclusive, endAt exclusive', async () => {
			const res = await get({ dateRangeColumn: 'createdAt', startAt: '2024-03-01T00:02:00Z', endAt: '2024-03-01T00:05:00.000Z' });
			expect(res.body.data.map((r) => r.createdAt)).toEqual([
				'2024-03-01T00:02:00.000Z',
				'2024-03-01T00:03:00.000Z',
				'2024-03-01T00:04:00.000Z',
			]);
			expect(res.body.meta?.total).toBe(3);
			expect((await get({ dateRangeColumn: 'createdAt', startAt: '2024-03-01T00:38:00+00:00' })).body.meta?.total).toBe(2);
			expect((await get({ dateRangeColumn: 'createdAt', endAt: '2024-03-01T00:01:00Z' })).body.meta?.total).toBe(1);
			expect((await get({ dateRangeColumn: 'createdAt', startAt: '2024-03-01' })).body.meta?.total).toBe(40);
			// updatedAt is createdAt plus the runtime for finished results, so the windows differ.
			const updated = await get({ dateRangeColumn: 'updatedAt', startAt: '2024-03-01T00:02:00Z', endAt: '2024-03-01T00:05:00Z' });
			for (const r of updated.body.data) {
				expect(Date.parse(r.updatedAt)).toBeGreaterThanOrEqual(Date.parse('2024-03-01T00:02:00Z'));
				expect(Date.parse(r.updatedAt)).toBeLessThan(Date.parse('2024-03-01T00:05:00Z'));
			}
			// The column alone filters nothing.
			expect((await get({ dateRangeColumn: 'updatedAt' })).body.meta?.total).toBe(40);
		});

		it('takes startAt/endAt in the UTC Z form of the vendor docs (2025-01-01T00:00:00.000Z)', async () => {
			const zForm = await get({ dateRangeColumn: 'createdAt', startAt: '2024-03-01T00:00:00.000Z', endAt: '2025-01-01T00:00:00.000Z' });
			expect(zForm.status).toBe(200);
			expect(zForm.body.meta?.total).toBe(40);
			expect((await get({ dateRangeColumn: 'createdAt', startAt: '2025-01-01T00:00:00.000Z' })).body.meta?.total).toBe(0);
			expect((await get({ dateRangeColumn: 'updatedAt', endAt: '2025-01-01T00:00:00.000Z' })).body.meta?.total).toBe(40);
			// The same instant with an offset, or without a zone (read as UTC), selects the same records.
			const instants = ['2024-03-01T00:10:00.000Z', '2024-03-01T01:10:00.000+01:00', '2024-03-01T00:10:00'];
			const totals = await Promise.all(instants.map(async (startAt) => (await get({ dateRangeColumn: 'createdAt', startAt })).body.meta?.total));
			expect(totals).toEqual([30, 30, 30]);
		});

		it('combines search, range and paging', async () => {
			const res = await get({ search: 'seed-1', dateRangeColumn: 'createdAt', startAt: '2024-03-01T00:10:00Z', pageSize: 2, page: 2 });
			expect(res.body.meta).toEqual({ page: 2, pageSize: 2, total: 6, totalPage: 3 });
			expect(res.body.data.map((r) => r.createdAt)).toEqual(['2024-03-01T00:21:00.000Z', '2024-03-01T00:26:00.000Z']);
		});

		it('seedResults honours overrides, for the token it is given', async () => {
			local.seedResults(PLATFORM_OTHER_USER_TOKEN, 3, { type: 'AI', status: 'Processing', url: 'https://x.example.com/', tokenUsage: 7, runtime: 1.5 });
			const res = await callPlatform<ListedResultRecord[]>(url, 'GET', '/api/v1/results', {
				token: PLATFORM_OTHER_USER_TOKEN,
				query: { page: 1, pageSize: 10, sortField: 'createdAt', sortOrder: 'ASC' },
			});
			expect(res.body.data.map((r) => [r.type, r.status, r.url, r.tokenUsage, r.runtime])).toEqual(
				Array(3).fill(['AI', 'Processing', 'https://x.example.com/', 7, 1.5]),
			);
			expect(new Set(res.body.data.map((r) => r.createdAt)).size).toBe(3);
			expect((await get({})).body.meta?.total).toBe(40);
		});
	});
});
