import { sleep } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { allText, runNode } from '../../harness';
import type { RunResult } from '../../harness';
import { GatewaySimulator } from '../../simulator/gateway';
import type { RequirementOverride } from '../../simulator/gateway';
import { balances, captureOutput, containsKey, FETCH_ROUTE, jsonOf, PRICE, requestsSince, runText, signedRequests, walletCredential } from '../support';

let sim: GatewaySimulator;
let capture: ReturnType<typeof captureOutput>;
const seen: string[] = [];
const unfundedKey = generatePrivateKey();
const OTHER = '0x1111111111111111111111111111111111111111' as const;

beforeAll(async () => {
	capture = captureOutput();
	// The rules for a gateway without payment identifiers (resend.test.ts has those with them).
	sim = await GatewaySimulator.start({ testWalletCount: 2, paymentIdentifier: 'off' });
});

afterEach(() => {
	sim.setRequirementOverride(undefined);
	sim.setBeforeSettleHook(undefined);
	sim.server.faults.clear();
	sim.options.upstreamDelayMs = 0;
});

afterAll(async () => {
	capture?.stop();
	await sim?.close();
});

interface RunArgs {
	urls: string[];
	parameters?: INodeParameters;
	credential?: IDataObject;
	continueOnFail?: boolean;
	privateKey?: string;
}

async function fetchPages({ urls, parameters = {}, credential = {}, continueOnFail, privateKey }: RunArgs): Promise<RunResult> {
	const result = await runNode({
		nodeType: 'scraperGateway',
		credentials: walletCredential(sim, { privateKey: privateKey ?? sim.testWallets[0].privateKey }, credential as never),
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', ...parameters },
		input: urls.map((url) => ({ url })),
		continueOnFail,
	});
	seen.push(runText(result));
	return result;
}

/** Snapshot of everything that shows whether money moved or a signature went out. */
async function snapshot(payer: `0x${string}` = sim.testWallets[0].address) {
	return {
		log: sim.server.log.entries.length,
		settlements: sim.settlements.length,
		rejections: sim.rejections.length,
		...(await balances(sim, payer)),
		other: await sim.balanceOf(OTHER),
	};
}

