/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test in plain Node: it runs a real n8n process, restarts it, and writes the workflow it imports */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { demoCredentials } from '../../scripts/demo/credentials';
import { N8nInstance } from '../../scripts/demo/n8n';
import { freePort } from '../../scripts/demo/ports';
import { isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { startSimulator, type RunningSimulator } from '../simulator/index';
import { demoWalletBalance, expectCapHeld, SPEND_WORKFLOW, SPEND_WORKFLOW_ID, WAIT_SECONDS } from './examples/spendAcrossWait';
import { N8nRestClient } from './infra/queue/rest-client';
import { installFromRegistry } from './infra/registry/install-by-name';
import { useRegistry, versionsUnderTest } from './support';

/**
 * n8n in its regular mode (one process, SQLite) restarted while an execution waits: the execution is saved with its
 * data, and the new process resumes it when the Wait ends. Two Scraper Gateway nodes share one Max Total Spend around
 * that Wait (test/e2e/examples/spendAcrossWait.ts): the resumed part, in the new process, must know what the first
 * part paid. On every tested n8n (`npm run test:e2e -- --all`: the oldest and the newest among them).
 */

const OWNER = { email: 'resume@example.com', password: 'ResumeOwner1', firstName: 'Resume', lastName: 'Owner' };

const served = useRegistry();

describe.each(versionsUnderTest())('n8n %s restarted during a Wait: the spend limit holds across it', (version) => {
	let sim: RunningSimulator;
	let n8n: N8nInstance;

	beforeAll(async () => {
		const runtime = await runtimeFor(version);
		if (!isInstalled(runtime)) throw new Error(`n8n ${version} is not installed in ${runtime.dir}: run \`npm run test:e2e\`, which installs it first.`);
		sim = await startSimulator();
		n8n = new N8nInstance({ runtime, userFolder: mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-resume-${version}-`)), port: await freePort() });
		await installFromRegistry(n8n, served.published.map((p) => `${p.name}@${p.version}`), served.registry.url, { npmCache: path.join(n8n.userFolder, 'npm-cache') });
		await n8n.importCredentials(demoCredentials(sim.info));
		const file = path.join(n8n.userFolder, 'spend-across-wait.json');
		writeFileSync(file, JSON.stringify(SPEND_WORKFLOW));
		await n8n.importWorkflows(file);
	});

	afterAll(async () => {
		await n8n?.stop();
		await sim?.close();
		if (n8n) rmSync(n8n.userFolder, { recursive: true, force: true });
	});

	test('two Gateway nodes, a 0.03 USDC cap, a 70 s Wait, n8n restarted during it: 0.03 USDC paid in all', async () => {
		await n8n.start();
		await n8n.setupOwner(OWNER);
		let rest = new N8nRestClient(n8n.baseUrl, await n8n.login(OWNER.email, OWNER.password));
		const balance = await demoWalletBalance(sim);
		const settled = sim.gateway.settlements.length;
		const executionId = await rest.runManually(SPEND_WORKFLOW_ID);
		// The first part pays and reaches the Wait, which n8n saves to its database.
		await rest.waitUntilWaiting(executionId);
		expect(sim.gateway.settlements.length - settled).toBe(3);
		const firstPid = n8n.process?.pid;
		await n8n.stop();
		await n8n.start();
		expect(n8n.process?.pid).not.toBe(firstPid);
		rest = new N8nRestClient(n8n.baseUrl, await n8n.login(OWNER.email, OWNER.password));
		const execution = await rest.waitForExecution(executionId, (WAIT_SECONDS + 120) * 1000, 1000);
		expect(execution.status).toBe('success');
		await expectCapHeld(execution.run, sim, balance, settled);
	});
});
