// The order jest starts test files in. Once jest has timed a file (its cache, in the system temp folder) it starts the
// longest first, so no long file is left running alone at the end; a file it has not timed yet (a fresh clone, CI) it
// orders by size, and some of the longest files are small ones that mostly wait in real time (Max Wait, backoff).
// Those files, as timed on the 2-core CI machine (docs/testing.md), start first instead. A name here that no longer
// exists changes nothing; a long file missing here only starts later on a machine that has not timed it.
const path = require('node:path');

const Sequencer = require('@jest/test-sequencer').default;

const ROOT = path.resolve(__dirname, '../..');

/** The files that take longest in real time, longest first (each 15 s or more with 4 workers on 2 cores). */
const LONGEST = [
	'test/shared/execution/startedJobFailingReads.test.ts',
	'test/gateway/payment/resend.test.ts',
	'test/platform/page/fetch.test.ts',
	'test/shared/input/badInputMarketplace.test.ts',
	'test/shared/execution/startedRunEveryOperation.test.ts',
	'test/shared/execution/startedRunFailingReads.test.ts',
	'test/gateway/payment/priceRetry.test.ts',
	'test/shared/input/badInputLeads.test.ts',
	'test/project/scanner.test.ts',
	'test/platform/node/networkErrors.test.ts',
	'test/shared/execution/startedJobWaitEnds.test.ts',
	'test/platform/bulk/retryFailed.test.ts',
	'test/shared/execution/waits.test.ts',
	'test/gateway/payment/faults.property.test.ts',
	'test/marketplace/trigger/exactlyOnce.test.ts',
	'test/shared/input/badInput.test.ts',
	'test/gateway/node/badInput.test.ts',
	'test/platform/bulk/start.test.ts',
];

class LongestFirst extends Sequencer {
	sort(tests) {
		// jest's order: files that failed last time, then files it has not timed (by size), then the rest longest first.
		const sorted = super.sort(tests);
		const rank = (test) => (test.duration == null ? LONGEST.indexOf(path.relative(ROOT, test.path).split(path.sep).join('/')) : -1);
		const known = sorted.filter((test) => rank(test) >= 0).sort((a, b) => rank(a) - rank(b));
		return [...known, ...sorted.filter((test) => rank(test) < 0)];
	}
}

module.exports = LongestFirst;