describe('payment policy: anything the credential does not allow is refused before signing', () => {
	const cases: Array<[string, () => RequirementOverride, IDataObject, RegExp]> = [
		['price 0.02 USDC', () => ({ amount: '20000' }), {}, /it asks 0\.02 USDC per request, above the credential's maximum of 0\.01 USDC/],
		['another network', () => ({ network: 'eip155:8453' }), {}, /it asks for payment on network eip155:8453, but the credential pays on eip155:31337/],
		['another token', () => ({ asset: OTHER }), {}, /it asks for token 0x1111111111111111111111111111111111111111, but the credential pays in 0x/],
		['another payee when the payee is pinned', () => ({ payTo: OTHER }), { payTo: 'PINNED' }, /it pays 0x1111111111111111111111111111111111111111, but the credential pins the payee 0x/],
		['a validity of one day', () => ({ maxTimeoutSeconds: 86_400 }), {}, /its validity of 86400 seconds is outside 1 to 3600 seconds/],
		['no EIP-712 name/version', () => ({ extra: undefined }), {}, /it lacks the token's EIP-712 name and version/],
		['another scheme', () => ({ scheme: 'upto' }), {}, /it uses the "upto" payment scheme; only "exact" is supported/],
		['a Permit2 transfer', () => ({ extra: { name: 'USD Coin', version: '2', assetTransferMethod: 'permit2' } }), {}, /it asks for a "permit2" transfer/],
	];
	test.each(cases)('%s: refused, nothing signed, balances unchanged', async (_label, override, credential, message) => {
		sim.setRequirementOverride(override());
		const pinned = credential.payTo === 'PINNED' ? { payTo: sim.payTo } : credential;
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/policy'], credential: pinned });
		expect(result.error?.message).toMatch(/^Payment refused, nothing was signed: /);
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/x402 Wallet/);
		// Only the unpaid request that learned the price reached the gateway; no signature ever did.
		expect(requestsSince(sim, before.log).map((r) => [r.route, r.status])).toEqual([[FETCH_ROUTE, 402]]);
		expect(signedRequests(sim, before.log)).toHaveLength(0);
		expect(sim.rejections.slice(before.rejections).map((r) => r.stage)).toEqual(['missing']);
		expect(await snapshot()).toEqual({ ...before, log: before.log + 1, rejections: before.rejections + 1 });
	});

	test('the same other payee is paid when no payee is pinned (the pin is what refuses it)', async () => {
		sim.setRequirementOverride({ payTo: OTHER });
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/unpinned'] });
		expect(result.error).toBeUndefined();
		const after = await snapshot();
		expect(after.other - before.other).toBe(PRICE);
		expect(before.payer - after.payer).toBe(PRICE);
		expect(after.payee).toBe(before.payee);
	});

	test('a price up to the credential\'s own maximum is paid exactly', async () => {
		sim.setRequirementOverride({ amount: '20000' });
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/dearer'], credential: { maxPricePerRequest: 0.02 } });
		expect(result.error).toBeUndefined();
		expect((result.items[0].json.payment as IDataObject).amount).toBe('0.02');
		const after = await snapshot();
		expect(before.payer - after.payer).toBe(20_000n);
		expect(after.payee - before.payee).toBe(20_000n);
	});
});

describe('a changed requirement is refreshed once, from the 402 that answered the pre-signed call', () => {
	test('new price within the cap: one extra request for that item, then one per item again', async () => {
		let changed = false;
		sim.setBeforeSettleHook(() => {
			if (!changed) sim.setRequirementOverride({ amount: '9000' });
			changed = true;
		});
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/r1', 'https://example.com/r2', 'https://example.com/r3'] });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result.items).map((j) => (j.payment as IDataObject).amount)).toEqual(['0.01', '0.009', '0.009']);
		expect(requestsSince(sim, before.log).map((r) => [r.status, typeof r.headers['payment-signature'] === 'string'])).toEqual([
			[402, false],
			[200, true],
			[402, true], // signed from the old requirement: the gateway refuses it without charging
			[200, true],
			[200, true],
		]);
		expect(sim.rejections.slice(before.rejections).map((r) => r.stage)).toEqual(['missing', 'match']);
		const after = await snapshot();
		expect(before.payer - after.payer).toBe(10_000n + 9_000n + 9_000n);
		expect(sim.settlements.length - before.settlements).toBe(3);
	});

	test('new price above the cap: the refreshed requirement is refused, nothing more is signed', async () => {
		let changed = false;
		sim.setBeforeSettleHook(() => {
			if (!changed) sim.setRequirementOverride({ amount: '20000' });
			changed = true;
		});
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/s1', 'https://example.com/s2'] });
		expect(result.error?.message).toMatch(/^Payment refused, nothing was signed: it asks 0\.02 USDC per request/);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(signedRequests(sim, before.log)).toHaveLength(2);
		const after = await snapshot();
		expect(before.payer - after.payer).toBe(PRICE);
		expect(sim.settlements.length - before.settlements).toBe(1);
	});

	test('a payment refused again after the refresh is not retried a third time (unfunded wallet)', async () => {
		const payer = privateKeyToAccount(unfundedKey).address;
		const before = await snapshot(payer);
		const result = await fetchPages({ urls: ['https://example.com/broke'], privateKey: unfundedKey });
		expect(result.error?.message).toMatch(/^The gateway did not accept the payment \(402: .*insufficient.*\); nothing was charged/i);
		expect(result.error?.description).toContain(payer);
		expect(requestsSince(sim, before.log).map((r) => [r.status, typeof r.headers['payment-signature'] === 'string'])).toEqual([
			[402, false],
			[402, true],
			[402, true],
		]);
		expect(sim.rejections.slice(before.rejections).map((r) => r.stage)).toEqual(['missing', 'verify', 'verify']);
		expect(await snapshot(payer)).toMatchObject({ settlements: before.settlements, payer: 0n, payee: before.payee });
	});
});

describe('after a signed payment is sent, nothing is ever sent again for that item', () => {
	test('upstream failure after settlement: charged error with the transaction, exactly one settlement, no second request', async () => {
		const wallet = sim.testWallets[0];
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/sim-fail'] });
		const settlements = sim.settlements.slice(before.settlements);
		expect(settlements).toHaveLength(1);
		const [settlement] = settlements;
		expect(settlement.upstreamOk).toBe(false);
		expect(result.error?.message).toBe(
			`The gateway charged 0.01 USDC (transaction ${settlement.transaction}, payer ${wallet.address}) but fetching https://example.com/sim-fail upstream failed: ${'Upstream request failed: target answered HTTP 502 Bad Gateway (after 3 attempts)'} [item 0]`,
		);
		expect(result.error?.description).toMatch(/does not refund it/);
		expect(await sim.txExists(settlement.transaction)).toBe(true);
		expect(requestsSince(sim, before.log)).toHaveLength(2);
		const after = await snapshot();
		expect(before.payer - after.payer).toBe(PRICE);
		expect(after.payee - before.payee).toBe(PRICE);
	});

	test('Search: Web upstream failure with Continue On Fail: an error item that says it was charged', async () => {
		const before = await snapshot();
		const result = await runNode({
			nodeType: 'scraperGateway',
			credentials: walletCredential(sim, sim.testWallets[0]),
			parameters: { resource: 'search', operation: 'web', query: 'sim-fail engine' },
			continueOnFail: true,
		});
		seen.push(runText(result));
		const [settlement] = sim.settlements.slice(before.settlements);
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({
					error: `The gateway charged 0.01 USDC (transaction ${settlement.transaction}, payer ${sim.testWallets[0].address}) but the search for "sim-fail engine" upstream failed: Upstream search failed: engine answered HTTP 503 (simulated) [item 0]`,
				}),
				pairedItem: { item: 0 },
			},
		]);
		expect(requestsSince(sim, before.log)).toHaveLength(2);
	});

	test('client deadline while the gateway works: "may have been charged" with payer, nonce and amount; no second payment', async () => {
		const wallet = sim.testWallets[1];
		const before = await snapshot(wallet.address);
		const started = Date.now();
		const result = await fetchPages({
			urls: ['https://example.com/report-sim-slow-2500'],
			parameters: { options: { deadline: 1 } },
			privateKey: wallet.privateKey,
		});
		expect(Date.now() - started).toBeLessThan(2500);
		const message = result.error?.message ?? '';
		const match = /^The payment may have been charged: no complete answer within the 1 s deadline after a signed payment of 0\.01 USDC was sent \(payer (0x[0-9a-fA-F]{40}), nonce (0x[0-9a-f]{64}), amount 0\.01 USDC, network eip155:31337\) \[item 0\]$/.exec(message);
		expect(match).not.toBeNull();
		const [, payer, nonce] = match!;
		expect(payer).toBe(wallet.address);
		expect(result.error?.description).toContain(`authorization nonce ${nonce}`);
		expect(result.error?.description).toMatch(/did not send it again, so this item was not paid twice/);

		// The gateway settled while the node had stopped waiting: one payment, for exactly that nonce.
		for (let i = 0; i < 40 && sim.settlements.length === before.settlements; i++) await sleep(100);
		await sleep(2_000); // let the gateway finish its (slow) answer
		const settlements = sim.settlements.slice(before.settlements);
		expect(settlements.map((s) => [s.payer, s.nonce, s.amount])).toEqual([[wallet.address, nonce, '10000']]);
		expect(await sim.authorizationUsed(wallet.address, nonce as `0x${string}`)).toBe(true);
		expect(requestsSince(sim, before.log)).toHaveLength(2);
		expect(before.payer - (await sim.balanceOf(wallet.address))).toBe(PRICE);
	});

	test('connection reset after a signed payment: "may have been charged", not retried', async () => {
		// Item 0 pays normally; while it settles, arm a reset for the next request (item 1's paid call).
		sim.setBeforeSettleHook(() => {
			sim.setBeforeSettleHook(undefined);
			sim.server.faults.add({ kind: 'reset', routes: [FETCH_ROUTE], times: 1 });
		});
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/c1', 'https://example.com/c2', 'https://example.com/c3'], continueOnFail: true });
		const json = jsonOf(result.items);
		expect(json[0].payment).toBeDefined();
		expect(json[1].error).toMatch(/^The payment may have been charged: (connection reset by the gateway|connection closed by the gateway|other side closed).* \(payer 0x[0-9a-fA-F]{40}, nonce 0x[0-9a-f]{64}, amount 0\.01 USDC, network eip155:31337\) \[item 1\]$/);
		expect(json[2].payment).toBeDefined();
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		// 1 unpaid + 3 signed: the reset call was not sent again.
		expect(requestsSince(sim, before.log)).toHaveLength(4);
		expect(sim.settlements.length - before.settlements).toBe(2);
		expect(before.payer - (await sim.balanceOf(sim.testWallets[0].address))).toBe(2n * PRICE);
	});

	test('a 500 answer to a signed payment without a receipt: "may have been charged", not retried', async () => {
		sim.setBeforeSettleHook(() => {
			sim.setBeforeSettleHook(undefined);
			sim.server.faults.add({ kind: 'status', status: 500, routes: [FETCH_ROUTE], times: 1 });
		});
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/e1', 'https://example.com/e2'] });
		expect(result.error?.message).toMatch(/^The payment may have been charged: the gateway answered with status 500 after a signed payment/);
		expect(result.error?.context?.itemIndex).toBe(1);
		expect(requestsSince(sim, before.log)).toHaveLength(3);
		expect(sim.settlements.length - before.settlements).toBe(1);
	});

	test('an unreachable gateway before any payment: nothing was paid (the unpaid price request was tried 4 times)', async () => {
		const before = await snapshot();
		const result = await fetchPages({ urls: ['https://example.com/x'], credential: { baseUrl: 'http://127.0.0.1:1' } });
		expect(result.error?.message).toMatch(/^Could not reach the gateway: connection refused \(ECONNREFUSED\) on 4 attempts; nothing was paid \[item 0\]$/);
		expect(await snapshot()).toEqual(before);
	});
});

