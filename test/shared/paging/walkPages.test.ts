// The page walker of nodes/shared/paging, checked alone (pages.test.ts: its guard over generated listings).
import { collectRecords, walkPages } from '../../../nodes/shared/paging/pages';
import type { Page } from '../../../nodes/shared/paging/pages';

describe('walkPages / collectRecords: the one page walker', () => {
	/** Pages 1..3 of two records each; `reads` records which positions were asked for. */
	function threePages() {
		const reads: number[] = [];
		const read = async (at: number): Promise<Page<string>> => {
			reads.push(at);
			return { records: [`${at}a`, `${at}b`], next: at < 3 ? at + 1 : undefined };
		};
		return { read, reads };
	}

	it('reads every page once, in order, until a page names no next one', async () => {
		const { read, reads } = threePages();
		expect(await collectRecords(read, 1, Infinity)).toEqual(['1a', '1b', '2a', '2b', '3a', '3b']);
		expect(reads).toEqual([1, 2, 3]);
	});

	it('reads no page more than the limit needs, and none for a limit of 0', async () => {
		const { read, reads } = threePages();
		expect(await collectRecords(read, 1, 3)).toEqual(['1a', '1b', '2a']);
		expect(reads).toEqual([1, 2]);
		expect(await collectRecords(read, 1, 0)).toEqual([]);
		expect(reads).toEqual([1, 2]);
	});

	it('hands out each page with its position and count; a break sends nothing more', async () => {
		const { read, reads } = threePages();
		const seen: Array<[number, number]> = [];
		for await (const page of walkPages(read, 2)) {
			seen.push([page.at, page.count]);
			break;
		}
		expect(seen).toEqual([[2, 1]]);
		expect(reads).toEqual([2]);
	});

	it('walks keyset positions as well as page numbers', async () => {
		const read = async (at: { from: number }): Promise<Page<number, { from: number }>> => ({
			records: [at.from, at.from + 1],
			next: at.from < 4 ? { from: at.from + 2 } : undefined,
		});
		expect(await collectRecords(read, { from: 0 }, Infinity)).toEqual([0, 1, 2, 3, 4, 5]);
	});
});
