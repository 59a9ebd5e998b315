/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- demo tooling in plain Node: it runs the standalone simulator with this Node */
import path from 'node:path';

import type { SimulatorInfo, SimulatorPorts } from '../../test/simulator/index';
import { cleanEnv } from './commands';
import { ManagedProcess } from './managed-process';
import { REPO_ROOT } from './pack';

/**
 * Starts the standalone simulator (test/simulator/cli.ts) and resolves once every section listens, with its
 * addresses and demo credentials. SIGTERM lets it close its servers and its chain; SIGKILL to its group after 10 s.
 */
export async function startSimulatorProcess(ports: SimulatorPorts, timeoutMs = 120_000): Promise<{ simulator: ManagedProcess; info: SimulatorInfo }> {
	const list = [ports.platform, ports.marketplace, ports.gateway, ports.model ?? 0, ports.fetch ?? 0, ports.search ?? 0].join(',');
	const simulator = ManagedProcess.start('The simulator', process.execPath, ['--import', 'tsx', path.join('test', 'simulator', 'cli.ts'), '--json', `--ports=${list}`], {
		cwd: REPO_ROOT,
		env: cleanEnv(),
		graceMs: 10_000,
	});
	const [, json] = await simulator.waitForLog(/^SIMULATOR_READY (.+)$/m, timeoutMs, 'say it is ready');
	return { simulator, info: JSON.parse(json) as SimulatorInfo };
}
