import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequirements } from '@x402/core/types';

import { SpendLedger } from '../../../x402/nodes/ScraperGateway/payment/ledger';
import { GatewayPayments } from '../../../x402/nodes/ScraperGateway/payment/payments';
import { RequirementCache } from '../../../x402/nodes/ScraperGateway/payment/requirementCache';
import { chooseRequirement } from '../../../x402/nodes/ScraperGateway/payment/requirements';
import type { Send } from '../../../x402/nodes/ScraperGateway/payment/request';
import type { SignedPayment } from '../../../x402/nodes/ScraperGateway/payment/signer';
import type { HttpOutcome } from '../../../x402/nodes/ScraperGateway/transport/transport';
import { answer, GATEWAY_NODE as node, KNOWN as known, PAID_REQUEST as request, PAY_TO, PAYMENT_ID, paymentRequired, POLICY as policy, REQUIREMENT as requirement, USDC as USDC_ADDRESS } from '../fixtures';
import type { PaidItem } from '../../../x402/nodes/ScraperGateway/payment/paidItems';
import { ProcessMemory } from '../../../x402/nodes/ScraperGateway/payment/processMemory';

/** Paying one request on its own, over a scripted `send`: without a chain or a gateway. */

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
		return { ledger, sent, paid: new GatewayPayments({ node, sign, ledger, maxTotalSpend: options.maxTotalSpend, send, prices, paymentId: () => PAYMENT_ID, paidItems: new ProcessMemory<PaidItem>({ idleMs: 60_000, maxEntries: 10 }) }) };
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
