import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { generatePrivateKey } from 'viem/accounts';

import { agentAnswerFor } from '../../nodes/shared/execution/errors';
import { SpendLedger } from '../../x402/nodes/ScraperGateway/payment/ledger';
import { GatewayPayments } from '../../x402/nodes/ScraperGateway/payment/payments';
import { decodeSettlement } from '../../x402/nodes/ScraperGateway/payment/receipt';
import { RequirementCache } from '../../x402/nodes/ScraperGateway/payment/requirementCache';
import type { Discovery, KnownRequirement } from '../../x402/nodes/ScraperGateway/payment/requirementCache';
import type { PaymentRequirements } from '@x402/core/types';
import { chooseRequirement, decodePaymentRequired } from '../../x402/nodes/ScraperGateway/payment/requirements';
import type { Send } from '../../x402/nodes/ScraperGateway/payment/request';
import type { SignedPayment } from '../../x402/nodes/ScraperGateway/payment/signer';
import { readWallet } from '../../x402/nodes/ScraperGateway/payment/wallet';
import { SimClock } from '../simulator/core/clock';
import { SimServer } from '../simulator/core/server';
import { postJson } from '../../x402/nodes/ScraperGateway/transport';
import type { HttpAnswer, HttpOutcome } from '../../x402/nodes/ScraperGateway/transport';
import { GATEWAY_NODE as node, PAID_REQUEST as request, PAY_TO, PAYMENT_ID, paymentRequired, POLICY as policy, REQUIREMENT as requirement, USDC as USDC_ADDRESS } from './fixtures';

/** The pieces of the payment, each on its own, without a chain or a gateway. */

const known: KnownRequirement = { requirement, resource: paymentRequired().resource };

function answer(status: number, headers: Record<string, string> = {}, json: unknown = {}): HttpAnswer {
	return { status, headers, json, text: JSON.stringify(json), decoded: new Map() };
}

describe('x402 headers: the library decoders, never throwing on a garbled header', () => {
	test('PAYMENT-REQUIRED: decoded when it is base64 JSON with accepts, else undefined', () => {
		const header = encodePaymentRequiredHeader(paymentRequired());
		expect(decodePaymentRequired(header)).toEqual(paymentRequired());
		expect(decodePaymentRequired(` ${header} `)).toEqual(paymentRequired());
		for (const garbled of [undefined, '', '!!!', 'not base64 at all', Buffer.from('{"no json').toString('base64'), Buffer.from('[1,2]').toString('base64'), Buffer.from('{"x402Version":2}').toString('base64')]) {
			expect(decodePaymentRequired(garbled)).toBeUndefined();
		}
	});

	test('PAYMENT-REQUIRED in the URL-safe alphabet, unpadded or folded reads as the standard one', () => {
		// A `resource.description` that encodes to "+" and "/" in the standard alphabet, so the URL-safe one differs.
		const required = { ...paymentRequired(), resource: { url: 'https://gw.example/fetch', description: '>>>???~~~', mimeType: 'application/json' } };
		const header = encodePaymentRequiredHeader(required);
		const urlSafe = header.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
		expect(urlSafe).not.toBe(header);
		expect(decodePaymentRequired(urlSafe)).toEqual(required);
		expect(decodePaymentRequired(`${header.slice(0, 40)}\r\n ${header.slice(40)}`)).toEqual(required);
	});

	test('PAYMENT-RESPONSE: the settlement when `success` is a boolean, else undefined', () => {
		const header = encodePaymentResponseHeader({ success: true, transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO, amount: '10000' });
		expect(decodeSettlement(header)).toEqual({ success: true, transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO, amount: '10000', errorReason: undefined, errorMessage: undefined });
		expect(decodeSettlement(Buffer.from('{"success":"yes"}').toString('base64'))).toBeUndefined();
		expect(decodeSettlement('%%%')).toBeUndefined();
		expect(decodeSettlement(undefined)).toBeUndefined();
	});
});

