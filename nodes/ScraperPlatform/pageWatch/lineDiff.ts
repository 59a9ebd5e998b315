/**
 * What changed between two texts, line by line: the lines removed and added, in the order they stand, as a unified
 * diff shows them (`-` and `+`, no context lines), found by Myers' algorithm (the one `git diff` uses by default).
 * Blank lines are left out: they carry no change a reader wants.
 */

export interface LineDiff {
	/** `-old line` and `+new line`, one per line, in page order. */
	diff: string;
	addedLines: string[];
	removedLines: string[];
}

/** Which texts are the first part of a longer one: past the last line both share, their ends say nothing. */
export interface CutEnds {
	before: boolean;
	after: boolean;
}

/** Past this many changed lines the lines between the first and last change are shown as replaced. */
const MAX_EDITS = 1000;

type Step = ['=' | '-' | '+', string];

/** The moves back from (n, m) to (0, 0) through the furthest points `trace` kept per number of edits. */
function backtrack(a: string[], b: string[], trace: Int32Array[]): Step[] {
	const steps: Step[] = [];
	let x = a.length;
	let y = b.length;
	for (let d = trace.length - 1; d > 0; d--) {
		const furthest = (k: number) => trace[d][k + d + 1];
		const k = x - y;
		const down = k === -d || (k !== d && furthest(k - 1) < furthest(k + 1));
		const fromX = furthest(down ? k + 1 : k - 1);
		const fromY = fromX - (down ? k + 1 : k - 1);
		const [startX, startY] = down ? [fromX, fromY + 1] : [fromX + 1, fromY];
		for (; x > startX && y > startY; x--, y--) steps.push(['=', a[x - 1]]);
		steps.push(down ? ['+', b[fromY]] : ['-', a[fromX]]);
		[x, y] = [fromX, fromY];
	}
	while (x > 0) steps.push(['=', a[--x]]);
	return steps.reverse();
}

/** The fewest steps from `a` to `b`; undefined past MAX_EDITS. */
function fewestSteps(a: string[], b: string[]): Step[] | undefined {
	const max = Math.min(a.length + b.length, MAX_EDITS);
	const offset = max + 1;
	const v = new Int32Array(2 * max + 3);
	const trace: Int32Array[] = [];
	for (let d = 0; d <= max; d++) {
		// What step d reads (diagonals -d-1 to d+1), kept for the way back.
		trace.push(v.slice(offset - d - 1, offset + d + 2));
		for (let k = -d; k <= d; k += 2) {
			let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
			let y = x - k;
			while (x < a.length && y < b.length && a[x] === b[y]) [x, y] = [x + 1, y + 1];
			v[offset + k] = x;
			if (x >= a.length && y >= b.length) return backtrack(a, b, trace);
		}
	}
	return undefined;
}

/** Drops the steps after the last shared line on the sides whose text was cut. */
function withoutCutEnds(steps: Step[], cut: CutEnds): Step[] {
	let end = steps.length;
	while (end > 0 && steps[end - 1][0] !== '=') end--;
	const tail = steps.slice(end).filter(([sign]) => !(sign === '-' && cut.before) && !(sign === '+' && cut.after));
	return [...steps.slice(0, end), ...tail];
}

export function lineDiff(before: string, after: string, cut: CutEnds = { before: false, after: false }): LineDiff {
	const a = before.split('\n');
	const b = after.split('\n');
	// A page changes in a few places: the equal lines at both ends are set aside before the comparison proper.
	let start = 0;
	while (start < a.length && start < b.length && a[start] === b[start]) start++;
	let end = 0;
	while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
	const [midA, midB] = [a.slice(start, a.length - end), b.slice(start, b.length - end)];
	const replaced = (): Step[] => [...midA.map((line): Step => ['-', line]), ...midB.map((line): Step => ['+', line])];
	const equal = (lines: string[]) => lines.map((line): Step => ['=', line]);
	const all = [...equal(a.slice(0, start)), ...(fewestSteps(midA, midB) ?? replaced()), ...equal(a.slice(a.length - end))];
	const steps = withoutCutEnds(all, cut).filter(([sign, line]) => sign !== '=' && line.trim() !== '');
	return {
		diff: steps.map(([sign, line]) => `${sign}${line}`).join('\n'),
		addedLines: steps.filter(([sign]) => sign === '+').map(([, line]) => line),
		removedLines: steps.filter(([sign]) => sign === '-').map(([, line]) => line),
	};
}
