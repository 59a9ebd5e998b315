/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the demo is a plain Node program: it reads the example workflows and prints */
// What `npm start` prints once the demo is ready: where to open it, the login, the example workflows, the simulator.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describeSimulator, type SimulatorInfo } from '../../test/simulator/index';

interface DemoReady {
	n8nVersion: string;
	baseUrl: string;
	owner: { email: string; password: string };
	/** Whether this start created the owner account (the first start on a user folder). */
	created: boolean;
	simulator: SimulatorInfo;
	userFolder: string;
	n8nDir: string;
	startedAt: number;
	/** Process ids, for the DEMO_READY line. */
	n8nPid?: number;
	simulatorPid?: number;
}

/** Example workflows in the repo: id, name and what makes a trigger example fire in the demo, in file order. */
function exampleWorkflows(examplesDir: string): Array<{ id: string; name: string; hint: string }> {
	return readdirSync(examplesDir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => {
			const wf = JSON.parse(readFileSync(path.join(examplesDir, file), 'utf8')) as { id: string; name: string; nodes: Array<{ type: string }> };
			const has = (type: string) => wf.nodes.some((n) => n.type.endsWith(type));
			const hint = has('.manualTrigger') ? '' : has('.scraperMarketplaceTrigger') ? '  (activate it: the demo rental scraper runs every 10 minutes)' : '  (activate it, then run example 2)';
			return { id: wf.id, name: wf.name, hint };
		});
}

/** Prints the ready banner; with `readyJson`, also one `DEMO_READY {json}` line for the browser test (test/e2e/editor.test.ts). */
export function printReady(ready: DemoReady, examplesDir: string, readyJson: boolean): void {
	const line = '-'.repeat(100);
	const examples = exampleWorkflows(examplesDir).map((wf) => `    ${ready.baseUrl}/workflow/${wf.id}   ${wf.name}${wf.hint}`);
	const simulator = describeSimulator(ready.simulator)
		.split('\n')
		.map((l) => `    ${l}`);
	const seconds = Math.round((Date.now() - ready.startedAt) / 1000);
	process.stdout.write(
		[
			'',
			line,
			`n8n ${ready.n8nVersion} with n8n-nodes-scraper-service and n8n-nodes-scraper-service-x402 is running (ready in ${seconds} s).`,
			'',
			`  Open:      ${ready.baseUrl}`,
			`  Log in:    ${ready.owner.email} / ${ready.owner.password}${ready.created ? '   (owner account created)' : ''}`,
			'',
			'  Example workflows (open one, then click "Execute workflow"):',
			...examples,
			'',
			'  Simulator:',
			...simulator,
			'',
			`  n8n data: ${ready.userFolder}   n8n itself: ${ready.n8nDir}`,
			'  Press Ctrl-C to stop n8n, the simulator and the chain.',
			line,
			'',
		].join('\n'),
	);
	if (!readyJson) return;
	const { baseUrl: url, owner, n8nPid, simulatorPid, simulator: info } = ready;
	process.stdout.write(`DEMO_READY ${JSON.stringify({ url, email: owner.email, password: owner.password, n8nPid, simulatorPid, simulator: info })}\n`);
}
