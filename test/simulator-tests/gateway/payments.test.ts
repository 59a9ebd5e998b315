import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { declarePaymentIdentifierExtension } from '@x402/extensions/payment-identifier';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { payingFetch, paymentRequiredFor, signPayment } from '../../simulator/gateway/client';
import { GatewaySimulator, PRICE_ATOMIC } from '../../simulator/gateway';

/** Everything here goes over real HTTP to the simulator, and every charge is read back from the chain. */
let sim: GatewaySimulator;

beforeAll(async () => {
	sim = await GatewaySimulator.start({ testWalletCount: 6 });
}, 60_000);

afterAll(async () => {
	await sim?.close();
});

beforeEach(() => sim.reset());

function endpoint(service: 'scraperAPI' | 'webSearch' = 'scraperAPI'): string {
	return `${sim.url}/api/service/${service}`;
}

async function post(body: unknown, headers: Record<string, string> = {}, service: 'scraperAPI' | 'webSearch' = 'scraperAPI') {
	const response = await fetch(endpoint(service), {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
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

describe('input is validated before any payment', () => {
	test.each([
		[{}, 'url'],
		[{ url: 'http://127.1/' }, 'url'],
		[{ url: 'https://example.com', proxyCountry: 'usa' }, 'proxyCountry'],
		[{ url: 'https://example.com', timeout: 301 }, 'timeout'],
		[{ url: 'https://example.com', waitUntil: 'later' }, 'waitUntil'],
	])('%j without a signature -> 400 naming %s, never 402', async (body, field) => {
		const response = await post(body);
		expect(response.status).toBe(400);
		expect(response.headers.get('payment-required')).toBeNull();
		expect(response.json).toMatchObject({ error: 'invalid_request', field });
		expect(typeof response.json.message).toBe('string');
		expect(response.json.message).toContain(field);
		expect(sim.settlements).toHaveLength(0);
	});

	test('invalid JSON -> 400 naming the body', async () => {
		const response = await post('{"url": ');
		expect(response.status).toBe(400);
		expect(response.json).toMatchObject({ error: 'invalid_request', field: 'body' });
	});

	test('webSearch: missing query -> 400 before payment', async () => {
		const response = await post({ country: 'de' }, {}, 'webSearch');
		expect(response.status).toBe(400);
		expect(response.json).toMatchObject({ error: 'invalid_request', field: 'query', rule: 'required' });
	});

	test('a valid signature on an invalid request is not used: 400, no charge, nonce still unused', async () => {
		const wallet = sim.testWallets[0];
		const before = await sim.balanceOf(wallet.address);
		const { payload, header } = await signPayment(sim, wallet);
		const response = await post({ url: 'https://example.com', maxRetries: 99 }, { 'PAYMENT-SIGNATURE': header });
		expect(response.status).toBe(400);
		expect(response.json).toMatchObject({ field: 'maxRetries', message: 'maxRetries must be an integer from 0 to 10' });
		expect(await sim.balanceOf(wallet.address)).toBe(before);
		const nonce = (payload.payload as { authorization: { nonce: `0x${string}` } }).authorization.nonce;
		expect(await sim.authorizationUsed(wallet.address, nonce)).toBe(false);
		expect(sim.settlements).toHaveLength(0);
	});
});

describe('402 Payment Required', () => {
	test('an unpaid valid request gets PAYMENT-REQUIRED (base64 JSON, x402 v2) and the same JSON body', async () => {
		const response = await post({ url: 'https://example.com/' });
		expect(response.status).toBe(402);
		const header = response.headers.get('payment-required');
		expect(header).toBeTruthy();
		const decoded = decodePaymentRequiredHeader(header as string);
		expect(decoded).toEqual({
			x402Version: 2,
			error: expect.any(String),
			resource: { url: `${sim.url}/api/service/scraperAPI`, description: expect.any(String), mimeType: 'application/json' },
			accepts: [
				{
					scheme: 'exact',
					network: 'eip155:31337',
					amount: '10000',
					asset: sim.tokenAddress,
					payTo: sim.payTo,
					maxTimeoutSeconds: 120,
					extra: { name: 'USD Coin', version: '2' },
				},
			],
			extensions: { 'payment-identifier': declarePaymentIdentifierExtension(false) },
		});
		expect(response.json).toEqual(decoded);
		expect(sim.rejections).toEqual([expect.objectContaining({ stage: 'missing' })]);
	});

	test('webSearch advertises its own resource at the same price', async () => {
		const response = await post({ query: 'espresso' }, {}, 'webSearch');
		expect(response.status).toBe(402);
		const decoded = decodePaymentRequiredHeader(response.headers.get('payment-required') as string);
		expect(decoded.resource.url).toBe(`${sim.url}/api/service/webSearch`);
		expect(decoded.accepts[0].amount).toBe('10000');
	});

	test('the chain facts the requirement names are true: token name, version, decimals', async () => {
		const { publicClient } = sim.chain;
		const abi = [
			{ type: 'function', name: 'name', inputs: [], outputs: [{ type: 'string' }], stateMutability: 'view' },
			{ type: 'function', name: 'version', inputs: [], outputs: [{ type: 'string' }], stateMutability: 'view' },
			{ type: 'function', name: 'decimals', inputs: [], outputs: [{ type: 'uint8' }], stateMutability: 'view' },
			{ type: 'function', name: 'symbol', inputs: [], outputs: [{ type: 'string' }], stateMutability: 'view' },
		] as const;
		const read = (functionName: 'name' | 'version' | 'decimals' | 'symbol') =>
			publicClient.readContract({ address: sim.tokenAddress, abi, functionName });
		expect(await read('name')).toBe('USD Coin');
		expect(await read('version')).toBe('2');
		expect(await read('decimals')).toBe(6);
		expect(await read('symbol')).toBe('USDC');
		expect(await publicClient.getChainId()).toBe(31337);
	});
});

describe('a paid request settles on chain before the work', () => {
	test('wrapFetchWithPayment pays once: payer -0.01 USDC, payee +0.01 USDC, receipt on chain', async () => {
		const wallet = sim.testWallets[1];
		const payerBefore = await sim.balanceOf(wallet.address);
		const payeeBefore = await sim.balanceOf(sim.payTo);
		const pay = payingFetch(sim, wallet);
		const response = await pay(endpoint(), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ url: 'https://example.com/blog/first-post' }),
		});
		expect(response.status).toBe(200);
		const body = (await response.json()) as { ok: boolean; service: string; data: Record<string, unknown> };
		expect(body.ok).toBe(true);
		expect(body.service).toBe('fetchHtml');
		expect(body.data.error).toBeNull();

		const receipt = decodePaymentResponseHeader(response.headers.get('payment-response') as string);
		expect(receipt).toEqual({
			success: true,
			transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
			network: 'eip155:31337',
			payer: wallet.address,
			amount: '10000',
		});
		expect(await sim.balanceOf(wallet.address)).toBe(payerBefore - PRICE_ATOMIC);
		expect(await sim.balanceOf(sim.payTo)).toBe(payeeBefore + PRICE_ATOMIC);
		expect(await sim.txExists(receipt.transaction as `0x${string}`)).toBe(true);
		const chainReceipt = await sim.getTransactionReceipt(receipt.transaction as `0x${string}`);
		expect(chainReceipt?.to?.toLowerCase()).toBe(sim.tokenAddress.toLowerCase());

		expect(sim.settlements).toEqual([
			expect.objectContaining({
				service: 'scraperAPI',
				transaction: receipt.transaction,
				payer: wallet.address,
				payTo: sim.payTo,
				amount: '10000',
				target: 'https://example.com/blog/first-post',
				upstreamOk: true,
			}),
		]);
		// Two requests: the unpaid one (402) and the paid retry (200).
		expect(sim.server.log.for('POST /api/service/scraperAPI').map((e) => e.status)).toEqual([402, 200]);
	});

	test('signing ahead from the known requirement takes one round trip', async () => {
		const wallet = sim.testWallets[1];
		const before = await sim.balanceOf(wallet.address);
		const { header } = await signPayment(sim, wallet, { service: 'webSearch' });
		const response = await post({ query: 'trail running shoes' }, { 'PAYMENT-SIGNATURE': header }, 'webSearch');
		expect(response.status).toBe(200);
		expect(response.json).toMatchObject({ ok: true, service: 'webSearch' });
		expect(await sim.balanceOf(wallet.address)).toBe(before - PRICE_ATOMIC);
		expect(sim.server.log.count()).toBe(1);
	});

	test('upstream failure after settlement: 200, ok false, data.error, PAYMENT-RESPONSE; charged once, not refunded', async () => {
		const wallet = sim.testWallets[2];
		const before = await sim.balanceOf(wallet.address);
		const { header } = await signPayment(sim, wallet);
		const response = await post({ url: 'https://shop.example.com/sim-fail/product' }, { 'PAYMENT-SIGNATURE': header });
		expect(response.status).toBe(200);
		expect(response.json).toMatchObject({
			ok: false,
			service: 'fetchHtml',
			data: { html: '', markdown: '', screenshot: null, error: expect.stringContaining('502') },
		});
		const receipt = decodePaymentResponseHeader(response.headers.get('payment-response') as string);
		expect(receipt.success).toBe(true);
		expect(await sim.txExists(receipt.transaction as `0x${string}`)).toBe(true);
		expect(await sim.balanceOf(wallet.address)).toBe(before - PRICE_ATOMIC);
		expect(sim.settlements).toEqual([expect.objectContaining({ upstreamOk: false })]);
	});
});

