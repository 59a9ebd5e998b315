// The unpaid price request (the first request of a run, answered 402 with the price) is retried like any request
// that spends nothing; the paid request never is. Through n8n's engine against the gateway simulator, paying for
// real on the local anvil chain: balances are read on chain, every request the gateway received is in its log.
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { sleep } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { allText, runNode } from '../../harness';
import type { RunResult } from '../../harness';
import type { LoggedRequest } from '../../simulator/core/log';
import { GatewaySimulator } from '../../simulator/gateway';
import { balances, captureOutput, containsKey, FETCH_ROUTE, jsonOf, PRICE, requestsSince, runText, walletCredential } from '../support';

let sim: GatewaySimulator;
let capture: ReturnType<typeof captureOutput>;
const seen: string[] = [];
const OTHER = '0x1111111111111111111111111111111111111111' as const;
/** When each request reached the gateway (real time), and a test's own look at it before faults apply. */
const arrivals = new WeakMap<LoggedRequest, number>();
let onRequest: ((entry: LoggedRequest, index: number) => void) | undefined;
let requestsThisTest = 0;

beforeAll(async () => {
	capture = captureOutput();
	sim = await GatewaySimulator.start({ testWalletCount: 2 });
	sim.server.beforeHandle = (entry) => {
		arrivals.set(entry, Date.now());
		onRequest?.(entry, requestsThisTest++);
	};
});

beforeEach(() => {
	requestsThisTest = 0;
});

afterEach(() => {
	onRequest = undefined;
	sim.server.afterHandle = undefined;
	sim.server.faults.clear();
	sim.setRequirementOverride(undefined);
	sim.setBeforeSettleHook(undefined);
});

afterAll(async () => {
	capture?.stop();
	await sim?.close();
});

const signedHeader = (entry: LoggedRequest) => entry.headers['payment-signature'];
const isPaid = (entry: LoggedRequest) => typeof signedHeader(entry) === 'string';

interface Traced {
	result: RunResult;
	/** Every request of the run as the gateway saw it: its status ('reset' when dropped) and whether it carried a payment. */
	exchanges: Array<[number | 'reset', 'unpaid' | 'paid']>;
	log: LoggedRequest[];
	settlements: typeof sim.settlements;
	/** USDC the payer lost and the gateway's payee gained during the run, read on chain. */
	spent: bigint;
	received: bigint;
	ms: number;
}

interface FetchArgs {
	urls?: string[];
	wallet?: number;
	options?: IDataObject;
	credential?: IDataObject;
	cancelAfterMs?: number;
	/** Extra real time to wait after the run before counting, for runs that are stopped while the node still works. */
	settleMs?: number;
}

/** Page > Fetch of `urls` with one of the test wallets; what reached the gateway and the chain meanwhile. */
async function fetchTraced({ urls = ['https://example.com/price-retry'], wallet = 0, options = {}, credential = {}, cancelAfterMs, settleMs = 0 }: FetchArgs = {}): Promise<Traced> {
	const payer = sim.testWallets[wallet];
	const before = await balances(sim, payer.address);
	const logStart = sim.server.log.entries.length;
	const settlementsStart = sim.settlements.length;
	const started = Date.now();
	const result = await runNode({
		nodeType: 'scraperGateway',
		credentials: walletCredential(sim, payer, credential as never),
		parameters: { resource: 'page', operation: 'fetch', url: '={{ $json.url }}', options: options as INodeParameters },
		input: urls.map((url) => ({ url })),
		cancelAfterMs,
	});
	const ms = Date.now() - started;
	await sleep(settleMs);
	seen.push(runText(result));
	const after = await balances(sim, payer.address);
	const log = requestsSince(sim, logStart);
	return {
		result,
		exchanges: log.map((entry) => [entry.status ?? 'reset', isPaid(entry) ? 'paid' : 'unpaid']),
		log,
		settlements: sim.settlements.slice(settlementsStart),
		spent: before.payer - after.payer,
		received: after.payee - before.payee,
		ms,
	};
}

/** The run paid exactly once, for the item's page: one settlement, 0.01 USDC from the payer to the payee on chain. */
function expectOnePayment(trace: Traced): void {
	expect(trace.result.error).toBeUndefined();
	expect(trace.log.filter(isPaid)).toHaveLength(1);
	expect(trace.settlements).toHaveLength(1);
	expect({ spent: trace.spent, received: trace.received }).toEqual({ spent: PRICE, received: PRICE });
	expect(jsonOf(trace.result.items)[0].payment).toMatchObject({ transaction: trace.settlements[0].transaction, amount: '0.01' });
}