describe('readWallet: field by field, in the form order', () => {
	const valid = { privateKey: generatePrivateKey(), baseUrl: 'https://gateway.example.com/', network: 'eip155:84532', usdcAddress: '', maxPricePerRequest: 0.01, payTo: '' };

	test('a valid credential gives the wallet, base URL without its trailing slash', () => {
		const result = readWallet(valid);
		expect(result.ok && result.wallet).toMatchObject({ network: 'eip155:84532', networkName: 'Base Sepolia', tokenAddress: USDC_ADDRESS, maxAmount: 10_000n, payTo: undefined, baseUrl: 'https://gateway.example.com' });
	});

	test('the first broken field is the one reported', () => {
		const problem = (data: Record<string, unknown>) => (readWallet({ ...valid, ...data }) as { problem: { field: string } }).problem.field;
		expect(problem({ privateKey: '', baseUrl: 'nope' })).toBe('Private Key');
		expect(problem({ baseUrl: 'nope', network: 'x' })).toBe('Gateway Base URL');
		expect(problem({ network: 'custom', customNetwork: 'x', usdcAddress: '0x1' })).toBe('Custom Network');
		expect(problem({ usdcAddress: '0x1', maxPricePerRequest: 0 })).toBe('USDC Token Address');
		expect(problem({ maxPricePerRequest: -1, payTo: 'x' })).toBe('Max Price per Request (USDC)');
		expect(problem({ payTo: '0x12' })).toBe('Pinned Payee Address');
	});

	test('the Gateway Base URL follows the spelling rules of every URL field, naming the field and how to fix it', () => {
		const read = (baseUrl: string) => readWallet({ ...valid, baseUrl }) as { ok: false; problem: { field: string; message: string; fix: string } };
		const backslash = read('https://gateway.example.com\\@evil.example');
		expect(backslash.problem).toMatchObject({ field: 'Gateway Base URL', message: expect.stringMatching(/contains a backslash \(\\\) at character 28$/) });
		expect(backslash.problem.fix).toMatch(/%5C/);
		expect(read('http:gateway.example.com').problem.message).toMatch(/does not have "\/\/" and a host right after "http:"$/);
		expect(read('ftp://gateway.example.com').problem.message).toBe('"ftp://gateway.example.com" is not an http(s) address');
	});

	test('addresses in any letter case are accepted, as the message states (0x and 40 hexadecimal characters)', () => {
		// A mixed-case address whose EIP-55 checksum is off: viem's strict check would refuse it.
		const result = readWallet({ ...valid, payTo: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01' });
		expect(result.ok).toBe(true);
	});
});

describe('RequirementCache: one discovery per path, checked against the policy', () => {
	test('parallel calls wait for the one discovery in flight; later calls use the known requirement', async () => {
		const cache = new RequirementCache(node, (offer) => chooseRequirement(offer, policy));
		let discoveries = 0;
		const discover = async (): Promise<Discovery> => {
			discoveries++;
			return { kind: 'required', known: cache.learn(request, answer(402, { 'payment-required': encodePaymentRequiredHeader(paymentRequired()) })) };
		};
		const found = await Promise.all([cache.requirementFor(request.path, discover), cache.requirementFor(request.path, discover), cache.requirementFor(request.path, discover)]);
		expect(discoveries).toBe(1);
		for (const outcome of found) expect(outcome).toEqual({ kind: 'required', known });
		await cache.requirementFor(request.path, discover);
		expect(discoveries).toBe(1);
	});

	test('a failed discovery lets a waiting call discover again', async () => {
		const cache = new RequirementCache(node, (offer) => chooseRequirement(offer, policy));
		let discoveries = 0;
		const discover = async (): Promise<Discovery> => {
			discoveries++;
			if (discoveries === 1) throw new Error('unreachable');
			return { kind: 'free', answer: answer(200) };
		};
		const [first, second] = await Promise.allSettled([cache.requirementFor(request.path, discover), cache.requirementFor(request.path, discover)]);
		expect(first.status).toBe('rejected');
		expect(second).toMatchObject({ status: 'fulfilled', value: { kind: 'free' } });
		expect(discoveries).toBe(2);
	});

	test('a requirement above the cap is refused before anything is signed, and an agent is told not to call again', () => {
		const cache = new RequirementCache(node, (offer) => chooseRequirement(offer, policy));
		const dear = answer(402, { 'payment-required': encodePaymentRequiredHeader(paymentRequired([{ ...requirement, amount: '20000' }])) });
		let refusal: unknown;
		try {
			cache.learn(request, dear);
		} catch (error) {
			refusal = error;
		}
		expect((refusal as Error).message).toMatch(/^Payment refused, nothing was signed: it asks 0\.02 USDC per request/);
		expect(agentAnswerFor(refusal)).toMatch(/do not call it again in this run/);
		expect(() => cache.learn(request, answer(402))).toThrow(/without a readable PAYMENT-REQUIRED header; nothing was signed/);
	});
});

describe('GatewayPayments: the ledger is released only where money certainly did not move', () => {
	const signed: SignedPayment = { header: 'signed', payer: PAY_TO, payTo: PAY_TO, nonce: `0x${'1'.repeat(64)}`, amount: 10_000n, network: 'eip155:84532', asset: USDC_ADDRESS, validBefore: '1700000000' };

	function caller(outcomes: HttpOutcome[], options: { maxTotalSpend?: bigint; sign?: () => Promise<SignedPayment> } = {}) {
		const ledger = new SpendLedger();
		const sent: Array<Record<string, string>> = [];
		const send: Send = async (_request, headers) => {
			sent.push(headers);
			return outcomes.shift() as HttpOutcome;
		};
		const sign = options.sign ?? (async (paid: PaymentRequirements) => ({ ...signed, amount: BigInt(paid.amount) }));
		const prices = new RequirementCache(node, (offer) => chooseRequirement(offer, policy));
		return { ledger, sent, paid: new GatewayPayments({ node, sign, ledger, maxTotalSpend: options.maxTotalSpend, send, prices, paymentId: () => PAYMENT_ID }) };
	}

	test('200: committed, with the receipt from the settlement', async () => {
		const settlement = encodePaymentResponseHeader({ success: true, transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO });
		const { ledger, sent, paid } = caller([{ ok: true, answer: answer(200, { 'payment-response': settlement }, { ok: true }) }]);
		const result = await paid.pay(request, known);
		expect(result.receipt).toEqual({ transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO, amount: '0.01', paymentId: null });
		expect(sent).toEqual([{ 'PAYMENT-SIGNATURE': 'signed' }]);
		expect([ledger.committed, ledger.reserved]).toEqual([10_000n, 0n]);
	});

	test('never sent: released, "nothing was paid"; sent without an answer: committed, "may have been charged"', async () => {
		const neverSent = caller([{ ok: false, failure: { cause: 'connection refused (ECONNREFUSED)', neverSent: true, timedOut: false } }]);
		await expect(neverSent.paid.pay(request, known)).rejects.toThrow('Could not reach the gateway: connection refused (ECONNREFUSED); nothing was paid');
		expect([neverSent.ledger.committed, neverSent.ledger.reserved]).toEqual([0n, 0n]);
		const lost = caller([{ ok: false, failure: { cause: 'connection reset by the gateway (ECONNRESET)', neverSent: false, timedOut: false } }]);
		await expect(lost.paid.pay(request, known)).rejects.toThrow(/^The payment may have been charged: connection reset by the gateway \(ECONNRESET\) after a signed payment of 0\.01 USDC was sent/);
		expect([lost.ledger.committed, lost.ledger.reserved]).toEqual([10_000n, 0n]);
	});

	test('402 without a new requirement and 400: released; 500 without a settlement: committed', async () => {
		const reason = encodePaymentResponseHeader({ success: false, errorReason: 'insufficient_funds\nat verify()', transaction: '', network: 'eip155:84532' });
		const refused = caller([{ ok: true, answer: answer(402, { 'payment-response': reason }) }]);
		await expect(refused.paid.pay(request, known)).rejects.toThrow('The gateway did not accept the payment (402: insufficient_funds); nothing was charged');
		expect(refused.ledger.reserved + refused.ledger.committed).toBe(0n);
		const invalid = caller([{ ok: true, answer: answer(400, {}, { issues: [{ field: 'url', message: 'url is not public' }] }) }]);
		await expect(invalid.paid.pay(request, known)).rejects.toThrow('The gateway rejected the input: url is not public; nothing was paid');
		expect(invalid.ledger.reserved + invalid.ledger.committed).toBe(0n);
		const broken = caller([{ ok: true, answer: answer(500, {}, { message: 'boom' }) }]);
		await expect(broken.paid.pay(request, known)).rejects.toThrow(/^The payment may have been charged: the gateway answered with status 500/);
		expect(broken.ledger.committed).toBe(10_000n);
	});

	test('a 402 with a new requirement is learned and paid once more, never a third time', async () => {
		const fresh = { 'payment-required': encodePaymentRequiredHeader(paymentRequired([{ ...requirement, amount: '9000' }])) };
		const { sent, paid, ledger } = caller([
			{ ok: true, answer: answer(402, fresh) },
			{ ok: true, answer: answer(402, fresh) },
		]);
		await expect(paid.pay(request, known)).rejects.toThrow(/^The gateway did not accept the payment/);
		expect(sent).toHaveLength(2);
		expect(ledger.reserved + ledger.committed).toBe(0n);
	});

	test('over the budget or refused by the signer: nothing is sent, the ledger is as it was', async () => {
		const overBudget = caller([], { maxTotalSpend: 5_000n });
		await expect(overBudget.paid.pay(request, known)).rejects.toThrow(/^Spending limit reached, nothing was signed for this item/);
		expect(overBudget.sent).toHaveLength(0);
		const unsigned = caller([], { sign: async () => await Promise.reject(new Error('spend control: asset not allowed\ndetails')) });
		await expect(unsigned.paid.pay(request, known)).rejects.toThrow('Payment refused, nothing was sent: spend control: asset not allowed');
		expect(unsigned.sent).toHaveLength(0);
		expect(unsigned.ledger.reserved).toBe(0n);
	});
});

describe('transport: the shared network causes, with the gateway deadline', () => {
	test('a slow gateway is the deadline; a reset may have reached it; a refused connection was never sent', async () => {
		const server = new SimServer({ name: 'gateway', clock: new SimClock(), errorBody: () => ({}) });
		const route = server.route('POST', '/pay', () => ({ status: 200, json: { ok: true } }));
		const url = `${await server.listen()}/pay`;
		try {
			server.faults.add({ kind: 'slow', routes: [route], delayMs: 5_000, times: 1 });
			expect(await postJson(url, {}, {}, 1_000)).toEqual({ ok: false, failure: { cause: 'no complete answer within the 1 s deadline', neverSent: false, timedOut: true } });
			server.faults.add({ kind: 'reset', routes: [route], times: 1 });
			const reset = await postJson(url, {}, {}, 5_000);
			expect(reset).toMatchObject({ ok: false, failure: { neverSent: false, timedOut: false } });
			expect((reset as { failure: { cause: string } }).failure.cause).toMatch(/^connection (reset|closed) by the gateway \((ECONNRESET|UND_ERR_SOCKET)\)$/);
			expect(await postJson(url, {}, {}, 5_000)).toMatchObject({ ok: true, answer: { status: 200, json: { ok: true } } });
		} finally {
			await server.close();
		}
		expect(await postJson(url, {}, {}, 1_000)).toEqual({ ok: false, failure: { cause: 'connection refused (ECONNREFUSED)', neverSent: true, timedOut: false } });
	});
});
