import { lineDiff } from '../../../nodes/ScraperPlatform/pageWatch/lineDiff';

/** The line diff of Page Changed: the fewest removed and added lines, in page order, fast on long pages. */

/** The longest common subsequence's length, by the textbook table: what the fewest edits leave untouched. */
function commonLength(a: string[], b: string[]): number {
	const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
	for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
	return table[0][0];
}

function isSubsequence(part: string[], of: string[]): boolean {
	let at = 0;
	for (const line of of) if (at < part.length && part[at] === line) at++;
	return at === part.length;
}

describe('lineDiff', () => {
	it('a changed line is one removed and one added, in page order, as unified-style lines', () => {
		expect(lineDiff('Chair\n$49.99\nIn stock', 'Chair\n$44.99\nIn stock')).toEqual({ diff: '-$49.99\n+$44.99', addedLines: ['$44.99'], removedLines: ['$49.99'] });
		expect(lineDiff('a\nb', 'a\nb\nc')).toEqual({ diff: '+c', addedLines: ['c'], removedLines: [] });
		expect(lineDiff('a\nb\nc', 'b\nc')).toEqual({ diff: '-a', addedLines: [], removedLines: ['a'] });
		expect(lineDiff('same', 'same')).toEqual({ diff: '', addedLines: [], removedLines: [] });
	});

	it('leaves blank lines out', () => {
		expect(lineDiff('# A\n\nold', '# A\n\n\nnew\n')).toEqual({ diff: '-old\n+new', addedLines: ['new'], removedLines: ['old'] });
	});

	it('finds the fewest edits on random texts (against the textbook table)', () => {
		let seed = 7;
		const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
		for (let round = 0; round < 300; round++) {
			const text = () => Array.from({ length: next() % 12 }, () => 'abcde'[next() % 5]);
			const [a, b] = [text(), text()];
			const { addedLines, removedLines } = lineDiff(a.join('\n'), b.join('\n'));
			const common = commonLength(a, b);
			expect([removedLines.length, addedLines.length]).toEqual([a.length - common, b.length - common]);
			expect(isSubsequence(removedLines, a) && isSubsequence(addedLines, b)).toBe(true);
		}
	});

	it('a few changes in a long page are found exactly and fast', () => {
		const page = Array.from({ length: 20_000 }, (_, i) => `Line ${i}`);
		const changed = page.map((line, i) => (i === 10 || i === 15_000 ? `${line}!` : line)).filter((_, i) => i !== 900);
		const started = Date.now();
		const { diff } = lineDiff(page.join('\n'), changed.join('\n'));
		expect(diff).toBe('-Line 10\n+Line 10!\n-Line 900\n-Line 15000\n+Line 15000!');
		expect(Date.now() - started).toBeLessThan(1000);
	});

	it('past a thousand changed lines, the lines between the first and last change are shown as replaced', () => {
		const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`);
		const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`);
		const { addedLines, removedLines } = lineDiff(['top', ...before, 'end'].join('\n'), ['top', ...after, 'end'].join('\n'));
		expect([removedLines, addedLines]).toEqual([before, after]);
	});

	it('the ends of texts cut to their first part are no change', () => {
		const before = 'a\nb\nc\nlong lin';
		const after = 'a\nB\nc\nlong li';
		expect(lineDiff(before, after).removedLines).toEqual(['b', 'long lin']);
		expect(lineDiff(before, after, { before: true, after: true })).toEqual({ diff: '-b\n+B', addedLines: ['B'], removedLines: ['b'] });
		// Only the previous text cut: what the new one adds at its end is real.
		expect(lineDiff('a\nb\npartial', 'a\nb\nc\nd', { before: true, after: false }).diff).toBe('+c\n+d');
	});
});