/** Nothing was signed or paid: no request carried a payment, nothing settled, no USDC moved. */
function expectNothingPaid(trace: Traced): void {
	expect(trace.log.filter(isPaid)).toHaveLength(0);
	expect(trace.settlements).toHaveLength(0);
	expect({ spent: trace.spent, received: trace.received }).toEqual({ spent: 0n, received: 0n });
}

describe('the unpaid price request is retried; the item succeeds with exactly one payment', () => {
	test('503 twice, then the 402: asked again with backoff, then paid once', async () => {
		sim.server.faults.add({ kind: 'status', status: 503, routes: [FETCH_ROUTE], times: 2 });
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			[503, 'unpaid'],
			[503, 'unpaid'],
			[402, 'unpaid'],
			[200, 'paid'],
		]);
		expectOnePayment(trace);
		// Backoff with jitter (DEFAULT_RETRY_POLICY): at least half of 1 s, then half of 2 s, between the attempts.
		const [first, second, third] = trace.log.map((entry) => arrivals.get(entry) as number);
		expect(second - first).toBeGreaterThanOrEqual(490);
		expect(third - second).toBeGreaterThanOrEqual(990);
	});

	test('429 with Retry-After: 2: waits as asked, then paid once', async () => {
		sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 2, routes: [FETCH_ROUTE], times: 1 });
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			[429, 'unpaid'],
			[402, 'unpaid'],
			[200, 'paid'],
		]);
		expectOnePayment(trace);
		// The backoff alone would wait at most 1 s: the 2 s are the gateway's.
		const [first, second] = trace.log.map((entry) => arrivals.get(entry) as number);
		expect(second - first).toBeGreaterThanOrEqual(1_990);
	});

	test('a connection reset on the price request: asked again, then paid once', async () => {
		sim.server.faults.add({ kind: 'reset', routes: [FETCH_ROUTE], times: 1 });
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			['reset', 'unpaid'],
			[402, 'unpaid'],
			[200, 'paid'],
		]);
		expectOnePayment(trace);
	});

	test('a price request past the Response Deadline: asked again, then paid once', async () => {
		// The first request is answered after 1.5 s; the node stops waiting at 1 s.
		sim.server.faults.add({ kind: 'slow', delayMs: 1_500, routes: [FETCH_ROUTE], times: 1 });
		const trace = await fetchTraced({ options: { deadline: 1 } });
		expect(trace.exchanges.map(([, paid]) => paid)).toEqual(['unpaid', 'unpaid', 'paid']);
		expect(trace.exchanges.slice(1)).toEqual([
			[402, 'unpaid'],
			[200, 'paid'],
		]);
		expectOnePayment(trace);
	});

	test('Parallel Requests: the items wait for the one price request in flight, retries and all, then each pays once', async () => {
		sim.server.faults.add({ kind: 'status', status: 503, routes: [FETCH_ROUTE], times: 2 });
		const urls = ['https://example.com/p1', 'https://example.com/p2', 'https://example.com/p3'];
		const trace = await fetchTraced({ urls, options: { parallelRequests: 3 } });
		expect(trace.result.error).toBeUndefined();
		expect(trace.exchanges.slice(0, 3)).toEqual([
			[503, 'unpaid'],
			[503, 'unpaid'],
			[402, 'unpaid'],
		]);
		expect(trace.exchanges.slice(3)).toEqual([
			[200, 'paid'],
			[200, 'paid'],
			[200, 'paid'],
		]);
		expect(trace.settlements.map((s) => s.target).sort()).toEqual(urls);
		expect({ spent: trace.spent, received: trace.received }).toEqual({ spent: 3n * PRICE, received: 3n * PRICE });
	});
});

