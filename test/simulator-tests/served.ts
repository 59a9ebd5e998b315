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

/** A new simulator section for every test (each starts from the seeded state), closed after it. */
export function freshPerTest<T extends SimSection>(create: () => T): { sim: T; base: string } {
	const context = {} as { sim: T; base: string };
	beforeEach(async () => {
		context.sim = create();
		context.base = await context.sim.listen();
	});
	afterEach(async () => {
		await context.sim.close();
	});
	return context;
}