test('Continue On Fail: every item gets its output or its error, in order and paired', async () => {
	const before = await snapshot();
	const urls = ['https://example.com/ok-1', 'http://localhost/admin', 'https://example.com/sim-fail-2', 'https://example.com/ok-3'];
	const result = await fetchPages({ urls, continueOnFail: true });
	expect(result.error).toBeUndefined();
	expect(result.items.map((i) => i.pairedItem)).toEqual(urls.map((_, item) => ({ item })));
	const json = jsonOf(result.items);
	const settlements = sim.settlements.slice(before.settlements);
	expect(settlements.map((s) => s.target)).toEqual([urls[0], urls[2], urls[3]]);
	expect(json[0]).toMatchObject({ url: urls[0], payment: { transaction: settlements[0].transaction } });
	expect(json[1].error).toMatch(/^Invalid 'URL': "http:\/\/localhost\/admin": it must point to a public host/);
	expect(json[2].error).toContain(`charged 0.01 USDC (transaction ${settlements[1].transaction}`);
	expect(json[3]).toMatchObject({ url: urls[3], payment: { transaction: settlements[2].transaction } });
	// Item 1 never reached the gateway: 1 unpaid + 3 paid requests.
	expect(requestsSince(sim, before.log)).toHaveLength(4);
	expect(before.payer - (await sim.balanceOf(sim.testWallets[0].address))).toBe(3n * PRICE);
});

describe('secrets', () => {
	test('the private keys never appear in any output, error, request or log line of this file', () => {
		const everything = [...seen, capture.text(), allText(sim.server.log.entries)].join('\n');
		expect(seen.length).toBeGreaterThan(15);
		for (const key of [...sim.testWallets.map((w) => w.privateKey), unfundedKey]) expect(containsKey(everything, key)).toBe(false);
	});
});
