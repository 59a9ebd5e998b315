/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test code in plain Node: it wraps process.stdout/stderr and the console to prove the private key never reaches a log line */
import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { allText, runNode, withoutItemMark } from '../harness';
import type { RunOptions, RunResult } from '../harness';
import { GatewaySimulator } from '../simulator/gateway';
import type { GatewaySimulatorOptions } from '../simulator/gateway/types';

export const FETCH_ROUTE = 'POST /api/service/scraperAPI';
export const SEARCH_ROUTE = 'POST /api/service/webSearch';
export const PRICE = 10_000n;

/** x402 Wallet credential data for a simulator wallet on the local chain. */
export function walletCredential(
	sim: GatewaySimulator,
	wallet: { privateKey: string },
	overrides: ICredentialDataDecryptedObject = {},
): Record<string, ICredentialDataDecryptedObject> {
	return {
		x402WalletApi: {
			privateKey: wallet.privateKey,
			baseUrl: sim.url,
			network: 'custom',
			customNetwork: sim.network,
			usdcAddress: sim.tokenAddress,
			maxPricePerRequest: 0.01,
			payTo: '',
			...overrides,
		},
	};
}

/** Requests the gateway received since `from` (an index into the log). */
export function requestsSince(sim: GatewaySimulator, from: number) {
	return sim.server.log.entries.slice(from);
}

export function signedRequests(sim: GatewaySimulator, from: number) {
	return requestsSince(sim, from).filter((entry) => typeof entry.headers['payment-signature'] === 'string');
}

/** Balances of the payer and the payee, to compare before and after a run. */
export async function balances(sim: GatewaySimulator, payer: `0x${string}`, payee: `0x${string}` = sim.payTo) {
	return { payer: await sim.balanceOf(payer), payee: await sim.balanceOf(payee) };
}

/** Every way a private key could be written: with and without 0x, any case. */
export function keySpellings(privateKey: string): string[] {
	const bare = privateKey.replace(/^0x/i, '');
	return [bare.toLowerCase(), bare.toUpperCase()];
}

/** Whether `text` contains the key in any spelling (case-insensitive search for the 64 hex digits). */
export function containsKey(text: string, privateKey: string): boolean {
	const lower = text.toLowerCase();
	return keySpellings(privateKey).some((spelling) => lower.includes(spelling.toLowerCase()));
}

/**
 * Captures everything written to stdout, stderr and the console while a test file runs, so the suite can prove
 * no log line carries a private key. `stop()` restores the originals and returns the text.
 */
export function captureOutput(): { stop: () => string; text: () => string } {
	const chunks: string[] = [];
	const record = (args: unknown[]) => chunks.push(args.map((a) => (typeof a === 'string' ? a : allText(a))).join(' '));
	const stdoutWrite = process.stdout.write.bind(process.stdout);
	const stderrWrite = process.stderr.write.bind(process.stderr);
	process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
		chunks.push(String(chunk));
		return (stdoutWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
	}) as typeof process.stdout.write;
	process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
		chunks.push(String(chunk));
		return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
	}) as typeof process.stderr.write;
	const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
	const originals = methods.map((m) => console[m]);
	for (const m of methods) {
		const original = console[m];
		console[m] = (...args: unknown[]) => {
			record(args);
			original.apply(console, args);
		};
	}
	return {
		text: () => chunks.join('\n'),
		stop: () => {
			process.stdout.write = stdoutWrite;
			process.stderr.write = stderrWrite;
			methods.forEach((m, i) => (console[m] = originals[i]));
			return chunks.join('\n');
		},
	};
}

/** Everything a run produced that a user or a log could see: items, binary metadata, error with its context. */
export function runText(result: RunResult): string {
	return allText({ items: result.items, error: result.error, run: result.run.data.resultData });
}

/** Output items' JSON, in order. */
export function jsonOf(items: INodeExecutionData[]) {
	return items.map((item) => item.json);
}

/**
 * One gateway simulator (its chain and test wallets) for a test file, with stdout, stderr and the console captured
 * so the file can prove no log line carries a key. Started before the file's tests, closed after them.
 */
