/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '/test/bench/'],
	transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
	testTimeout: 60_000,
	// n8n-core keeps module-level handles (timers, caches) open after a run.
	forceExit: true,
	setupFiles: ['<rootDir>/test/harness/setup.ts'],
};
