import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { PAYMENT_IDENTIFIER, declarePaymentIdentifierExtension } from '@x402/extensions/payment-identifier';
import { sleep } from 'n8n-workflow';
import { generatePrivateKey } from 'viem/accounts';

import { signPayment } from '../../simulator/gateway/client';
import { GatewaySimulator, PRICE_ATOMIC, type DevWallet, type SettlementRecord } from '../../simulator/gateway';

/**
 * The x402 `payment-identifier` extension on the gateway simulator: advertised in the 402, a settled identifier's
 * answer replayed from the cache (per payer, for the validity window), never settled twice, 400 for a malformed or a
 * missing-but-required identifier. Real HTTP, real anvil; every charge is read back from the chain.
 */
let sim: GatewaySimulator;

beforeAll(async () => {
	sim = await GatewaySimulator.start({ testWalletCount: 6 });
}, 60_000);

afterAll(async () => {
	await sim?.close();
});

beforeEach(() => sim.reset());

type Service = 'scraperAPI' | 'webSearch';

async function post(body: unknown, headers: Record<string, string> = {}, service: Service = 'scraperAPI') {
	const response = await fetch(`${sim.url}/api/service/${service}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = text;
	}
	return { status: response.status, headers: response.headers, json: json as Record<string, unknown> };
}

function paid(header: string): Record<string, string> {
	return { 'PAYMENT-SIGNATURE': header };
}

function nonceOf(payload: PaymentPayload): `0x${string}` {
	return (payload.payload as { authorization: { nonce: `0x${string}` } }).authorization.nonce;
}

function transactionOf(response: { headers: Headers }): `0x${string}` {
	const header = response.headers.get('payment-response');
	if (!header) throw new Error('no PAYMENT-RESPONSE header');
	return decodePaymentResponseHeader(header).transaction as `0x${string}`;
}

/** The payload with its `payment-identifier` entry replaced (extensions are not signed), re-encoded. */
function withIdentifierEntry(payload: PaymentPayload, entry: unknown): string {
	return encodePaymentSignatureHeader({ ...payload, extensions: { ...payload.extensions, [PAYMENT_IDENTIFIER]: entry } });
}

/** The payload without `extensions` (the same signed authorization). */
function withoutExtensions(payload: PaymentPayload): PaymentPayload {
	const bare = { ...payload };
	delete bare.extensions;
	return bare;
}

/** A PAYMENT-REQUIRED that declares the extension, whatever the gateway advertises now. */
function declaring(service: Service = 'scraperAPI'): PaymentRequired {
	return { ...sim.paymentRequired(service), extensions: { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) } };
}

async function balances(wallet: DevWallet) {
	return { payer: await sim.balanceOf(wallet.address), payee: await sim.balanceOf(sim.payTo) };
}

async function expectChargedOnce(wallet: DevWallet, before: { payer: bigint; payee: bigint }) {
	expect(await sim.balanceOf(wallet.address)).toBe(before.payer - PRICE_ATOMIC);
	expect(await sim.balanceOf(sim.payTo)).toBe(before.payee + PRICE_ATOMIC);
}

describe('the 402 advertises the extension', () => {
	async function advertised(service: Service = 'scraperAPI') {
		const response = await post(service === 'scraperAPI' ? { url: 'https://example.com/' } : { query: 'espresso' }, {}, service);
		expect(response.status).toBe(402);
		const header = decodePaymentRequiredHeader(response.headers.get('payment-required') as string);
		expect(response.json).toEqual(header);
		return header;
	}

	test('optional by default: extensions["payment-identifier"] = declarePaymentIdentifierExtension(false), both routes', async () => {
		const expected = { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) };
		expect((await advertised('scraperAPI')).extensions).toEqual(expected);
		expect((await advertised('webSearch')).extensions).toEqual(expected);
		expect(sim.paymentRequired('webSearch').extensions).toEqual(expected);
	});

	test('required: info.required true; reset() restores optional', async () => {
		sim.options.paymentIdentifier = 'required';
		expect((await advertised()).extensions).toEqual({ [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(true) });
		sim.reset();
		expect(sim.options.paymentIdentifier).toBe('optional');
		expect((await advertised()).extensions).toEqual({ [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) });
	});

	test('off: no extensions key at all, in the header and the body', async () => {
		sim.options.paymentIdentifier = 'off';
		const header = await advertised();
		expect(header).not.toHaveProperty('extensions');
		expect(sim.paymentRequired('scraperAPI')).not.toHaveProperty('extensions');
	});

	test('the start option sets the mode', async () => {
		const other = await GatewaySimulator.start({ testWalletCount: 0, paymentIdentifier: 'off' });
		try {
			expect(other.options.paymentIdentifier).toBe('off');
			expect(other.paymentRequired('scraperAPI')).not.toHaveProperty('extensions');
		} finally {
			await other.close();
		}
	}, 60_000);
});

describe('a settled identifier is answered from the cache, never charged twice', () => {
	test('the same header again: same body and transaction, one transfer, recorded as a replay', async () => {
		const wallet = sim.testWallets[0];
		const before = await balances(wallet);
		const id = 'same_header_0000000001';
		const { payload, header } = await signPayment(sim, wallet, { paymentId: id });
		expect(payload.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: false, id } });

		const first = await post({ url: 'https://example.com/idempotent' }, paid(header));
		expect(first.status).toBe(200);
		const second = await post({ url: 'https://example.com/idempotent' }, paid(header));
		expect(second.status).toBe(200);
		expect(second.json).toEqual(first.json);
		expect(second.headers.get('payment-response')).toBe(first.headers.get('payment-response'));

		const transaction = transactionOf(first);
		expect(await sim.txExists(transaction)).toBe(true);
		expect(sim.settlements).toEqual([expect.objectContaining({ transaction, paymentId: id, payer: wallet.address })]);
		expect(sim.replays).toEqual([{ service: 'scraperAPI', paymentId: id, payer: wallet.address, nonce: nonceOf(payload), at: expect.any(Number) }]);
		expect(sim.upstreamRequests).toHaveLength(1);
		await expectChargedOnce(wallet, before);
		expect(sim.server.log.for('POST /api/service/scraperAPI').map((e) => e.status)).toEqual([200, 200]);
	});

	test('a different payload (new nonce) with the same id: 409, the identifier is bound to the payment that settled; the new nonce stays unused', async () => {
		const wallet = sim.testWallets[0];
		const before = await balances(wallet);
		const id = 'other_payload_000000002';
		const one = await signPayment(sim, wallet, { paymentId: id });
		const two = await signPayment(sim, wallet, { paymentId: id });
		expect(nonceOf(two.payload)).not.toBe(nonceOf(one.payload));

		const first = await post({ url: 'https://example.com/a' }, paid(one.header));
		expect(first.status).toBe(200);
		const second = await post({ url: 'https://example.com/a' }, paid(two.header));
		expect(second.status).toBe(409);
		expect(second.json).toMatchObject({ error: 'payment_identifier_conflict' });
		expect(second.headers.get('payment-response')).toBeNull();
		// The very same payment again is answered from the cache.
		const same = await post({ url: 'https://example.com/a' }, paid(one.header));
		expect(same.status).toBe(200);
		expect(transactionOf(same)).toBe(transactionOf(first));

		expect(await sim.authorizationUsed(wallet.address, nonceOf(one.payload))).toBe(true);
		expect(await sim.authorizationUsed(wallet.address, nonceOf(two.payload))).toBe(false);
		expect(sim.settlements).toHaveLength(1);
		expect(sim.rejections.at(-1)).toMatchObject({ stage: 'paymentId', nonce: nonceOf(two.payload) });
		expect(sim.replays).toEqual([expect.objectContaining({ paymentId: id, nonce: nonceOf(one.payload) })]);
		await expectChargedOnce(wallet, before);
	});

	test('without an id nothing is cached: the same header again is refused (nonce already used)', async () => {
		const wallet = sim.testWallets[0];
		const { header } = await signPayment(sim, wallet);
		expect((await post({ url: 'https://example.com/' }, paid(header))).status).toBe(200);
		const again = await post({ url: 'https://example.com/' }, paid(header));
		expect(again.status).toBe(402);
		expect(sim.settlements).toHaveLength(1);
		expect(sim.settlements[0]).not.toHaveProperty('paymentId');
		expect(sim.replays).toHaveLength(0);
	});

	test('two concurrent requests with the same id: one settlement, both get the answer', async () => {
		const wallet = sim.testWallets[1];
		const before = await balances(wallet);
		const id = 'concurrent_00000000003';
		const { header } = await signPayment(sim, wallet, { paymentId: id });
		sim.options.upstreamDelayMs = 300;
		const [a, b] = await Promise.all([
			post({ url: 'https://example.com/both' }, paid(header)),
			post({ url: 'https://example.com/both' }, paid(header)),
		]);
		expect([a.status, b.status]).toEqual([200, 200]);
		expect(b.json).toEqual(a.json);
		expect(transactionOf(b)).toBe(transactionOf(a));
		expect(sim.settlements).toHaveLength(1);
		expect(sim.replays).toHaveLength(1);
		await expectChargedOnce(wallet, before);
	});

	test('a repeat that waited for a first request that did not settle is handled normally', async () => {
		const wallet = sim.testWallets[1];
		const before = await balances(wallet);
		const id = 'first_fails_0000000004';
		const one = await signPayment(sim, wallet, { paymentId: id });
		const two = await signPayment(sim, wallet, { paymentId: id });
		// The first payload's authorization, without the identifier (extensions are not signed).
		const bare = withoutExtensions(one.payload);
		let repeat: ReturnType<typeof post> | undefined;
		sim.setBeforeSettleHook(async ({ nonce }) => {
			if (nonce !== nonceOf(one.payload) || repeat) return;
			// While the first request is between verify and settle: the repeat arrives (and waits for it), and the
			// first authorization is spent by a request without the identifier, so the first settlement fails.
			repeat = post({ url: 'https://example.com/repeat' }, paid(two.header));
			expect((await post({ url: 'https://example.com/front-run' }, paid(encodePaymentSignatureHeader(bare)))).status).toBe(200);
			await sleep(100);
		});
		const first = await post({ url: 'https://example.com/first' }, paid(one.header));
		expect(first.status).toBe(402);
		expect(sim.rejections.at(-1)).toMatchObject({ stage: 'settle' });
		const second = await (repeat as ReturnType<typeof post>);
		expect(second.status).toBe(200);
		expect(sim.replays).toHaveLength(0);
		expect(sim.settlements.map((s) => [s.target, s.paymentId])).toEqual([
			['https://example.com/front-run', undefined],
			['https://example.com/repeat', id],
		]);
		expect(transactionOf(second)).toBe(sim.settlements[1].transaction);
		expect(await sim.authorizationUsed(wallet.address, nonceOf(two.payload))).toBe(true);
		expect(await sim.balanceOf(wallet.address)).toBe(before.payer - 2n * PRICE_ATOMIC);
	});

	test('reset() empties the cache: the same header is then refused, not replayed', async () => {
		const wallet = sim.testWallets[1];
		const { header } = await signPayment(sim, wallet, { paymentId: 'reset_clears_00000005' });
		expect((await post({ url: 'https://example.com/' }, paid(header))).status).toBe(200);
		sim.reset();
		const again = await post({ url: 'https://example.com/' }, paid(header));
		expect(again.status).toBe(402);
		expect(sim.replays).toHaveLength(0);
	});
});

describe('unknown outcomes: a fault after settlement, then the same header again', () => {
	test("'reset' drops the connection; the resend gets the settled answer, one settlement", async () => {
		const wallet = sim.testWallets[2];
		const before = await balances(wallet);
		const id = 'after_reset_0000000006';
		const { header } = await signPayment(sim, wallet, { paymentId: id });
		const seen: Array<[string | undefined, number]> = [];
		sim.setAfterSettleFault((settled, index) => {
			seen.push([settled.paymentId, index]);
			return 'reset';
		});
		await expect(post({ url: 'https://example.com/lost' }, paid(header))).rejects.toThrow();
		expect(sim.settlements).toHaveLength(1);

		const resend = await post({ url: 'https://example.com/lost' }, paid(header));
		expect(resend.status).toBe(200);
		expect(resend.json).toMatchObject({ ok: true, service: 'fetchHtml' });
		const transaction = transactionOf(resend);
		expect(transaction).toBe(sim.settlements[0].transaction);
		expect(await sim.txExists(transaction)).toBe(true);
		expect(sim.settlements).toHaveLength(1);
		expect(sim.replays).toHaveLength(1);
		// The replay is not subject to the fault.
		expect(seen).toEqual([[id, 0]]);
		expect(sim.server.log.for('POST /api/service/scraperAPI').map((e) => e.status)).toEqual([undefined, 200]);
		await expectChargedOnce(wallet, before);
	});

	test('500 without PAYMENT-RESPONSE; the resend gets the answer with the receipt; index counts settlements', async () => {
		const wallet = sim.testWallets[2];
		const before = await balances(wallet);
		const id = 'after_500_000000000007';
		const { header } = await signPayment(sim, wallet, { paymentId: id });
		const seen: Array<[string | undefined, number]> = [];
		sim.setAfterSettleFault((settled: SettlementRecord, index) => {
			seen.push([settled.paymentId, index]);
			return index === 0 ? 500 : undefined;
		});
		const lost = await post({ url: 'https://example.com/lost' }, paid(header));
		expect(lost.status).toBe(500);
		expect(lost.json).toEqual({ error: 'internal_error', message: 'An unexpected error occurred' });
		expect(lost.headers.get('payment-response')).toBeNull();

		const resend = await post({ url: 'https://example.com/lost' }, paid(header));
		expect(resend.status).toBe(200);
		expect(transactionOf(resend)).toBe(sim.settlements[0].transaction);
		expect(decodePaymentResponseHeader(resend.headers.get('payment-response') as string)).toMatchObject({
			success: true,
			payer: wallet.address,
			amount: '10000',
		});
		expect(sim.settlements).toHaveLength(1);
		await expectChargedOnce(wallet, before);

		// The next settlement (no id) is the hook's index 1 and is answered normally; removing the hook stops it.
		const next = await signPayment(sim, wallet);
		expect((await post({ url: 'https://example.com/next' }, paid(next.header))).status).toBe(200);
		sim.setAfterSettleFault(undefined);
		const last = await signPayment(sim, wallet);
		expect((await post({ url: 'https://example.com/last' }, paid(last.header))).status).toBe(200);
		expect(seen).toEqual([
			[id, 0],
			[undefined, 1],
		]);
	});

	test('without an id the same fault leaves the payer with nothing to resend: 402 nonce already used', async () => {
		const wallet = sim.testWallets[2];
		const { header } = await signPayment(sim, wallet);
		sim.setAfterSettleFault(() => 503);
		expect((await post({ url: 'https://example.com/' }, paid(header))).status).toBe(503);
		sim.setAfterSettleFault(undefined);
		const resend = await post({ url: 'https://example.com/' }, paid(header));
		expect(resend.status).toBe(402);
		expect(decodePaymentRequiredHeader(resend.headers.get('payment-required') as string).error).toMatch(/nonce_already_used/);
	});
});

describe('the cache is per payer and per validity window', () => {
	test('another payer with the same id is charged and answered for itself', async () => {
		const [a, b] = [sim.testWallets[3], sim.testWallets[4]];
		const id = 'shared_id_000000000008';
		const beforeB = await sim.balanceOf(b.address);
		const first = await post({ url: 'https://example.com/mine' }, paid((await signPayment(sim, a, { paymentId: id })).header));
		const other = await post({ url: 'https://example.com/mine' }, paid((await signPayment(sim, b, { paymentId: id })).header));
		expect([first.status, other.status]).toEqual([200, 200]);
		expect(transactionOf(other)).not.toBe(transactionOf(first));
		expect(decodePaymentResponseHeader(other.headers.get('payment-response') as string).payer).toBe(b.address);
		expect(sim.settlements.map((s) => s.payer)).toEqual([a.address, b.address]);
		expect(sim.replays).toHaveLength(0);
		expect(await sim.balanceOf(b.address)).toBe(beforeB - PRICE_ATOMIC);
	});

	test("a payload that names the payer without the payer's signature is not served the cache", async () => {
		const victim = sim.testWallets[3];
		const id = 'victim_id_000000000009';
		expect((await post({ url: 'https://example.com/private' }, paid((await signPayment(sim, victim, { paymentId: id })).header))).status).toBe(200);
		const { payload } = await signPayment(sim, { privateKey: generatePrivateKey() }, { paymentId: id });
		const inner = payload.payload as { authorization: Record<string, string>; signature: string };
		const claimed: PaymentPayload = { ...payload, payload: { ...inner, authorization: { ...inner.authorization, from: victim.address } } };
		const response = await post({ url: 'https://example.com/private' }, paid(encodePaymentSignatureHeader(claimed)));
		expect(response.status).toBe(402);
		expect(response.json).not.toHaveProperty('data');
		expect(sim.replays).toHaveLength(0);
		expect(sim.rejections.at(-1)).toMatchObject({ stage: 'verify' });
	});

	test('kept for maxTimeoutSeconds after settlement on the simulated clock, then the id settles again', async () => {
		const wallet = sim.testWallets[5];
		const before = await balances(wallet);
		const id = 'window_id_000000000010';
		const firstHeader = (await signPayment(sim, wallet, { paymentId: id })).header;
		const first = await post({ url: 'https://example.com/w' }, paid(firstHeader));
		expect(first.status).toBe(200);

		sim.clock.advance(119_000);
		// Inside the window: the same payment is answered from the cache, another one under the id refused.
		const inside = await signPayment(sim, wallet, { paymentId: id });
		expect((await post({ url: 'https://example.com/w' }, paid(inside.header))).status).toBe(409);
		const replayed = await post({ url: 'https://example.com/w' }, paid(firstHeader));
		expect(transactionOf(replayed)).toBe(transactionOf(first));
		expect(await sim.authorizationUsed(wallet.address, nonceOf(inside.payload))).toBe(false);
		expect(sim.replays).toHaveLength(1);

		sim.clock.advance(2_000);
		const after = await signPayment(sim, wallet, { paymentId: id });
		const again = await post({ url: 'https://example.com/w' }, paid(after.header));
		expect(again.status).toBe(200);
		expect(transactionOf(again)).not.toBe(transactionOf(first));
		expect(await sim.authorizationUsed(wallet.address, nonceOf(after.payload))).toBe(true);
		expect(sim.settlements.map((s) => s.paymentId)).toEqual([id, id]);
		expect(sim.replays).toHaveLength(1);
		expect(await sim.balanceOf(wallet.address)).toBe(before.payer - 2n * PRICE_ATOMIC);

		// The new settlement starts a new window, bound to its own payment.
		const replay = await post({ url: 'https://example.com/w' }, paid(after.header));
		expect(transactionOf(replay)).toBe(transactionOf(again));
		expect(sim.replays).toHaveLength(2);
	});
});

describe('malformed or missing identifiers -> 400, nothing charged', () => {
	async function expectBadRequest(header: string, payload: PaymentPayload, rule: string, wallet: DevWallet) {
		const before = await balances(wallet);
		const response = await post({ url: 'https://example.com/' }, paid(header));
		expect(response.status).toBe(400);
		expect(response.headers.get('payment-required')).toBeNull();
		expect(response.json).toMatchObject({ error: 'invalid_request', field: 'payment-identifier', rule, message: expect.stringContaining('payment-identifier') });
		expect(await sim.balanceOf(wallet.address)).toBe(before.payer);
		expect(await sim.authorizationUsed(wallet.address, nonceOf(payload))).toBe(false);
		expect(sim.settlements).toHaveLength(0);
		expect(sim.rejections.at(-1)).toMatchObject({ stage: 'paymentId' });
	}

	test.each([
		['too short (15 characters)', 'a'.repeat(15)],
		['too long (129 characters)', 'a'.repeat(129)],
		['a character outside [a-zA-Z0-9_-]', 'pay_has spaces_and_dots.'],
		['empty', ''],
	])('id %s -> 400 rule pattern', async (_name, id) => {
		const wallet = sim.testWallets[0];
		const { payload } = await signPayment(sim, wallet);
		const entry = { ...declarePaymentIdentifierExtension(false), info: { required: false, id } };
		await expectBadRequest(withIdentifierEntry(payload, entry), payload, 'pattern', wallet);
	});

	test.each([
		['a number as id', { info: { required: false, id: 1234567890123456 } }],
		['no boolean info.required', { info: { id: 'pay_valid_id_00000011' } }],
		['not an object', 'pay_valid_id_00000011'],
	])('entry with %s -> 400 rule type', async (_name, entry) => {
		const wallet = sim.testWallets[0];
		const { payload } = await signPayment(sim, wallet);
		await expectBadRequest(withIdentifierEntry(payload, entry), payload, 'type', wallet);
	});

	test('16 and 128 characters are accepted', async () => {
		const wallet = sim.testWallets[0];
		for (const id of ['a'.repeat(16), `${'Z9_-'.repeat(32)}`]) {
			expect((await post({ url: 'https://example.com/' }, paid((await signPayment(sim, wallet, { paymentId: id })).header))).status).toBe(200);
		}
		expect(sim.settlements.map((s) => s.paymentId)).toEqual(['a'.repeat(16), 'Z9_-'.repeat(32)]);
	});

	test('required and no id (declaration echoed without id, or no extensions) -> 400 rule required; with an id -> 200', async () => {
		sim.options.paymentIdentifier = 'required';
		const wallet = sim.testWallets[0];
		const echoed = await signPayment(sim, wallet);
		expect(echoed.payload.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { required: true } });
		await expectBadRequest(echoed.header, echoed.payload, 'required', wallet);
		const bare = withoutExtensions((await signPayment(sim, wallet)).payload);
		await expectBadRequest(encodePaymentSignatureHeader(bare), bare, 'required', wallet);

		const withId = await signPayment(sim, wallet, { paymentId: 'required_ok_0000000012' });
		expect((await post({ url: 'https://example.com/' }, paid(withId.header))).status).toBe(200);
		expect(sim.settlements).toEqual([expect.objectContaining({ paymentId: 'required_ok_0000000012' })]);
	});

	test('optional and no id: charged normally', async () => {
		const wallet = sim.testWallets[0];
		const { header } = await signPayment(sim, wallet);
		expect((await post({ url: 'https://example.com/' }, paid(header))).status).toBe(200);
		expect(sim.settlements).toHaveLength(1);
		expect(sim.settlements[0]).not.toHaveProperty('paymentId');
	});
});

describe("'off': the extension is not advertised and identifiers are ignored", () => {
	test('the same id twice settles twice; the same header twice is refused the second time', async () => {
		sim.options.paymentIdentifier = 'off';
		const wallet = sim.testWallets[1];
		const before = await balances(wallet);
		const id = 'ignored_id_00000000013';
		const one = await signPayment(sim, wallet, { paymentRequired: declaring(), paymentId: id });
		const two = await signPayment(sim, wallet, { paymentRequired: declaring(), paymentId: id });
		expect(one.payload.extensions?.[PAYMENT_IDENTIFIER]).toMatchObject({ info: { id } });
		expect((await post({ url: 'https://example.com/' }, paid(one.header))).status).toBe(200);
		expect((await post({ url: 'https://example.com/' }, paid(two.header))).status).toBe(200);
		expect((await post({ url: 'https://example.com/' }, paid(one.header))).status).toBe(402);
		expect(sim.settlements.map((s) => s.paymentId)).toEqual([undefined, undefined]);
		expect(sim.replays).toHaveLength(0);
		expect(await sim.balanceOf(wallet.address)).toBe(before.payer - 2n * PRICE_ATOMIC);
	});

	test('an invalid id is not checked', async () => {
		sim.options.paymentIdentifier = 'off';
		const wallet = sim.testWallets[1];
		const { payload } = await signPayment(sim, wallet);
		const header = withIdentifierEntry(payload, { info: { required: false, id: 'bad id' } });
		expect((await post({ url: 'https://example.com/' }, paid(header))).status).toBe(200);
	});
});
