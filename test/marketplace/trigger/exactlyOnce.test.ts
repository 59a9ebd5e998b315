import fc from 'fast-check';

import { PAGE_SIZE } from '../../../nodes/ScraperMarketplace/trigger/io';
import { play, scenarios } from './exactlyOnceProperty';

/**
 * The exactly-once property (`exactlyOnceProperty.ts`) through the poll (`collect.ts`: its reads and the step, on
 * the model's I/O), at the service's size: pages of 100, a history of up to 100,000 results, runs of up to 150
 * results, 250 runs going at activation. The same property runs at thousands of smaller scenarios against the pure
 * step alone (`advance.test.ts`).
 */

const serviceSized = scenarios({
	perPage: fc.constant(PAGE_SIZE),
	history: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(0, 250, 5_000) }, { weight: 1, arbitrary: fc.constantFrom(20_000, 100_000) }),
	going: 250,
	runSize: fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 6 }) }, { weight: 1, arbitrary: fc.integer({ min: 90, max: 150 }) }),
	burst: 25,
	atRequest: 5,
	liePage: 4,
	failAt: 8,
	steps: 25,
	extras: false,
});

describe('Run Trigger, generated: exactly once whatever the listing does', () => {
	it('no duplicates, no misses, exact results, bounded requests and state', async () => {
		await fc.assert(
			fc.asyncProperty(serviceSized, async (s) => await play(s)),
			{ numRuns: 100 },
		);
	}, 300_000);
});
