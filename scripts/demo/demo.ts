/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the demo is a plain Node program: it runs a real n8n and the simulator, prints, and handles Ctrl-C */
// `npm start`: the whole package in a real n8n against the simulator, on this machine, in one command.
//   builds and packs both packages -> starts the simulator and its chain -> installs n8n once into a cache outside
//   the repo -> installs both tarballs as community packages -> imports credentials and example workflows ->
//   starts the editor with an owner account -> prints what to open. Ctrl-C stops everything it started.
//
// Flags (all optional): --no-build (pack dist/ as it is), --port=5678, --sim-ports=4010,4020,4030,4040,4050,4060,
// --user-folder=.n8n-demo/n8n, --n8n-version=2.8.4, --ready-json (print one JSON line when ready)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_PORTS, describeSimulator, type SimulatorPorts } from '../../test/simulator/index';
import { demoCredentials } from './credentials';
import { N8nInstance, portInUse } from './n8n';
import { DEMO_DIR, REPO_ROOT, buildAndPack } from './pack';
import { SimulatorProcess } from './simulator-process';
import { N8N_STABLE, ensureN8n, killGroup, log, stopRunningCommands } from './runtime';

/** The owner account the demo creates; printed for the user (a local demo, not a secret). */
export const DEMO_OWNER = { email: 'demo@example.com', password: 'ScraperDemo1', firstName: 'Demo', lastName: 'User' };
export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

interface DemoOptions {
	build: boolean;
	port: number;
	simPorts: SimulatorPorts;
	userFolder: string;
	version: string;
	readyJson: boolean;
}

