import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';
import { isValidPaymentId, validatePaymentIdentifier } from '@x402/extensions/payment-identifier';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { SpendLedger } from '../../../x402/nodes/ScraperGateway/payment/ledger';
import { GatewayPayments } from '../../../x402/nodes/ScraperGateway/payment/payments';
import { advertisedPaymentId, derivePaymentId, paymentIdExtensions } from '../../../x402/nodes/ScraperGateway/payment/paymentId';
import type { PaymentIdAdvert, PaymentIdParts } from '../../../x402/nodes/ScraperGateway/payment/paymentId';
import { chooseRequirement } from '../../../x402/nodes/ScraperGateway/payment/requirements';
import { RequirementCache } from '../../../x402/nodes/ScraperGateway/payment/requirementCache';
import type { KnownRequirement } from '../../../x402/nodes/ScraperGateway/payment/requirementCache';
import type { Send } from '../../../x402/nodes/ScraperGateway/payment/request';
import { PaymentSigner } from '../../../x402/nodes/ScraperGateway/payment/signer';
import type { SignedPayment } from '../../../x402/nodes/ScraperGateway/payment/signer';
import type { HttpOutcome } from '../../../x402/nodes/ScraperGateway/transport/transport';
import { answer, GATEWAY_NODE as node, PAID_REQUEST as request, PAY_TO, PAYMENT_ID, paymentRequired, POLICY as policy, REQUIREMENT as requirement, USDC } from '../fixtures';
import type { PaidItem } from '../../../x402/nodes/ScraperGateway/payment/paidItems';
import { ProcessMemory } from '../../../x402/nodes/ScraperGateway/payment/processMemory';

/** The payment-identifier extension on its own: reading the 402, the identifier, the payload, and the one resend. */

const DECLARED = { info: { required: false }, schema: { type: 'object' } };

const reset = (): HttpOutcome => ({ ok: false, failure: { cause: 'connection reset by the gateway (ECONNRESET)', neverSent: false, timedOut: false } });
const refused = (): HttpOutcome => ({ ok: false, failure: { cause: 'connection refused (ECONNREFUSED)', neverSent: true, timedOut: false } });
const settled = encodePaymentResponseHeader({ success: true, transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO });
const ok = (): HttpOutcome => ({ ok: true, answer: answer(200, { 'payment-response': settled }, { ok: true }) });
const status = (code: number, headers: Record<string, string> = {}): HttpOutcome => ({ ok: true, answer: answer(code, headers, { message: 'down' }) });

describe('reading the gateway 402 and building the identifier', () => {
	test('the declaration is read when it has the extension shape, with its required flag; anything else is no extension', () => {
		expect(advertisedPaymentId({ ...paymentRequired(), extensions: { 'payment-identifier': DECLARED } })).toEqual({ required: false });
		expect(advertisedPaymentId({ ...paymentRequired(), extensions: { 'payment-identifier': { ...DECLARED, info: { required: true } } } })).toEqual({ required: true });
		expect(advertisedPaymentId(paymentRequired())).toBeUndefined();
		for (const declared of [null, 'yes', {}, { info: {} }, { info: { required: 'true' } }]) {
			expect(advertisedPaymentId({ ...paymentRequired(), extensions: { 'payment-identifier': declared } })).toBeUndefined();
		}
	});

	test('the identifier is valid for the extension, the same for the same item, and changes with every part', () => {
		const parts: PaymentIdParts = { execution: '81', nodeId: 'node-1', runIndex: 0, itemIndex: 3, payer: PAY_TO, path: '/api/service/scraperAPI', body: { url: 'https://example.com/' } };
		const id = derivePaymentId(parts);
		expect(isValidPaymentId(id)).toBe(true);
		expect(id).toMatch(/^n8n_[0-9a-f]{64}$/);
		expect(derivePaymentId({ ...parts, payer: PAY_TO.toUpperCase().replace('0X', '0x') })).toBe(id);
		const changed: Array<Partial<PaymentIdParts>> = [
			{ execution: '82' },
			{ nodeId: 'node-2' },
			{ runIndex: 1 },
			{ itemIndex: 4 },
			{ payer: USDC },
			{ path: '/api/service/webSearch' },
			{ body: { url: 'https://example.com/other' } },
			// Parts are length-prefixed: moving characters between two parts is another identifier.
			{ execution: '8', nodeId: '1node-1' },
		];
		const ids = changed.map((change) => derivePaymentId({ ...parts, ...change }));
		expect(new Set([id, ...ids]).size).toBe(changed.length + 1);
	});

	test('the payload extension is the standard declaration with the identifier, never the gateway own object', () => {
		const extensions = paymentIdExtensions({ required: true }, PAYMENT_ID);
		expect(Object.keys(extensions)).toEqual(['payment-identifier']);
		const declared = extensions['payment-identifier'] as { info: { required: boolean; id: string } };
		expect(declared.info).toEqual({ required: true, id: PAYMENT_ID });
		expect(validatePaymentIdentifier(declared)).toEqual({ valid: true });
		expect(() => paymentIdExtensions({ required: false }, 'short')).toThrow();
	});

	test('the signer puts the identifier into the signed payload only when the gateway advertises it', async () => {
		const account = privateKeyToAccount(generatePrivateKey());
		const signer = new PaymentSigner(account, requirement.network, USDC, 10_000n);
		const resource = paymentRequired().resource;
		const withId = await signer.sign(requirement, resource, { advert: { required: false }, id: PAYMENT_ID });
		const payload = decodePaymentSignatureHeader(withId.header);
		expect(payload.extensions).toEqual({ 'payment-identifier': expect.objectContaining({ info: { required: false, id: PAYMENT_ID } }) });
		expect(payload.accepted).toEqual(requirement);
		expect(withId.paymentId).toBe(PAYMENT_ID);
		const without = await signer.sign(requirement, resource);
		expect(decodePaymentSignatureHeader(without.header).extensions).toBeUndefined();
		expect(without.paymentId).toBeUndefined();
	});
});