describe('the retries are bounded, and nothing is paid when they end', () => {
	test('a persistent 503: four attempts (three retries), a clear message, zero payments', async () => {
		sim.server.faults.add({ kind: 'status', status: 503, routes: [FETCH_ROUTE] });
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			[503, 'unpaid'],
			[503, 'unpaid'],
			[503, 'unpaid'],
			[503, 'unpaid'],
		]);
		expect(trace.result.error?.message).toBe(
			'The gateway did not give its price: 4 unpaid attempts, the last answered with status 503 (Service temporarily unavailable); nothing was signed or paid [item 0]',
		);
		expect(trace.result.error?.description).toMatch(/^The node asked again with growing pauses.* Nothing was signed, so no payment can have been taken\. .*try again later\.$/);
		// Pauses of 0.5-1, 1-2 and 2-4 s: bounded, and the run never waits more than about 7 s.
		expect(trace.ms).toBeLessThan(9_000);
		expectNothingPaid(trace);
	});

	test('a Retry-After past the two-minute budget is not waited for: one attempt, the wait named, zero payments', async () => {
		sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 300, routes: [FETCH_ROUTE] });
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([[429, 'unpaid']]);
		expect(trace.result.error?.message).toBe(
			"The gateway's rate limit held: 1 unpaid attempt at its price, the last answered with status 429 (Too many requests. Please try again later.); nothing was signed or paid [item 0]",
		);
		expect(trace.result.error?.description).toMatch(/^The gateway asked to wait 300 s more, past the 120 s the node waits for a rate limit\./);
		expect(trace.result.error?.description).toContain("lower 'Parallel Requests'");
		expectNothingPaid(trace);
	});

	test('429 with Retry-After: 0 forever: 30 retries, then the message; zero payments', async () => {
		sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 0, routes: [FETCH_ROUTE] });
		const trace = await fetchTraced();
		expect(trace.exchanges).toHaveLength(31);
		expect(new Set(trace.exchanges.map((e) => e.join(' ')))).toEqual(new Set(['429 unpaid']));
		expect(trace.result.error?.message).toMatch(/^The gateway's rate limit held: 31 unpaid attempts at its price, .*; nothing was signed or paid \[item 0\]$/);
		expectNothingPaid(trace);
	});
});

describe('a price that changes between attempts is checked; what is signed is exactly what was checked', () => {
	test('after a 503 the price rises above the credential\'s maximum: refused, nothing signed', async () => {
		sim.server.faults.add({ kind: 'status', status: 503, routes: [FETCH_ROUTE], times: 1 });
		onRequest = (_entry, index) => {
			if (index === 0) sim.setRequirementOverride({ amount: '20000' });
		};
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			[503, 'unpaid'],
			[402, 'unpaid'],
		]);
		expect(trace.result.error?.message).toMatch(/^Payment refused, nothing was signed: it asks 0\.02 USDC per request, above the credential's maximum of 0\.01 USDC/);
		expectNothingPaid(trace);
	});

	test('after a 503 a lower price to another payee (none pinned): that price, payee, network and token are signed and paid', async () => {
		sim.server.faults.add({ kind: 'status', status: 503, routes: [FETCH_ROUTE], times: 1 });
		onRequest = (_entry, index) => {
			if (index === 0) sim.setRequirementOverride({ amount: '9000', payTo: OTHER });
		};
		const otherBefore = await sim.balanceOf(OTHER);
		const trace = await fetchTraced();
		expect(trace.result.error).toBeUndefined();
		expect(trace.exchanges).toEqual([
			[503, 'unpaid'],
			[402, 'unpaid'],
			[200, 'paid'],
		]);
		const [paid] = trace.log.filter(isPaid);
		const payload = decodePaymentSignatureHeader(signedHeader(paid) as string);
		expect(payload.accepted).toEqual(sim.paymentRequirements());
		expect(payload.accepted).toMatchObject({ amount: '9000', payTo: OTHER, network: sim.network, asset: sim.tokenAddress });
		expect(trace.settlements.map((s) => [s.amount, s.payTo.toLowerCase(), s.asset.toLowerCase()])).toEqual([['9000', OTHER, sim.tokenAddress.toLowerCase()]]);
		expect(trace.spent).toBe(9_000n);
		expect(trace.received).toBe(0n);
		expect((await sim.balanceOf(OTHER)) - otherBefore).toBe(9_000n);
		expect(jsonOf(trace.result.items)[0].payment).toMatchObject({ amount: '0.009' });
	});
});

