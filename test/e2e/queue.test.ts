/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- end-to-end test in plain Node: it runs n8n in queue mode (main, workers, Redis, PostgreSQL), writes the workflows it imports, checks process ids and prints its figures */
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sleep } from 'n8n-workflow';

import { demoCredentials } from '../../scripts/demo/credentials';
import type { N8nRun } from '../../scripts/demo/n8n-run';
import { N8N_STABLE, isInstalled, runtimeFor } from '../../scripts/demo/runtime';
import { DEMO_MANUAL_SCRAPER_IDS, PLATFORM_DEMO_TOKEN, startSimulator, type RunningSimulator } from '../simulator/index';
import { expectExample4, paymentsBefore } from './examples/gateway';
import { expectExample3, expectExample5 } from './examples/marketplace';
import { expectExample1, expectExample2 } from './examples/platform';
import { demoWalletBalance, expectCapHeld, SPEND_WORKFLOW, SPEND_WORKFLOW_ID, WAIT_SECONDS } from './examples/spendAcrossWait';
import { EXAMPLES, example, nodeOutput } from './examples/workflows';
import { QueueCluster } from './infra/queue/cluster';
import { isAlive } from './infra/queue/procfs';
import { N8nRestClient, type RestExecution } from './infra/queue/rest-client';
import { installFromRegistry } from './infra/registry/install-by-name';
import { useRegistry } from './support';

/**
 * n8n 2.8.4 scaled out: `n8n start` (main), two `n8n worker`s, Redis (the queue) and PostgreSQL (the database),
 * all started here (test/e2e/infra/queue/cluster.ts) and stopped at the end. Manual runs are offloaded to the workers; the
 * examples must give the same rows as in one process (test/e2e/headless.test.ts), binary data must travel from a
 * worker to main, the Scraper Platform Trigger (polled by main) must fire once per completed job, and a worker killed mid-run
 * must not stop the other.
 */

const VERSION = process.env.E2E_QUEUE_N8N_VERSION ?? N8N_STABLE;
const OWNER = { email: 'queue@example.com', password: 'QueueOwner1', firstName: 'Queue', lastName: 'Owner' };
const BULK_SCRAPER = DEMO_MANUAL_SCRAPER_IDS[0];
const TRIGGER_ID = 'scrQueueTrig0006';
const SLOW_BULK_ID = 'scrQueueSlowBulk';
/** The trigger copy polls every 5 s: n8n refuses `*` in the seconds field ("at least a minute"), not a list. */
const EVERY_5_SECONDS = '0,5,10,15,20,25,30,35,40,45,50,55 * * * * *';

