/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the standalone simulator is a plain Node program: it reads argv, prints, and exits on signals */
import { DEFAULT_PORTS, describeSimulator, startSimulator, type SimulatorPorts } from './index';

/**
 * `npm run simulator [-- --free-ports | --ports=4010,4020,4030[,4040[,4050,4060]] | --json | --no-demo-data]`
 * Starts every section of the interface standalone on loopback and runs until Ctrl-C (or SIGTERM), which
 * closes every section and the local chain. With --json the ready line is one JSON object (for the demo script).
 * The demo account starts with finished results for every demo scraper (see `demoData` of `startSimulator`), so
 * the editor's "From list" pickers have something to show; --no-demo-data starts empty.
 * --ports takes platform,marketplace,gateway, optionally the chat model's port, then optionally the page fetch's and
 * the Google search's; a port not given is a free one (its URL is in the ready line and the summary).
 */
function parsePorts(argv: string[]): SimulatorPorts {
	if (argv.includes('--free-ports')) return { platform: 0, marketplace: 0, gateway: 0, model: 0, fetch: 0, search: 0 };
	const flag = argv.find((a) => a.startsWith('--ports='));
	if (!flag) return { ...DEFAULT_PORTS };
	const numbers = flag.slice('--ports='.length).split(',').map(Number);
	if (numbers.length < 3 || numbers.length > 6 || !numbers.every((port) => Number.isInteger(port) && port >= 0 && port <= 65535)) {
		throw new Error(`--ports takes three to six port numbers: platform,marketplace,gateway[,model[,fetch[,search]]] (got "${flag}")`);
	}
	const [platform, marketplace, gateway, model = 0, fetch = 0, search = 0] = numbers;
	return { platform, marketplace, gateway, model, fetch, search };
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const sim = await startSimulator({ ports: parsePorts(argv), demoData: !argv.includes('--no-demo-data') });
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`Simulator: ${signal}, stopping\n`);
		void sim.close().then(() => process.exit(0));
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
	if (argv.includes('--json')) {
		process.stdout.write(`SIMULATOR_READY ${JSON.stringify(sim.info)}\n`);
	} else {
		process.stdout.write(`Simulator running (Ctrl-C stops it)\n${describeSimulator(sim.info)}\n`);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`Simulator failed to start: ${(error as Error).stack ?? String(error)}\n`);
	process.exit(1);
});