describe('GatewayPayments with a payment identifier: an unknown outcome is resent once, the same payment, counted once', () => {
	const signedBase: SignedPayment = { header: 'signed-1', payer: PAY_TO, payTo: PAY_TO, nonce: `0x${'1'.repeat(64)}`, amount: 10_000n, network: 'eip155:84532', asset: USDC, validBefore: '1700000000' };

	function caller(outcomes: HttpOutcome[], options: { advert?: PaymentIdAdvert | null; maxTotalSpend?: bigint; signal?: AbortSignal } = {}) {
		const ledger = new SpendLedger();
		const sent: Array<Record<string, string>> = [];
		let signatures = 0;
		const send: Send = async (_request, headers) => {
			sent.push(headers);
			return outcomes.shift() as HttpOutcome;
		};
		const sign = async (paid: PaymentRequirements, _resource: unknown, id?: { id: string }): Promise<SignedPayment> => {
			signatures++;
			return { ...signedBase, header: `signed-${signatures}`, amount: BigInt(paid.amount), paymentId: id?.id };
		};
		const prices = new RequirementCache(node, (offer) => chooseRequirement(offer, policy));
		const paid = new GatewayPayments({ node, sign, ledger, maxTotalSpend: options.maxTotalSpend, send, prices, paymentId: () => PAYMENT_ID, signal: options.signal, resendPauseMs: 1, paidItems: new ProcessMemory<PaidItem>({ idleMs: 60_000, maxEntries: 10 }) });
		const advert = options.advert === null ? undefined : (options.advert ?? { required: false });
		const known: KnownRequirement = { requirement, resource: paymentRequired().resource, paymentId: advert };
		return { ledger, sent, paid, known, signatures: () => signatures };
	}

	test.each([
		['a connection reset after sending', reset()],
		['a deadline after sending', { ok: false, failure: { cause: 'no complete answer within the 5 s deadline', neverSent: false, timedOut: true } } as HttpOutcome],
		['a 503 without a settlement header', status(503)],
		['a 500 without a settlement header', status(500)],
	])('%s: the same signed payment is sent once more; its answer is used and counted once', async (_name, first) => {
		const { ledger, sent, paid, known, signatures } = caller([first, ok()], { maxTotalSpend: 10_000n });
		const result = await paid.pay(request, known);
		expect(sent).toEqual([{ 'PAYMENT-SIGNATURE': 'signed-1' }, { 'PAYMENT-SIGNATURE': 'signed-1' }]);
		expect(signatures()).toBe(1);
		expect(result.receipt).toEqual({ transaction: '0xabc', network: 'eip155:84532', payer: PAY_TO, amount: '0.01', paymentId: PAYMENT_ID });
		// The limit of exactly one payment held: the resend reserved nothing more.
		expect([ledger.committed, ledger.reserved]).toEqual([10_000n, 0n]);
	});

	test('no answer to the resend either: "may have been charged" once, naming both causes and the identifier', async () => {
		const { ledger, sent, paid, known } = caller([reset(), status(502)]);
		const thrown = (await paid.pay(request, known).catch((error: unknown) => error)) as Error & { description?: string };
		expect(sent).toHaveLength(2);
		expect(thrown.message).toMatch(
			new RegExp(`^The payment may have been charged: connection reset by the gateway \\(ECONNRESET\\), and the gateway answered with status 502 when resent once with the same payment identifier after a signed payment of 0\\.01 USDC was sent \\(.*payment identifier ${PAYMENT_ID}\\)`),
		);
		expect(thrown.description).toMatch(/sent the same payment once more, which cannot be charged twice.*Retry On Fail/);
		expect([ledger.committed, ledger.reserved]).toEqual([10_000n, 0n]);
	});

	test('a 402 or 400 to the resend does not mean "not charged": the first sending may have settled', async () => {
		for (const second of [status(402), status(400)]) {
			const { ledger, paid, known } = caller([reset(), second]);
			await expect(paid.pay(request, known)).rejects.toThrow(/^The payment may have been charged: .* when resent once with the same payment identifier/);
			expect(ledger.committed).toBe(10_000n);
		}
	});

	test('a resend the gateway says it settled but failed: charged, with the receipt, not "may have been"', async () => {
		const { ledger, paid, known } = caller([reset(), status(502, { 'payment-response': settled })]);
		await expect(paid.pay(request, known)).rejects.toThrow(/^The gateway answered with status 502: down\. It was charged 0\.01 USDC \(transaction 0xabc/);
		expect(ledger.committed).toBe(10_000n);
	});

	test('nothing is resent: without the extension, after a refused connection, a settled 5xx, a 429, or a stopped execution', async () => {
		const without = caller([reset()], { advert: null });
		const lost = (await without.paid.pay(request, without.known).catch((error: unknown) => error)) as Error & { description?: string };
		expect(lost.message).toMatch(/^The payment may have been charged: connection reset by the gateway \(ECONNRESET\) after a signed payment of 0\.01 USDC was sent \(payer 0x2{40}, nonce 0x1{64}, amount 0\.01 USDC, network eip155:84532\)$/);
		expect(lost.description).toMatch(/did not send it again, so this item was not paid twice/);
		expect(lost.description).toMatch(/Retry On Fail in the node settings does not pay for this item again: it reports it as here\./);
		expect(without.sent).toHaveLength(1);

		const neverSent = caller([refused()]);
		await expect(neverSent.paid.pay(request, neverSent.known)).rejects.toThrow(/nothing was paid$/);
		expect([neverSent.sent.length, neverSent.ledger.committed, neverSent.ledger.reserved]).toEqual([1, 0n, 0n]);

		const charged = caller([status(500, { 'payment-response': settled })]);
		await expect(charged.paid.pay(request, charged.known)).rejects.toThrow(/It was charged 0\.01 USDC/);
		expect(charged.sent).toHaveLength(1);

		const limited = caller([status(429)]);
		await expect(limited.paid.pay(request, limited.known)).rejects.toThrow(/^The payment may have been charged: the gateway answered with status 429/);
		expect(limited.sent).toHaveLength(1);

		const stop = new AbortController();
		stop.abort();
		const stopped = caller([reset()], { signal: stop.signal });
		const thrown = (await stopped.paid.pay(request, stopped.known).catch((error: unknown) => error)) as Error & { description?: string };
		expect(thrown.message).toMatch(/^The payment may have been charged: connection reset by the gateway \(ECONNRESET\); the execution was stopped before the resend/);
		expect(thrown.description).toMatch(/did not send it again/);
		expect([stopped.sent.length, stopped.ledger.committed]).toEqual([1, 10_000n]);
	});

	test('a 402 with a new price is paid once more with the same identifier, and that payment may be resent', async () => {
		const fresh = { 'payment-required': Buffer.from(JSON.stringify({ ...paymentRequired([{ ...requirement, amount: '9000' }]), extensions: { 'payment-identifier': DECLARED } })).toString('base64') };
		const { ledger, sent, paid, known } = caller([status(402, fresh), reset(), ok()]);
		const result = await paid.pay(request, known);
		expect(sent.map((headers) => headers['PAYMENT-SIGNATURE'])).toEqual(['signed-1', 'signed-2', 'signed-2']);
		expect(result.receipt).toMatchObject({ amount: '0.009', paymentId: PAYMENT_ID });
		expect([ledger.committed, ledger.reserved]).toEqual([9_000n, 0n]);
	});
});
