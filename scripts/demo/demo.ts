/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the demo is a plain Node program: it runs a real n8n and the simulator, prints, and handles Ctrl-C */
// `npm start`: the whole package in a real n8n against the simulator, on this machine, in one command.
//   builds and packs both packages -> starts the simulator and its chain -> installs n8n once into a cache outside
//   the repo -> installs both tarballs as community packages -> imports credentials and example workflows ->
//   starts the editor with an owner account -> prints what to open. Ctrl-C stops everything it started.
//
// Flags (all optional): --no-build (pack dist/ as it is), --port=5678, --sim-ports=4010,4020,4030,4040,4050,4060,
// --user-folder=.n8n-demo/n8n, --n8n-version=2.8.4, --ready-json (print one JSON line when ready)
import path from 'node:path';

import { DEFAULT_PORTS, type SimulatorInfo, type SimulatorPorts } from '../../test/simulator/index';
import { printReady } from './banner';
import { log } from './commands';
import { demoCredentials } from './credentials';
import { stopAllGroups } from './groups';
import { N8nInstance } from './n8n';
import { DEMO_DIR, REPO_ROOT, buildAndPack } from './pack';
import { portInUse } from './ports';
import { N8N_STABLE, ensureN8n, type N8nRuntime } from './runtime';
import { startSimulatorProcess } from './simulator-process';

/** The owner account the demo creates; printed for the user (a local demo, not a secret). */
const DEMO_OWNER = { email: 'demo@example.com', password: 'ScraperDemo1', firstName: 'Demo', lastName: 'User' };
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

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

async function checkPorts(options: DemoOptions): Promise<void> {
	const busy: string[] = [];
	for (const [what, port] of [['n8n', options.port], ...Object.entries(options.simPorts)] as Array<[string, number]>) {
		if (port !== 0 && (await portInUse(port))) busy.push(`${port} (${what})`);
	}
	if (busy.length > 0) throw new Error(`Port ${busy.join(', ')} is in use: stop what runs there (an earlier demo?) or pick others with --port / --sim-ports.`);
}

/** Ctrl-C, SIGTERM, SIGHUP or a child that died: stops everything once; `done` resolves with the exit code. */
class Stopper {
	stopping = false;
	private resolveDone: (code: number) => void = () => undefined;
	readonly done = new Promise<number>((resolve) => (this.resolveDone = resolve));

	constructor() {
		for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
			process.on(signal, () => void this.stopAll(signal === 'SIGINT' ? 'Ctrl-C' : signal, 0));
		}
	}

	async stopAll(reason: string, code: number): Promise<void> {
		if (this.stopping) return;
		this.stopping = true;
		log(`${reason}: stopping n8n, the simulator and its chain ...`);
		// Every process and command the demo started, each with its grace period (groups.ts).
		await stopAllGroups();
		log('Stopped. Nothing left running.');
		this.resolveDone(code);
	}

	/** Throws when a stop came in meanwhile: the demo goes no further. */
	check(): void {
		if (this.stopping) throw new Error('stopping');
	}
}

/** A user folder with both packages, the demo's credentials and the example workflows. */
async function prepareN8n(options: DemoOptions, runtime: N8nRuntime, tarballs: string[], info: SimulatorInfo): Promise<N8nInstance> {
	const n8n = new N8nInstance({ runtime, userFolder: options.userFolder, port: options.port });
	for (const tarball of tarballs) {
		log(`Installing ${path.basename(tarball)} into ${path.join(n8n.n8nFolder, 'nodes')} (as n8n's community-package installer does) ...`);
		await n8n.installCommunityPackage(tarball);
	}
	log('Importing credentials (pointing at the simulator) and the example workflows ...');
	await n8n.importCredentials(demoCredentials(info));
	await n8n.importWorkflows(EXAMPLES_DIR);
	return n8n;
}

async function startDemo(options: DemoOptions, stopper: Stopper): Promise<void> {
	const startedAt = Date.now();
	await checkPorts(options);
	// The slow first-run n8n install and the build do not depend on each other.
	const [runtime, tarballs] = await Promise.all([ensureN8n(options.version), buildAndPack({ build: options.build })]);
	stopper.check();
	log('Starting the simulator (platform with its page fetch and Google search, marketplace, x402 gateway with a local anvil chain) ...');
	const { simulator, info } = await startSimulatorProcess(options.simPorts);
	simulator.onExit((exit) => void stopper.stopAll(`The simulator exited (${exit.signal ?? exit.code})`, 1));
	stopper.check();
	const n8n = await prepareN8n(options, runtime, tarballs, info);
	stopper.check();
	log(`Starting n8n ${runtime.version} on ${n8n.baseUrl} ...`);
	await n8n.start();
	n8n.process?.onExit((exit) => void stopper.stopAll(`n8n exited (${exit.signal ?? exit.code})`, 1));
	const created = await n8n.setupOwner(DEMO_OWNER);
	await n8n.login(DEMO_OWNER.email, DEMO_OWNER.password).catch((error: Error) => {
		log(`Warning: the demo login does not work (${error.message.split('\n')[0]}). Delete ${options.userFolder} to start over.`);
	});
	stopper.check();
	const { userFolder } = options;
	const ready = { n8nVersion: runtime.version, baseUrl: n8n.baseUrl, owner: DEMO_OWNER, created, simulator: info, userFolder, n8nDir: runtime.dir, startedAt };
	printReady({ ...ready, n8nPid: n8n.process?.pid, simulatorPid: simulator.pid }, EXAMPLES_DIR, options.readyJson);
}

async function main(): Promise<void> {
	const stopper = new Stopper();
	try {
		await startDemo(parseArgs(process.argv.slice(2)), stopper);
	} catch (error) {
		// A stop meanwhile (Ctrl-C during an install) is no failure to report.
		if (!stopper.stopping) {
			process.stderr.write(`\nThe demo could not start: ${(error as Error).message}\n`);
			await stopper.stopAll('Error', 1);
		}
	}
	process.exit(await stopper.done);
}

void main();
