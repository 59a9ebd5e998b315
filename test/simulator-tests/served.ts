import type { SimSection } from '../simulator/core/server';

/**
 * A simulator section for one test file: listening before its tests, reset before each, closed after. The
 * section is created by the caller (no port is opened until `listen`), so tests use it as a plain constant.
 */
export function served<T extends SimSection & { reset(): void }>(section: T): T {
	beforeAll(async () => {
		await section.listen();
	});
	afterAll(async () => {
		await section.close();
	});
	beforeEach(() => {
		section.reset();
	});
	return section;
}