function parseArgs(argv: string[]): DemoOptions {
	const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
	const simPorts = value('sim-ports')?.split(',').map(Number);
	const options: DemoOptions = {
		build: !argv.includes('--no-build'),
		port: Number(value('port') ?? 5678),
		simPorts: simPorts
			? { platform: simPorts[0], marketplace: simPorts[1], gateway: simPorts[2], model: simPorts[3] ?? 0, fetch: simPorts[4] ?? 0, search: simPorts[5] ?? 0 }
			: { ...DEFAULT_PORTS },
		userFolder: path.resolve(value('user-folder') ?? path.join(DEMO_DIR, 'n8n')),
		version: value('n8n-version') ?? N8N_STABLE,
		readyJson: argv.includes('--ready-json'),
	};
	for (const port of [options.port, ...Object.values(options.simPorts)]) {
		if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Not a port number: ${port} (see --port and --sim-ports)`);
	}
	return options;
}

/** Example workflows in the repo: file, id and name, in file order. */
export function exampleWorkflows(): Array<{ file: string; id: string; name: string; manual: boolean; hint: string }> {
	return readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => {
			const wf = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as { id: string; name: string; nodes: Array<{ type: string }> };
			const has = (type: string) => wf.nodes.some((n) => n.type.endsWith(type));
			const manual = has('.manualTrigger');
			// What makes each trigger example fire in the demo.
			const hint = manual ? '' : has('.scraperRunTrigger') ? '  (activate it: the demo rental scraper runs every 10 minutes)' : '  (activate it, then run example 2)';
			return { file, id: wf.id, name: wf.name, manual, hint };
		});
}

async function main(): Promise<void> {
	const started = Date.now();
	const options = parseArgs(process.argv.slice(2));
	const simulator = new SimulatorProcess();
	let n8n: N8nInstance | undefined;
	let stopping = false;
	let resolveDone: (code: number) => void = () => undefined;
	const done = new Promise<number>((resolve) => (resolveDone = resolve));

	const stopAll = async (reason: string, code: number): Promise<void> => {
		if (stopping) return;
		stopping = true;
		log(`${reason}: stopping n8n, the simulator and its chain ...`);
		stopRunningCommands();
		await Promise.allSettled([n8n?.stop(), simulator.stop()]);
		log('Stopped. Nothing left running.');
		resolveDone(code);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.on(signal, () => void stopAll(signal === 'SIGINT' ? 'Ctrl-C' : signal, 0));
	}
	// Last resort (an unexpected crash): nothing this demo started may outlive it.
	process.on('exit', () => {
		stopRunningCommands();
		killGroup(n8n?.pid, 'SIGKILL');
		killGroup(simulator.pid, 'SIGKILL');
	});
	const stoppedMeanwhile = async (): Promise<boolean> => {
		if (!stopping) return false;
		process.exit(await done);
	};

	try {
		const busy: string[] = [];
		for (const [what, port] of [['n8n', options.port], ...Object.entries(options.simPorts)] as Array<[string, number]>) {
			if (port !== 0 && (await portInUse(port))) busy.push(`${port} (${what})`);
		}
		if (busy.length > 0) throw new Error(`Port ${busy.join(', ')} is in use: stop what runs there (an earlier demo?) or pick others with --port / --sim-ports.`);

		// The slow first-run n8n install and the build do not depend on each other.
		const [runtime, tarballs] = await Promise.all([ensureN8n(options.version), buildAndPack({ build: options.build })]);
		if (await stoppedMeanwhile()) return;

		log('Starting the simulator (platform with its page fetch and Google search, marketplace, x402 gateway with a local anvil chain) ...');
		const info = await simulator.start(options.simPorts);
		simulator.onExit((code) => void stopAll(`The simulator exited (${code})`, 1));
		if (await stoppedMeanwhile()) return;

		n8n = new N8nInstance({ runtime, userFolder: options.userFolder, port: options.port });
		for (const tarball of tarballs) {
			log(`Installing ${path.basename(tarball)} into ${path.join(n8n.n8nFolder, 'nodes')} (as n8n's community-package installer does) ...`);
			await n8n.installCommunityPackage(tarball);
		}
		log('Importing credentials (pointing at the simulator) and the example workflows ...');
		await n8n.importCredentials(demoCredentials(info));
		await n8n.importWorkflows(EXAMPLES_DIR);
		if (await stoppedMeanwhile()) return;

		log(`Starting n8n ${runtime.version} on ${n8n.baseUrl} ...`);
		await n8n.start();
		const created = await n8n.setupOwner(DEMO_OWNER);
		await n8n.login(DEMO_OWNER.email, DEMO_OWNER.password).catch((error: Error) => {
			log(`Warning: the demo login does not work (${error.message.split('\n')[0]}). Delete ${options.userFolder} to start over.`);
		});
		if (await stoppedMeanwhile()) return;

		const line = '-'.repeat(100);
		const examples = exampleWorkflows()
			.map((wf) => `    ${n8n?.baseUrl}/workflow/${wf.id}   ${wf.name}${wf.hint}`)
			.join('\n');
		process.stdout.write(
			[
				'',
				line,
				`n8n ${runtime.version} with n8n-nodes-scraper-service and n8n-nodes-scraper-service-x402 is running (ready in ${Math.round((Date.now() - started) / 1000)} s).`,
				'',
				`  Open:      ${n8n.baseUrl}`,
				`  Log in:    ${DEMO_OWNER.email} / ${DEMO_OWNER.password}${created ? '   (owner account created)' : ''}`,
				'',
				'  Example workflows (open one, then click "Execute workflow"):',
				examples,
				'',
				'  Simulator:',
				describeSimulator(info)
					.split('\n')
					.map((l) => `    ${l}`)
					.join('\n'),
				'',
				`  n8n data: ${options.userFolder}   n8n itself: ${runtime.dir}`,
				'  Press Ctrl-C to stop n8n, the simulator and the chain.',
				line,
				'',
			].join('\n'),
		);
		// A machine-readable line for the browser test (test/e2e/editor.test.ts), which runs this demo.
		if (options.readyJson) process.stdout.write(`DEMO_READY ${JSON.stringify({ url: n8n.baseUrl, email: DEMO_OWNER.email, password: DEMO_OWNER.password, n8nPid: n8n.pid, simulatorPid: simulator.pid, simulator: info })}\n`);
		const server = n8n;
		const watch = setInterval(() => {
			if (!stopping && server.pid !== undefined && !isAlive(server.pid)) void stopAll('n8n exited', 1);
		}, 2000);
		const code = await done;
		clearInterval(watch);
		process.exit(code);
	} catch (error) {
		process.stderr.write(`\nThe demo could not start: ${(error as Error).message}\n`);
		await stopAll('Error', 1);
		process.exit(1);
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

void main();
