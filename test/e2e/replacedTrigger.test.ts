/* eslint-disable @n8n/community-nodes/no-restricted-imports -- end-to-end test in plain Node: it runs a real n8n process and writes the workflow it imports */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sleep } from 'n8n-workflow';

import { CREDENTIAL_REFS, demoCredentials } from '../../scripts/demo/credentials';
import { N8nInstance } from '../../scripts/demo/n8n';
import { freePort } from '../../scripts/demo/ports';
import { isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN } from '../simulator/platform';
import { startSimulator, type RunningSimulator } from '../simulator/index';
import { nodeOutput } from './examples/workflows';
import { N8nRestClient } from './infra/queue/rest-client';
import { installFromRegistry } from './infra/registry/install-by-name';
import { useRegistry, versionsUnderTest } from './support';

/**
 * A workflow saved with the replaced Scraper Bulk Trigger (hidden now), in a real n8n: it is activated, fires for a
 * bulk job, is edited and saved while active, then has its trigger swapped for the Scraper Platform Trigger under the
 * same name. Each completed job starts the workflow exactly once through all of it: n8n keeps the node's state
 * (its static data, under the node's name) across the edits, and the new type reads the old one's state.
 */

const OWNER = { email: 'replaced@example.com', password: 'ReplacedOwner1', firstName: 'Replaced', lastName: 'Owner' };
const WORKFLOW_ID = 'scrE2eOldTrigger';
const TRIGGER = 'When a Bulk Job Completes';
const SCRAPER = DEMO_MANUAL_SCRAPER_IDS[0];