export function useGateway(options: { testWalletCount: number }): { sim: GatewaySimulator; output: () => string } {
	const context = { output: () => '' } as { sim: GatewaySimulator; output: () => string };
	let capture: ReturnType<typeof captureOutput> | undefined;
	beforeAll(async () => {
		capture = captureOutput();
		context.output = capture.text;
		context.sim = await GatewaySimulator.start(options);
	});
	afterAll(async () => {
		capture?.stop();
		await context.sim?.close();
	});
	return context;
}

/**
 * useGateway, and every run's text kept (`seen`), so the file can prove no output, error, request or log line carries
 * a key. `run` runs the node with test wallet `w`.
 */
export function useRecordedGateway(options: { testWalletCount: number }) {
	const gw = useGateway(options);
	const seen: string[] = [];
	async function run(w: number, runOptions: Omit<RunOptions, 'nodeType' | 'credentials'>, credentialOverrides: IDataObject = {}): Promise<RunResult> {
		const result = await runNode({
			nodeType: 'scraperGateway',
			credentials: walletCredential(gw.sim, gw.sim.testWallets[w], credentialOverrides as never),
			...runOptions,
		});
		seen.push(runText(result));
		return result;
	}
	return { gw, seen, run };
}

/** What one run left at the gateway and on the chain: requests, signed requests, settlements, refusals, USDC spent. */
export interface RunTrace {
	result: RunResult;
	requests: number;
	signatures: number;
	settlements: number;
	rejections: number;
	/** USDC the payer lost and the payee gained during the run, atomic units. */
	spent: bigint;
	received: bigint;
}

/** Runs the Gateway with the first test wallet and counts what reached the gateway and the chain meanwhile. */
export async function runTraced(
	sim: GatewaySimulator,
	parameters: INodeParameters,
	credentialOverrides: ICredentialDataDecryptedObject = {},
): Promise<RunTrace> {
	const wallet = sim.testWallets[0];
	const before = await balances(sim, wallet.address);
	const logStart = sim.server.log.entries.length;
	const settlementsStart = sim.settlements.length;
	const rejectionsStart = sim.rejections.length;
	const result = await runNode({ nodeType: 'scraperGateway', credentials: walletCredential(sim, wallet, credentialOverrides), parameters });
	const after = await balances(sim, wallet.address);
	return {
		result,
		requests: requestsSince(sim, logStart).length,
		signatures: signedRequests(sim, logStart).length,
		settlements: sim.settlements.length - settlementsStart,
		rejections: sim.rejections.length - rejectionsStart,
		spent: before.payer - after.payer,
		received: after.payee - before.payee,
	};
}

/** A run that was refused before anything left: no request, no signature, no settlement, no refusal, no USDC moved. */
export function expectNothingLeft(trace: RunTrace): NonNullable<RunResult['error']> {
	expect(trace.result.error).toBeDefined();
	const { requests, signatures, settlements, rejections, spent, received } = trace;
	expect({ requests, signatures, settlements, rejections, spent, received }).toEqual({ requests: 0, signatures: 0, settlements: 0, rejections: 0, spent: 0n, received: 0n });
	return withoutItemMark(trace.result.error as NonNullable<RunResult['error']>);
}

/**
 * The simulated gateway on anvil for a test file: started once, its faults, after-settle fault and payment-identifier
 * mode reset after each test, closed at the end. `gateway.sim` is set once the file's tests run.
 */
export function useGatewaySimulator(options: GatewaySimulatorOptions): { sim: GatewaySimulator } {
	const gateway = {} as { sim: GatewaySimulator };
	beforeAll(async () => {
		gateway.sim = await GatewaySimulator.start(options);
	});
	afterEach(() => {
		gateway.sim.setAfterSettleFault(undefined);
		gateway.sim.server.faults.clear();
		gateway.sim.options.paymentIdentifier = 'optional';
	});
	afterAll(async () => {
		await gateway.sim?.close();
	});
	return gateway;
}