/** A successful run (status success, no error), else fail with what n8n stored. */
function expectSuccess(execution: RestExecution): N8nRun {
	const error = execution.run.data?.resultData?.error;
	if (execution.status !== 'success' || error) {
		throw new Error(`Execution ${execution.id} ended ${execution.status}: ${error?.message ?? ''} in ${execution.run.data?.resultData?.lastNodeExecuted}`);
	}
	return execution.run;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// Every process installs both packages by name from this registry.
const served = useRegistry();

describe(`n8n ${VERSION} in queue mode: main + 2 workers + Redis + PostgreSQL`, () => {
	let sim: RunningSimulator;
	let cluster: QueueCluster;
	let rest: N8nRestClient;
	let workflowsDir: string;
	/** Which worker ran which execution, for the report. */
	const ranOn: Array<{ what: string; executionId: string; worker: string; ms?: number }> = [];
	const report: string[] = [];

	/** Runs a workflow as the editor does, waits for it, and checks one worker (and only one) ran it. */
	async function runOnWorker(what: string, workflowId: string): Promise<{ execution: RestExecution; worker: string }> {
		const started = Date.now();
		const executionId = await rest.runManually(workflowId);
		const execution = await rest.waitForExecution(executionId);
		const workers = cluster.workersThatStarted(executionId);
		expect(workers).toHaveLength(1);
		expect(cluster.workersThatFinished(executionId)).toEqual(workers);
		expect(cluster.main?.process.log).toMatch(new RegExp(`Enqueued execution ${executionId} \\(job `));
		expect(execution.mode).toBe('manual');
		ranOn.push({ what, executionId, worker: workers[0], ms: Date.now() - started });
		return { execution, worker: workers[0] };
	}

	beforeAll(async () => {
		const runtime = await runtimeFor(VERSION);
		if (!isInstalled(runtime)) throw new Error(`n8n ${VERSION} is not installed in ${runtime.dir}: run \`npm run test:e2e -- --queue\`, which installs it first.`);
		sim = await startSimulator();
		// The examples, plus two copies: the Scraper Platform Trigger polling every 5 s, and example 2 waiting up to 15 minutes.
		workflowsDir = mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-workflows-'));
		for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'))) copyFileSync(path.join(EXAMPLES, file), path.join(workflowsDir, file));
		const trigger = example('06-bulk-trigger-to-sheet-rows.json');
		trigger.id = TRIGGER_ID;
		trigger.name = 'queue e2e: bulk trigger every 5 s';
		trigger.nodes[0].parameters.pollTimes = { item: [{ mode: 'custom', cronExpression: EVERY_5_SECONDS }] };
		writeFileSync(path.join(workflowsDir, 'queue-trigger.json'), JSON.stringify(trigger, null, '\t'));
		const slow = example('02-bulk-rerun-merged-records.json');
		slow.id = SLOW_BULK_ID;
		slow.name = 'queue e2e: slow bulk job, waiting';
		Object.assign(slow.nodes[1].parameters, { options: { maxWaitSeconds: 900, pollIntervalSeconds: 2 } });
		writeFileSync(path.join(workflowsDir, 'queue-slow-bulk.json'), JSON.stringify(slow, null, '\t'));
		writeFileSync(path.join(workflowsDir, 'queue-spend-across-wait.json'), JSON.stringify(SPEND_WORKFLOW, null, '\t'));

		// Every process installs both packages by name from a local npm registry, as separate hosts would (n8n's own
		// installer, which would tell the workers over Redis, refuses a custom registry on an unlicensed n8n).
		const { registry, published } = served;
		const specs = published.map((p) => `${p.name}@${p.version}`);
		cluster = await QueueCluster.start({
			runtime,
			install: async (instance) => void (await installFromRegistry(instance, specs, registry.url, { npmCache: path.join(instance.userFolder, 'npm-cache') })),
			credentials: demoCredentials(sim.info),
			workflows: workflowsDir,
			workers: 2,
		});
		const main = cluster.main;
		if (!main) throw new Error('no main');
		await main.instance.setupOwner(OWNER);
		rest = new N8nRestClient(main.instance.baseUrl, await main.instance.login(OWNER.email, OWNER.password));
		report.push(`start-up: ${Object.entries(cluster.timings).map(([k, ms]) => `${k} ${seconds(ms)}`).join(', ')}`);
	});

	afterAll(async () => {
		await cluster?.stop();
		await sim?.close();
		if (workflowsDir) rmSync(workflowsDir, { recursive: true, force: true });
		process.stdout.write(
			[
				'',
				`queue mode report (n8n ${VERSION})`,
				...report.map((line) => `  ${line}`),
				'  executions:',
				...ranOn.map((r) => `    #${r.executionId} ${r.what}: ${r.worker}${r.ms === undefined ? '' : ` (${seconds(r.ms)} from the run request to finished)`}`),
				'',
			].join('\n'),
		);
	});

	test('the cluster: main, two workers with both packages, Redis and PostgreSQL on loopback, one encryption key', async () => {
		expect(cluster.workers).toHaveLength(2);
		const env = cluster.queueEnv();
		expect(env).toMatchObject({ EXECUTIONS_MODE: 'queue', DB_TYPE: 'postgresdb', OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true', N8N_DEFAULT_BINARY_DATA_MODE: 'database' });
		// Every process its own task broker port, every worker its own health port.
		const brokerPorts = cluster.members.map((m) => m.brokerPort);
		expect(new Set(brokerPorts).size).toBe(3);
		for (const w of cluster.workers) {
			const health = await fetch(`http://127.0.0.1:${w.healthPort}/healthz/readiness`);
			expect(health.status).toBe(200);
			expect(w.process.log).toMatch(/n8n worker is now ready/);
		}
		// Main and each worker installed both packages by name from the registry.
		for (const m of cluster.members) {
			const manifest = JSON.parse(readFileSync(path.join(m.instance.n8nFolder, 'nodes', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
			expect(manifest.dependencies).toEqual(Object.fromEntries(served.published.map((p) => [p.name, p.version])));
		}
		// Each started with an empty npm cache of its own, so each downloaded them (npm may fetch a tarball twice).
		for (const p of served.published) expect(served.registry.downloads(p.name).length).toBeGreaterThanOrEqual(cluster.members.length);
		// The workflows and credentials live in PostgreSQL (imported with the CLI before start).
		const rows = await cluster.postgres?.query(`select id from workflow_entity where id in ('scrExample01AiSh', '${TRIGGER_ID}', '${SLOW_BULK_ID}') order by id`);
		expect(rows?.map((r) => r[0])).toEqual(['scrExample01AiSh', SLOW_BULK_ID, TRIGGER_ID].sort());
		const credentials = await cluster.postgres?.query('select count(*) from credentials_entity');
		expect(Number(credentials?.[0][0])).toBe(demoCredentials(sim.info).length);
	});

	test('example 1 runs on a worker: one spreadsheet row per record', async () => {
		sim.platform.server.log.clear();
		const { execution } = await runOnWorker('example 1', 'scrExample01AiSh');
		expectExample1(expectSuccess(execution), sim);
	});

	test('example 2 runs on a worker: bulk rerun with Wait for Completion -> every merged record', async () => {
		sim.platform.server.log.clear();
		const { execution } = await runOnWorker('example 2', 'scrExample02Bulk');
		expectExample2(expectSuccess(execution), sim);
	});

	test('example 3 runs on a worker: search-engine leads -> one CRM contact per lead', async () => {
		sim.marketplace.server.log.clear();
		const { execution } = await runOnWorker('example 3', 'scrExample03Lead');
		await expectExample3(expectSuccess(execution), sim);
	});

	test('example 4 runs on a worker: three payments settle on chain once each; screenshots download through main', async () => {
		const before = await paymentsBefore(sim);
		const { execution, worker } = await runOnWorker('example 4', 'scrExample04Paid');
		// The worker stored each screenshot in PostgreSQL (binary data mode `database`); main serves it.
		const sizes = await expectExample4(expectSuccess(execution), sim, before, async (screenshot) => {
			expect(screenshot.id).toMatch(/^database:/);
			const download = await rest.binary(screenshot.id ?? '');
			expect(download.status).toBe(200);
			expect(download.contentType).toMatch(/^image\/jpeg/);
			return download.bytes;
		});
		report.push(`example 4: ran on ${worker}; 3 settlements; screenshots via main /rest/binary-data: ${sizes.map((n) => `${n} B`).join(', ')} (byte-identical)`);
	});

	test('example 5 runs on a worker: job board with a JSON Schema -> one row per job', async () => {
		sim.marketplace.server.log.clear();
		const { execution } = await runOnWorker('example 5', 'scrExample05Jobs');
		await expectExample5(expectSuccess(execution), sim);
		const workers = new Set(ranOn.map((r) => r.worker));
		report.push(`examples 1-5: ${ranOn.length} executions on ${[...workers].sort().join(' and ')}`);
	});

	test('the Scraper Platform Trigger (Bulk Job Completed), polled by main, fires exactly once per completed bulk job; its state is in PostgreSQL', async () => {
		const log = sim.platform.server.log;
		const polls = () => log.for('GET /api/v1/results').filter((r) => r.query.dateRangeColumn === 'updatedAt' && r.headers['x-api-token'] === PLATFORM_DEMO_TOKEN);
		const pollsBefore = polls().length;
		const urls = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `https://shop.example.com/item/${tag}-${i + 1}`);
		const waitDone = async (ids: string[]) => {
			while (ids.some((id) => sim.platform.getRecord(id)?.status === 'Running')) await sleep(250);
		};
		/** Executions of the trigger workflow, finished, with the bulk job ids in their rows. */
		const fired = async () => {
			const list = await rest.executionsOf(TRIGGER_ID);
			const out: Array<{ id: string; status: string; mode: string; jobs: Record<string, number> }> = [];
			for (const e of list) {
				if (['new', 'running'].includes(e.status)) continue;
				const execution = await rest.execution(e.id);
				const jobs: Record<string, number> = {};
				for (const row of nodeOutput(expectSuccess(execution), 'Google Sheets Rows')) {
					const id = row.json['Bulk Job ID'] as string;
					jobs[id] = (jobs[id] ?? 0) + 1;
				}
				out.push({ id: e.id, status: e.status, mode: e.mode, jobs });
			}
			return out;
		};
		const waitForJobs = async (ids: string[], timeoutMs = 60_000) => {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const all = await fired();
				const seen = new Set(all.flatMap((e) => Object.keys(e.jobs)));
				if (ids.every((id) => seen.has(id))) return all;
				if (Date.now() > deadline) throw new Error(`The trigger did not fire for ${ids.filter((id) => !seen.has(id)).join(', ')} in ${timeoutMs} ms; executions: ${JSON.stringify(all)}`);
				await sleep(1000);
			}
		};

		// A job that completed before activation: the trigger's look-back (24 h) picks it up on the first poll.
		const before = sim.platform.startBulk(PLATFORM_DEMO_TOKEN, BULK_SCRAPER, urls(2, 'before')).id;
		await waitDone([before]);
		const started = Date.now();
		await rest.activate(TRIGGER_ID);
		await waitForJobs([before]);
		// One job completing between two polls, then two completing together.
		const one = sim.platform.startBulk(PLATFORM_DEMO_TOKEN, BULK_SCRAPER, urls(2, 'one')).id;
		await waitForJobs([one]);
		const two = [sim.platform.startBulk(PLATFORM_DEMO_TOKEN, BULK_SCRAPER, urls(2, 'twoA')).id, sim.platform.startBulk(PLATFORM_DEMO_TOKEN, BULK_SCRAPER, urls(3, 'twoB')).id];
		await waitForJobs(two);
		// Then idle polls: nothing more may fire.
		const firedCount = (await fired()).length;
		const idleFrom = polls().length;
		while (polls().length < idleFrom + 2) await sleep(500);
		await sleep(3000);
		await rest.deactivate(TRIGGER_ID);
		const executions = await fired();
		expect(executions).toHaveLength(firedCount);
		const pollCount = polls().length - pollsBefore;
		expect(pollCount).toBeGreaterThanOrEqual(3);

		// Every completed job of the scraper (the four above, example 2's) fired exactly once, with all its records.
		const listed = await fetch(`${sim.info.platformUrl}/api/v1/results?search=Bulk-AI&page=1&pageSize=100&sortField=updatedAt&sortOrder=ASC`, { headers: { 'x-api-token': PLATFORM_DEMO_TOKEN } });
		const records = ((await listed.json()) as { data: Array<{ id: string; scraperId: string }> }).data;
		const completed = records
			.filter((r) => r.scraperId === BULK_SCRAPER)
			.map((r) => sim.platform.getRecord<{ mergedData: unknown[] }>(r.id))
			.filter((r) => r !== undefined && r.status !== 'Running');
		expect(completed.map((r) => r?.id)).toEqual(expect.arrayContaining([before, one, ...two]));
		const perJob: Record<string, number> = {};
		for (const job of completed) {
			const containing = executions.filter((e) => e.jobs[job?.id ?? ''] !== undefined);
			perJob[job?.id ?? ''] = containing.length;
			expect(containing).toHaveLength(1);
			expect(containing[0].jobs[job?.id ?? '']).toBe(job?.data.mergedData.length);
		}
		for (const e of [...executions].sort((a, b) => Number(a.id) - Number(b.id))) {
			expect(e.mode).toBe('trigger');
			const workers = cluster.workersThatStarted(e.id);
			expect(workers).toHaveLength(1);
			ranOn.push({ what: `Scraper Platform Trigger firing (${Object.keys(e.jobs).length} job(s))`, executionId: e.id, worker: workers[0] });
		}

		// The trigger's state: in the workflow's static data, in PostgreSQL.
		const rows = await cluster.postgres?.query(`select "staticData" from workflow_entity where id = '${TRIGGER_ID}'`);
		// n8n keeps a node's static data under `node:<node name>`.
		const staticData = JSON.parse(rows?.[0]?.[0] ?? '{}') as Record<string, { version: number; cursor: number; seen: Record<string, number> }>;
		const state = staticData['node:When a Bulk Job Completes'];
		expect(state?.version).toBe(1);
		const newestUpdate = Math.max(...completed.map((r) => Date.parse(r?.updatedAt ?? '')));
		expect(state?.cursor).toBe(newestUpdate);
		expect(Object.keys(state?.seen ?? {})).toEqual(expect.arrayContaining(two));
		report.push(
			`trigger: ${pollCount} polls in ${seconds(Date.now() - started)}, ${executions.length} executions; per job: ${Object.entries(perJob)
				.map(([id, n]) => `${id.slice(0, 8)} x${n}`)
				.join(', ')}; static data in PostgreSQL: cursor ${new Date(state?.cursor ?? 0).toISOString()}, ${Object.keys(state?.seen ?? {}).length} seen id(s)`,
		);
	});

	test('memory per process (VmRSS): main, each worker and their task runners', () => {
		const memory = cluster.memory();
		expect(memory.map((m) => m.name)).toEqual(['main', 'worker-1', 'worker-2']);
		const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
		for (const m of memory) {
			expect(m.rssKb).toBeGreaterThan(0);
			const runners = m.children.filter((c) => c.command.includes('task-runner'));
			report.push(`memory ${m.name} (pid ${m.pid}): ${mb(m.rssKb)}; task runner${runners.length === 1 ? '' : 's'}: ${runners.map((c) => `${mb(c.rssKb)} (pid ${c.pid})`).join(', ') || 'none'}`);
		}
		const total = memory.reduce((sum, m) => sum + m.rssKb + m.children.reduce((s, c) => s + c.rssKb, 0), 0);
		report.push(`memory total of the n8n processes: ${mb(total)}`);
	});

	test('two Gateway nodes, one 0.03 USDC cap, a 70 s Wait resumed on the other worker: 0.03 USDC paid in all', async () => {
		const balance = await demoWalletBalance(sim);
		const settled = sim.gateway.settlements.length;
		const executionId = await rest.runManually(SPEND_WORKFLOW_ID);
		await rest.waitUntilWaiting(executionId);
		const [first] = cluster.workersThatStarted(executionId);
		const paused = cluster.workers.find((w) => w.name === first);
		const other = cluster.workers.find((w) => w.name !== first);
		if (!paused || !other) throw new Error('expected two workers');
		// The worker that ran the first part is paused through the Wait, so the resumed part runs on the other one.
		paused.process.signal('SIGSTOP');
		let execution: RestExecution;
		try {
			execution = await rest.waitForExecution(executionId, (WAIT_SECONDS + 120) * 1000, 1000);
		} finally {
			paused.process.signal('SIGCONT');
		}
		expect(execution.status).toBe('success');
		expect(cluster.workersThatStarted(executionId).sort()).toEqual([paused.name, other.name].sort());
		expect(cluster.workersThatFinished(executionId)).toContain(other.name);
		const paid = await expectCapHeld(execution.run, sim, balance, settled);
		ranOn.push({ what: 'spend limit across a 70 s Wait (part 1)', executionId, worker: paused.name });
		ranOn.push({ what: 'spend limit across a 70 s Wait (resumed)', executionId, worker: other.name });
		report.push(`spend limit across a Wait: #${executionId} paid ${Number(paid) / 1e6} USDC on chain (cap 0.03), first part on ${paused.name}, resumed on ${other.name}`);
		const health = `http://127.0.0.1:${paused.healthPort}/healthz/readiness`;
		await paused.process.waitUntil(`answer on ${health}`, async () => (await fetch(health)).ok, 60_000, 500);
	});

	test('a worker killed (SIGKILL) in Bulk > Start with Wait for Completion: the other worker keeps serving', async () => {
		const log = sim.platform.server.log;
		log.clear();
		// A bulk job that takes ten minutes.
		const duration = sim.platform.options.bulkUrlDurationMs;
		sim.platform.options.bulkUrlDurationMs = 600_000;
		let executionId: string;
		try {
			executionId = await rest.runManually(SLOW_BULK_ID);
			// In the wait loop: the job started and was read at least once.
			const deadline = Date.now() + 60_000;
			while (log.count('GET /api/v1/results/:id') < 1 || cluster.workersThatStarted(executionId).length === 0) {
				if (Date.now() > deadline) throw new Error(`Execution ${executionId} did not reach the wait loop: ${JSON.stringify(log.counts())}`);
				await sleep(250);
			}
		} finally {
			sim.platform.options.bulkUrlDurationMs = duration;
		}
		expect(log.count('POST /api/v1/scrapers-manual-rerun/bulk')).toBe(1);
		const bulkId = log.for('GET /api/v1/results/:id')[0].path.split('/').pop() ?? '';
		const [victimName] = cluster.workersThatStarted(executionId);
		const victim = cluster.workers.find((w) => w.name === victimName);
		const survivor = cluster.workers.find((w) => w.name !== victimName);
		if (!victim || !survivor) throw new Error('expected two workers');
		const runnerPids = cluster.memory().find((m) => m.name === victim.name)?.children.map((c) => c.pid) ?? [];

		const killedAt = Date.now();
		victim.process.signal('SIGKILL');
		expect(await victim.process.waitForExit(10_000)).toBe(true);
		expect(victim.process.exit?.signal).toBe('SIGKILL');

		// A later execution runs on the surviving worker.
		const later = await runOnWorker('example 5 after the kill', 'scrExample05Jobs');
		expectSuccess(later.execution);
		expect(later.worker).toBe(survivor.name);

		// What n8n shows for the execution the killed worker held.
		const statusAfterLater = (await rest.execution(executionId)).status;
		const killed = await rest.waitForExecution(executionId, 240_000, 1000);
		const shownAfterMs = Date.now() - killedAt;
		const error = killed.run.data?.resultData?.error as Record<string, unknown> | undefined;
		const errorShown = error ? JSON.stringify(Object.fromEntries(Object.entries(error).filter(([k]) => !['stack', 'cause'].includes(k)))) : 'none';
		const ranNodes = Object.keys(killed.run.data?.resultData?.runData ?? {});
		const runnersLeft = runnerPids.filter((pid) => isAlive(pid));
		const mainLines = (cluster.main?.process.log ?? '')
			.split('\n')
			.filter((l) => l.includes(`xecution ${executionId} `) || l.includes(`"${executionId}"`) || /stalled|crashed|dangling/i.test(l));
		report.push(
			`killed ${victim.name} (pid ${victim.process.pid}, SIGKILL) during execution #${executionId} (Bulk > Start waiting on job ${bulkId})`,
			`  right after the kill, #${executionId} showed status "${statusAfterLater}"; example 5 then ran on ${later.worker} (#${later.execution.id})`,
			`  n8n showed #${executionId} as status "${killed.status}", finished ${killed.finished}, after ${seconds(shownAfterMs)}; stoppedAt ${killed.stoppedAt}`,
			`  error: ${errorShown}; nodes with run data: ${ranNodes.join(', ') || 'none'}; last node: ${killed.run.data?.resultData?.lastNodeExecuted ?? '-'}`,
			`  task runner(s) of the killed worker still alive afterwards: ${runnersLeft.length ? runnersLeft.join(', ') : 'none'}`,
			`  main logged: ${mainLines.map((l) => l.trim()).join(' | ') || 'nothing about it'}`,
		);
		// n8n 2.8.4: the job's Redis lock (60 s) runs out, the surviving worker's stalled-job check (every 30 s) finds
		// it, and with n8n's maxStalledCount 0 Bull fails it instead of handing it to another worker: status error.
		expect(killed.status).toBe('error');
		expect(killed.finished).toBe(false);
		expect(error?.message).toMatch(/^This execution failed to be processed too many times and will no longer retry/);
		expect(ranNodes).toEqual([]);
		expect(cluster.main?.process.log).toMatch(new RegExp(`job stalled more than maxStalledCount \\(execution ${executionId}\\)`));
		// The bulk job itself goes on in the service: Bulk > Get with its id resumes from there.
		expect(sim.platform.getRecord(bulkId)?.status).toBe('Running');
	});

	test('stopping the cluster leaves no process, port or folder behind', async () => {
		const startedStop = Date.now();
		await cluster.stop();
		report.push(`stop: ${seconds(Date.now() - startedStop)}`);
		expect(await cluster.leftovers()).toEqual([]);
	});
});