const WORKFLOW = {
	id: WORKFLOW_ID,
	name: 'e2e: a workflow saved with the Scraper Bulk Trigger',
	active: false,
	versionId: '6c1e2a10-00e2-4000-8000-000000000006',
	nodes: [
		{
			id: 'e2e-old-trigger-1',
			name: TRIGGER,
			type: 'n8n-nodes-scraper-service.scraperBulkTrigger',
			typeVersion: 2,
			position: [0, 0],
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, scraperId: { __rl: true, mode: 'id', value: SCRAPER } },
			credentials: { scraperPlatformApi: CREDENTIAL_REFS.scraperPlatformApi },
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
};

type SavedWorkflow = Awaited<ReturnType<N8nRestClient['workflow']>> & { versionId?: string; nodes: Array<Record<string, unknown>> };

const served = useRegistry();

// n8n 2.41 refuses polls more often than once a minute, so this takes minutes: on the newest n8n under test only.
describe.each(versionsUnderTest().slice(-1))('n8n %s: a workflow saved with the replaced Scraper Bulk Trigger', (version) => {
	let sim: RunningSimulator;
	let n8n: N8nInstance;
	let rest: N8nRestClient;

	beforeAll(async () => {
		const runtime = await runtimeFor(version);
		if (!isInstalled(runtime)) throw new Error(`n8n ${version} is not installed in ${runtime.dir}: run \`npm run test:e2e\`, which installs it first.`);
		sim = await startSimulator();
		n8n = new N8nInstance({ runtime, userFolder: mkdtempSync(path.join(os.tmpdir(), `n8n-e2e-old-trigger-${version}-`)), port: await freePort() });
		await installFromRegistry(n8n, served.published.map((p) => `${p.name}@${p.version}`), served.registry.url, { npmCache: path.join(n8n.userFolder, 'npm-cache') });
		await n8n.importCredentials(demoCredentials(sim.info));
		const file = path.join(n8n.userFolder, 'old-trigger.json');
		writeFileSync(file, JSON.stringify(WORKFLOW));
		await n8n.importWorkflows(file);
		await n8n.start();
		await n8n.setupOwner(OWNER);
		rest = new N8nRestClient(n8n.baseUrl, await n8n.login(OWNER.email, OWNER.password));
	});

	afterAll(async () => {
		await n8n?.stop();
		await sim?.close();
		if (n8n) rmSync(n8n.userFolder, { recursive: true, force: true });
	});

	/** Turns the workflow on as the editor does: n8n 2.x publishes its current version, 1.x saves it active. */
	const activate = async () => {
		const saved = (await rest.workflow(WORKFLOW_ID)) as SavedWorkflow;
		const published = await rest.request('POST', `/rest/workflows/${WORKFLOW_ID}/activate`, { versionId: saved.versionId });
		if (published.status !== 404) {
			if (!published.ok) throw new Error(`activate answered ${published.status}: ${await published.text()}`);
			return;
		}
		await rest.json('PATCH', `/rest/workflows/${WORKFLOW_ID}`, { active: true, versionId: saved.versionId });
	};

	/** Saves the workflow with its trigger changed by `edit`, as the editor saves it, then turns it on again. */
	const saveEdited = async (edit: (trigger: Record<string, unknown>) => void) => {
		const saved = (await rest.workflow(WORKFLOW_ID)) as SavedWorkflow;
		const nodes = saved.nodes.map((node) => ({ ...node }));
		edit(nodes[0]);
		await rest.json('PATCH', `/rest/workflows/${WORKFLOW_ID}`, { name: saved.name, nodes, connections: saved.connections, settings: saved.settings, versionId: saved.versionId });
		await activate();
	};

	/** How often each bulk job started the workflow so far (the trigger's items, one per job). */
	const firings = async (): Promise<Record<string, number>> => {
		const counts: Record<string, number> = {};
		for (const { id, status } of await rest.executionsOf(WORKFLOW_ID)) {
			if (['new', 'running'].includes(status)) continue;
			for (const item of nodeOutput((await rest.execution(id)).run, TRIGGER)) counts[String(item.json.id)] = (counts[String(item.json.id)] ?? 0) + 1;
		}
		return counts;
	};

	/** Completes a bulk job of the scraper now and waits until the workflow has fired for it. */
	const completeJob = async (tag: string): Promise<string> => {
		const id = sim.platform.startBulk(PLATFORM_DEMO_TOKEN, SCRAPER, [`https://shop.example.com/item/${tag}-1`]).id;
		const deadline = Date.now() + 150_000;
		while ((await firings())[id] === undefined) {
			if (Date.now() > deadline) throw new Error(`No execution for bulk job ${id} after 150 s: ${JSON.stringify(await firings())} (n8n's log: ${n8n.process?.log.slice(-3000)})`);
			await sleep(1000);
		}
		return id;
	};

	/** Lets `polls` more polls of the trigger pass (a poll reads the results list once). */
	const afterPolls = async (polls: number) => {
		const count = () => sim.platform.server.log.for('GET /api/v1/results').length;
		const target = count() + polls;
		const deadline = Date.now() + (polls + 1) * 70_000;
		while (count() < target) {
			if (Date.now() > deadline) throw new Error(`The trigger did not poll ${polls} time(s) in time (n8n's log: ${n8n.process?.log.slice(-3000)})`);
			await sleep(500);
		}
	};

	test('activated, edited while active, then swapped for the Scraper Platform Trigger: every job fires exactly once', async () => {
		await activate();
		// The activation's poll notes where the results stand: jobs completed before it never fire.
		await afterPolls(1);
		const first = await completeJob('first');
		// Edited and saved while active, as a user tunes a running workflow: an option added.
		await saveEdited((trigger) => {
			trigger.parameters = { ...(trigger.parameters as object), options: { includeFailed: true } };
		});
		const second = await completeJob('second');
		// Swapped for the new type under the old name: the same state, read by the Scraper Platform Trigger.
		await saveEdited((trigger) => {
			Object.assign(trigger, { type: 'n8n-nodes-scraper-service.scraperPlatformTrigger', typeVersion: 1 });
			trigger.parameters = { ...(trigger.parameters as object), event: 'bulkJobCompleted' };
		});
		const third = await completeJob('third');
		// Two more polls: nothing fires again.
		await afterPolls(2);
		expect(await firings()).toEqual({ [first]: 1, [second]: 1, [third]: 1 });
	}, 900_000);
});
