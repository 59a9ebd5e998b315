/** @type {import('jest').Config} */
// End-to-end suite: a real n8n (installed by `npm run test:e2e`) runs the example workflows against the simulator,
// and chromium drives the editor. Separate from the unit suite (jest.config.js ignores test/e2e/).
const base = require('../../jest.config.js');

module.exports = {
	...base,
	rootDir: '../..',
	roots: ['<rootDir>/test/e2e'],
	testPathIgnorePatterns: ['/node_modules/'],
	setupFiles: [],
	// One n8n command at a time: each start loads every node type and is CPU-heavy on two cores.
	maxWorkers: 1,
	testTimeout: 600_000,
	verbose: true,
};