describe('payments that grant nothing and charge nothing', () => {
	async function expectRefused(header: string, stage: string, reason: RegExp, wallet = sim.testWallets[3]) {
		const before = await sim.balanceOf(wallet.address);
		const payeeBefore = await sim.balanceOf(sim.payTo);
		const response = await post({ url: 'https://example.com/' }, { 'PAYMENT-SIGNATURE': header });
		expect(response.status).toBe(402);
		expect(response.headers.get('payment-response')).toBeNull();
		const required = decodePaymentRequiredHeader(response.headers.get('payment-required') as string);
		expect(required.error).toMatch(reason);
		expect(required.accepts).toHaveLength(1);
		expect(await sim.balanceOf(wallet.address)).toBe(before);
		expect(await sim.balanceOf(sim.payTo)).toBe(payeeBefore);
		expect(sim.settlements).toHaveLength(0);
		expect(sim.rejections.at(-1)).toMatchObject({ stage });
	}

	test.each([
		['not base64 at all', 'not base64!!'],
		['base64 of text', Buffer.from('hello world').toString('base64')],
		['base64 JSON of another shape', Buffer.from(JSON.stringify({ hello: 'world' })).toString('base64')],
		['x402 version 1', Buffer.from(JSON.stringify({ x402Version: 1, payload: {} })).toString('base64')],
	])('malformed header (%s) -> 402', async (_name, header) => {
		await expectRefused(header, 'decode', /PAYMENT-SIGNATURE|payload|x402Version/);
	});

	test('forged signature (one byte flipped) -> 402 invalid signature', async () => {
		const { payload } = await signPayment(sim, sim.testWallets[3]);
		const inner = payload.payload as { signature: string };
		const flipped = inner.signature.slice(0, 20) + (inner.signature[20] === 'a' ? 'b' : 'a') + inner.signature.slice(21);
		const forged: PaymentPayload = { ...payload, payload: { ...payload.payload, signature: flipped } };
		await expectRefused(encodePaymentSignatureHeader(forged), 'verify', /signature/);
	});

	test('signed by another key while claiming the victim as payer -> 402, victim untouched', async () => {
		const victim = sim.testWallets[3];
		const attacker = { privateKey: generatePrivateKey() };
		const { payload } = await signPayment(sim, attacker);
		const inner = payload.payload as { authorization: Record<string, string>; signature: string };
		const claimed: PaymentPayload = {
			...payload,
			payload: { ...inner, authorization: { ...inner.authorization, from: victim.address } },
		};
		await expectRefused(encodePaymentSignatureHeader(claimed), 'verify', /signature/, victim);
	});

	test('replayed payload (already settled) -> 402 nonce already used, charged only once', async () => {
		const wallet = sim.testWallets[3];
		const before = await sim.balanceOf(wallet.address);
		const { header } = await signPayment(sim, wallet);
		const first = await post({ url: 'https://example.com/replay' }, { 'PAYMENT-SIGNATURE': header });
		expect(first.status).toBe(200);
		sim.reset();
		await expectRefused(header, 'verify', /nonce_already_used/);
		expect(await sim.balanceOf(wallet.address)).toBe(before - PRICE_ATOMIC);
	});

	test('a payload for another amount than advertised -> 402 no matching requirement', async () => {
		const { header } = await signPayment(sim, sim.testWallets[3], { paymentRequired: paymentRequiredFor(sim, { amount: '5000' }) });
		await expectRefused(header, 'match', /No matching payment requirements/);
	});

	test('a payload for another payTo -> 402 no matching requirement', async () => {
		const other = sim.testWallets[5].address;
		const { header } = await signPayment(sim, sim.testWallets[3], { paymentRequired: paymentRequiredFor(sim, { payTo: other }) });
		await expectRefused(header, 'match', /No matching payment requirements/);
	});

	test('a payload for another asset -> 402 no matching requirement', async () => {
		const asset = privateKeyToAccount(generatePrivateKey()).address;
		const { header } = await signPayment(sim, sim.testWallets[3], { paymentRequired: paymentRequiredFor(sim, { asset }) });
		await expectRefused(header, 'match', /No matching payment requirements/);
	});

	test('accepted entry copied verbatim but a smaller value signed -> 402 value mismatch', async () => {
		const wallet = sim.testWallets[3];
		const cheap = await signPayment(sim, wallet, { paymentRequired: paymentRequiredFor(sim, { amount: '1' }) });
		const disguised: PaymentPayload = { ...cheap.payload, accepted: sim.paymentRequirements() };
		await expectRefused(encodePaymentSignatureHeader(disguised), 'verify', /value/);
	});

	test('a wallet without USDC -> 402 insufficient balance', async () => {
		const empty = { privateKey: generatePrivateKey() };
		const { header } = await signPayment(sim, empty);
		await expectRefused(header, 'verify', /insufficient_balance/);
	});

	test('settlement fails on chain after a good verify (front-run by a replay) -> 402 with PAYMENT-RESPONSE success false', async () => {
		const wallet = sim.testWallets[4];
		const before = await sim.balanceOf(wallet.address);
		const { header } = await signPayment(sim, wallet);
		let replay: Awaited<ReturnType<typeof post>> | undefined;
		// Between this request's verify and its settlement, the same payload is sent again and settles first.
		sim.setBeforeSettleHook(async () => {
			if (replay) return;
			sim.setBeforeSettleHook(undefined);
			replay = await post({ url: 'https://example.com/second' }, { 'PAYMENT-SIGNATURE': header });
		});
		const response = await post({ url: 'https://example.com/first' }, { 'PAYMENT-SIGNATURE': header });
		expect(replay?.status).toBe(200);
		expect(response.status).toBe(402);
		const receipt = decodePaymentResponseHeader(response.headers.get('payment-response') as string);
		expect(receipt).toMatchObject({ success: false, network: 'eip155:31337', payer: wallet.address });
		expect(receipt.errorReason).toMatch(/nonce_already_used|transaction_failed/);
		expect(response.json).toMatchObject({ x402Version: 2, error: receipt.errorReason });
		expect(await sim.balanceOf(wallet.address)).toBe(before - PRICE_ATOMIC);
		expect(sim.settlements).toHaveLength(1);
		expect(sim.settlements[0].target).toBe('https://example.com/second');
		expect(sim.rejections.at(-1)).toMatchObject({ stage: 'settle' });
	});
});

