import { encodePaymentRequiredHeader } from '@x402/core/http';

import { agentAnswerFor } from '../../../nodes/shared/execution/errors';
import { RequirementCache } from '../../../x402/nodes/ScraperGateway/payment/requirementCache';
import type { Discovery } from '../../../x402/nodes/ScraperGateway/payment/requirementCache';
import { chooseRequirement } from '../../../x402/nodes/ScraperGateway/payment/requirements';
import { answer, GATEWAY_NODE as node, KNOWN as known, PAID_REQUEST as request, paymentRequired, POLICY as policy, REQUIREMENT as requirement } from '../fixtures';

/** The requirement cache on its own, without a chain or a gateway. */

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
