const { availableParallelism } = require('node:os');

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/', '/test/bench/'],
	transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
	testTimeout: 60_000,
	// Most files spend their time waiting in real time (Max Wait, backoff, simulated slowness, the local chain), not
	// on the CPU: two workers per core. jest's default, one less than the cores, is a single worker on the 2-core CI
	// machine, where the suite then takes about 10 minutes; with 4 it takes 3 to 4 (docs/testing.md). Files share
	// nothing: each starts its own simulators on free ports and its own anvil chain. At most 16 workers (memory).
	maxWorkers: Math.min(16, 2 * availableParallelism()),
	// The long files first, also on a machine that has not timed them yet.
	testSequencer: '<rootDir>/test/harness/sequencer.js',
	// n8n-core keeps module-level handles (timers, caches) open after a run.
	forceExit: true,
	setupFiles: ['<rootDir>/test/harness/setup.ts'],
};