describe('requirement override (a misbehaving gateway)', () => {
	test('amount 20000 is advertised and, when signed, really charged', async () => {
		sim.setRequirementOverride({ amount: '20000' });
		const wallet = sim.testWallets[5];
		const before = await sim.balanceOf(wallet.address);
		const unpaid = await post({ url: 'https://example.com/' });
		expect(decodePaymentRequiredHeader(unpaid.headers.get('payment-required') as string).accepts[0].amount).toBe('20000');
		const { header } = await signPayment(sim, wallet);
		const paid = await post({ url: 'https://example.com/' }, { 'PAYMENT-SIGNATURE': header });
		expect(paid.status).toBe(200);
		expect(decodePaymentResponseHeader(paid.headers.get('payment-response') as string).amount).toBe('20000');
		expect(await sim.balanceOf(wallet.address)).toBe(before - 20_000n);
	});

	test('a payment for the normal price is refused while the override is in force', async () => {
		const { header } = await signPayment(sim, sim.testWallets[5]);
		sim.setRequirementOverride({ amount: '20000' });
		const response = await post({ url: 'https://example.com/' }, { 'PAYMENT-SIGNATURE': header });
		expect(response.status).toBe(402);
		sim.setRequirementOverride(undefined);
		expect(decodePaymentRequiredHeader(response.headers.get('payment-required') as string).accepts[0].amount).toBe('20000');
	});

	test('other network, huge timeout, missing extra are advertised as set', async () => {
		sim.setRequirementOverride({ network: 'eip155:8453', maxTimeoutSeconds: 10_000_000, extra: undefined });
		const response = await post({ url: 'https://example.com/' });
		const accepted = decodePaymentRequiredHeader(response.headers.get('payment-required') as string).accepts[0];
		expect(accepted).toMatchObject({ network: 'eip155:8453', maxTimeoutSeconds: 10_000_000 });
		expect(accepted).not.toHaveProperty('extra');
	});

	test('a payment signed for another chain cannot move funds here', async () => {
		sim.setRequirementOverride({ network: 'eip155:8453' });
		const wallet = sim.testWallets[5];
		const before = await sim.balanceOf(wallet.address);
		const { header } = await signPayment(sim, wallet, { network: 'eip155:8453' });
		const response = await post({ url: 'https://example.com/' }, { 'PAYMENT-SIGNATURE': header });
		expect(response.status).toBe(402);
		expect(await sim.balanceOf(wallet.address)).toBe(before);
		expect(sim.settlements).toHaveLength(0);
	});

	test('an expired authorization (tiny maxTimeoutSeconds) is refused at verify', async () => {
		sim.setRequirementOverride({ maxTimeoutSeconds: 1 });
		const { header } = await signPayment(sim, sim.testWallets[5]);
		const response = await post({ url: 'https://example.com/' }, { 'PAYMENT-SIGNATURE': header });
		expect(response.status).toBe(402);
		expect(decodePaymentRequiredHeader(response.headers.get('payment-required') as string).error).toMatch(/valid_before/);
		expect(sim.settlements).toHaveLength(0);
	});
});