describe('without payment identifiers the paid request is never retried, and keeps its "may have been charged" wording', () => {
	beforeAll(() => {
		sim.options.paymentIdentifier = 'off';
	});

	afterAll(() => {
		sim.options.paymentIdentifier = 'optional';
	});

	const MAY_HAVE_BEEN_CHARGED =
		/^The payment may have been charged: the gateway answered with status 503 after a signed payment of 0\.01 USDC was sent \(payer (0x[0-9a-fA-F]{40}), nonce 0x[0-9a-f]{64}, amount 0\.01 USDC, network eip155:31337\) \[item 0\]$/;

	test('503 to the paid request before any settlement: one paid request, not sent again', async () => {
		onRequest = (entry) => {
			if (isPaid(entry)) sim.server.faults.add({ kind: 'status', status: 503, routes: [FETCH_ROUTE], times: 1 });
		};
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			[402, 'unpaid'],
			[503, 'paid'],
		]);
		expect(trace.result.error?.message).toMatch(MAY_HAVE_BEEN_CHARGED);
		expect(trace.result.error?.description).toMatch(/did not send it again, so this item was not paid twice/);
		// The injected 503 came before the gateway took anything: no settlement, no USDC moved.
		expect(trace.settlements).toHaveLength(0);
		expect({ spent: trace.spent, received: trace.received }).toEqual({ spent: 0n, received: 0n });
	});

	test('503 to the paid request after the gateway settled: charged once on chain, not sent again', async () => {
		sim.server.afterHandle = (entry, reply) => (isPaid(entry) ? { status: 503, json: { error: 'service_unavailable', message: 'Service temporarily unavailable' } } : reply);
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			[402, 'unpaid'],
			[503, 'paid'],
		]);
		const match = MAY_HAVE_BEEN_CHARGED.exec(trace.result.error?.message ?? '');
		expect(match?.[1]).toBe(sim.testWallets[0].address);
		expect(trace.settlements).toHaveLength(1);
		expect({ spent: trace.spent, received: trace.received }).toEqual({ spent: PRICE, received: PRICE });
	});
});

describe('with payment identifiers the paid request is sent once more, never a third time', () => {
	test('503 to the paid request and to its resend after the gateway settled: the same payment twice, charged once on chain', async () => {
		sim.server.afterHandle = (entry, reply) => (isPaid(entry) ? { status: 503, json: { error: 'service_unavailable', message: 'Service temporarily unavailable' } } : reply);
		const trace = await fetchTraced();
		expect(trace.exchanges).toEqual([
			[402, 'unpaid'],
			[503, 'paid'],
			[503, 'paid'],
		]);
		const paid = trace.log.filter(isPaid);
		expect(signedHeader(paid[1])).toBe(signedHeader(paid[0]));
		expect(trace.result.error?.message).toMatch(
			/^The payment may have been charged: the gateway answered with status 503, and the gateway answered with status 503 when resent once with the same payment identifier after a signed payment of 0\.01 USDC was sent \(.*, payment identifier n8n_[0-9a-f]{64}\) \[item 0\]$/,
		);
		expect(trace.settlements).toHaveLength(1);
		expect({ spent: trace.spent, received: trace.received }).toEqual({ spent: PRICE, received: PRICE });
	});
});

describe('a stopped execution stops the retries', () => {
	test('stopped during a Retry-After wait: nothing more is sent', async () => {
		sim.server.faults.add({ kind: 'status', status: 429, retryAfterSeconds: 5, routes: [FETCH_ROUTE] });
		// Stopped 0.7 s into the 5 s wait; counted 1.5 s later, well before the wait would have ended anyway.
		const trace = await fetchTraced({ wallet: 1, cancelAfterMs: 700, settleMs: 1_500 });
		expect(trace.result.run.status).toBe('canceled');
		expect(trace.exchanges).toEqual([[429, 'unpaid']]);
		expectNothingPaid(trace);
	});

	test('stopped while the price request is out: its 402 arrives afterwards and is not paid', async () => {
		sim.server.faults.add({ kind: 'slow', delayMs: 1_500, routes: [FETCH_ROUTE], times: 1 });
		const trace = await fetchTraced({ wallet: 1, cancelAfterMs: 500, settleMs: 2_500 });
		expect(trace.result.run.status).toBe('canceled');
		expect(trace.exchanges).toEqual([[402, 'unpaid']]);
		expectNothingPaid(trace);
	});
});

test('the private keys never appear in any output, error, request or log line of this file', () => {
	const everything = [...seen, capture.text(), allText(sim.server.log.entries)].join('\n');
	expect(seen.length).toBeGreaterThan(10);
	for (const key of sim.testWallets.map((w) => w.privateKey)) expect(containsKey(everything, key)).toBe(false);
});
