/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- this test checks OS processes: it runs a child Node process and probes anvil's pid */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { sleep } from 'n8n-workflow';

import { GatewaySimulator } from '../../simulator/gateway';

/** Alive and not a zombie (a killed child can linger as one until its new parent reaps it). */
function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		// No /proc (not Linux): kill(pid, 0) is all there is.
		return true;
	}
}

async function waitUntilGone(pid: number, timeoutMs = 10_000): Promise<boolean> {
	for (let waited = 0; waited < timeoutMs; waited += 50) {
		if (!processAlive(pid)) return true;
		await sleep(50);
	}
	return !processAlive(pid);
}

async function rpcAnswers(rpcUrl: string): Promise<boolean> {
	try {
		const response = await fetch(rpcUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
			signal: AbortSignal.timeout(2_000),
		});
		return response.ok;
	} catch {
		return false;
	}
}

describe('gateway simulator lifecycle', () => {
	test('start gives a funded chain on loopback; close stops the HTTP server and anvil', async () => {
		const sim = await GatewaySimulator.start({ testWalletCount: 8 });
		const pid = sim.chain.anvil.pid;
		try {
			expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(sim.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(sim.chainId).toBe(31337);
			expect(sim.network).toBe('eip155:31337');
			expect(sim.testWallets).toHaveLength(8);
			// anvil's well-known dev accounts: 0 relays, 1 is the payee, 2 the demo wallet.
			expect(sim.facilitatorAddress).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
			expect(sim.payTo).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
			expect(sim.demoWallet.address).toBe('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
			const addresses = new Set([sim.payTo, sim.demoWallet.address, ...sim.testWallets.map((w) => w.address)]);
			expect(addresses.size).toBe(10);
			for (const wallet of [sim.demoWallet, ...sim.testWallets]) {
				expect(wallet.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
				expect(await sim.balanceOf(wallet.address)).toBe(1_000_000_000n);
			}
			expect(await sim.balanceOf(sim.payTo)).toBe(0n);
			expect(processAlive(pid)).toBe(true);
			expect(await rpcAnswers(sim.rpcUrl)).toBe(true);
		} finally {
			await sim.close();
		}
		expect(await waitUntilGone(pid)).toBe(true);
		expect(await rpcAnswers(sim.rpcUrl)).toBe(false);
		await expect(fetch(`${sim.url}/api/service/scraperAPI`, { method: 'POST', body: '{}' })).rejects.toThrow();
		await sim.close(); // twice is fine
	});

	test('no anvil survives a process that exits without close()', async () => {
		// A separate Node process starts the simulator and exits at once; its exit hook must kill anvil.
		const script = [
			"const { GatewaySimulator } = require('./test/simulator/gateway');",
			'GatewaySimulator.start({ testWalletCount: 1 }).then((sim) => {',
			"\tprocess.stdout.write(`ANVIL_PID ${sim.chain.anvil.pid} ${sim.rpcUrl}\\n`);",
			'\tprocess.exit(0);',
			'});',
		].join('\n');
		const child = spawn(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
		const match = /ANVIL_PID (\d+) (\S+)/.exec(stdout);
		if (!match) throw new Error(`child did not report anvil (exit ${code}): ${stderr}`);
		expect(code).toBe(0);
		expect(await waitUntilGone(Number(match[1]))).toBe(true);
		expect(await rpcAnswers(match[2])).toBe(false);
	}, 60_000);
});
