import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { sleep } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY } from '../../../nodes/shared/transport/retry';
import type { RetryPolicy } from '../../../nodes/shared/transport/retry';
import { PriceRequest } from '../../../x402/nodes/ScraperGateway/payment/priceRequest';
import { chooseRequirement } from '../../../x402/nodes/ScraperGateway/payment/requirements';
import { RequirementCache } from '../../../x402/nodes/ScraperGateway/payment/requirementCache';
import type { Send } from '../../../x402/nodes/ScraperGateway/payment/request';
import type { HttpAnswer, HttpOutcome } from '../../../x402/nodes/ScraperGateway/transport/transport';
import { GATEWAY_NODE as node, PAID_REQUEST as request, PAY_TO, POLICY as policy, REQUIREMENT as requirement } from '../fixtures';

/**
 * The unpaid price request on its own, over a scripted `send`: which answers it retries, how often, how long it
 * waits, and that it never carries a payment. The same behaviour against the simulator and the chain:
 * priceRetry.test.ts.
 */

const OTHER = '0x1111111111111111111111111111111111111111';
/** Tiny delays, so the counts can be checked quickly; the budget is what the 429 tests are about. */
const FAST: RetryPolicy = { rateLimitBudgetMs: 300, rateLimitRetries: 4, readRetries: 3, baseDelayMs: 1, maxDelayMs: 4 };

function answer(status: number, headers: Record<string, string> = {}, json: unknown = {}): HttpOutcome {
	const reply: HttpAnswer = { status, headers, json, text: JSON.stringify(json), decoded: new Map() };
	return { ok: true, answer: reply };
}
const priced = (changes: Partial<PaymentRequirements> = {}) => {
	const required: PaymentRequired = {
		x402Version: 2,
		resource: { url: 'https://gateway.example.com/api/service/scraperAPI', description: 'fetch', mimeType: 'application/json' },
		accepts: [{ ...requirement, ...changes }],
	};
	return answer(402, { 'payment-required': encodePaymentRequiredHeader(required) });
};
const unavailable = () => answer(503, {}, { error: 'service_unavailable', message: 'Service temporarily unavailable' });
const reset = (): HttpOutcome => ({ ok: false, failure: { cause: 'connection reset by the gateway (ECONNRESET)', neverSent: false, timedOut: false } });

/** A price request over scripted outcomes (the last repeats), recording the headers of every attempt and when it went. */
function scripted(outcomes: HttpOutcome[], options: { policy?: RetryPolicy; signal?: AbortSignal } = {}) {
	const sent: Array<{ headers: Record<string, string>; at: number }> = [];
	const send: Send = async (_request, headers) => {
		sent.push({ headers, at: Date.now() });
		return outcomes.length > 1 ? (outcomes.shift() as HttpOutcome) : outcomes[0];
	};
	const requirements = new RequirementCache(node, (offer) => chooseRequirement(offer, policy));
	const price = new PriceRequest({ node, send, requirements, signal: options.signal, policy: options.policy ?? FAST }, request);
	return { sent, price, requirements };
}

async function caught(promise: Promise<unknown>): Promise<Error & { description?: string }> {
	try {
		await promise;
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected a rejection');
}

describe('what is retried, and that no attempt carries a payment', () => {
	test('5xx, resets and 429 before the 402: asked again with no header at all, then the 402 is the price', async () => {
		const { sent, price } = scripted([unavailable(), reset(), answer(502), answer(429, { 'retry-after': '0' }), priced()]);
		const found = await price.run();
		expect(found).toEqual({ kind: 'required', known: { requirement, resource: expect.objectContaining({ description: 'fetch' }) } });
		expect(sent.map((s) => s.headers)).toEqual([{}, {}, {}, {}, {}]);
	});

	test('a 2xx to the unpaid request is a free answer, after a retry', async () => {
		const { sent, price } = scripted([unavailable(), answer(200, {}, { ok: true })]);
		expect(await price.run()).toMatchObject({ kind: 'free', answer: { status: 200, json: { ok: true } } });
		expect(sent).toHaveLength(2);
	});

	test.each([400, 401, 403, 404, 422])('%i is not retried (asking again would get the same answer)', async (status) => {
		const { sent, price } = scripted([answer(status, {}, { message: 'no' }), priced()]);
		await expect(price.run()).rejects.toThrow(/^The gateway (rejected the input|answered with status)/);
		expect(sent).toHaveLength(1);
	});
});

describe('bounds', () => {
	test('a persistent 5xx: readRetries + 1 attempts with growing, jittered pauses, then a clear message', async () => {
		// Pauses long enough that a busy machine's scheduling noise (tens of ms) cannot reorder them.
		const base = 200;
		const policy: RetryPolicy = { ...FAST, baseDelayMs: base, maxDelayMs: 1_000 };
		const { sent, price } = scripted([unavailable()], { policy });
		const error = await caught(price.run());
		expect(sent).toHaveLength(policy.readRetries + 1);
		expect(error.message).toBe(
			'The gateway did not give its price: 4 unpaid attempts, the last answered with status 503 (Service temporarily unavailable); nothing was signed or paid',
		);
		expect(error.description).toMatch(/Nothing was signed, so no payment can have been taken\. .*try again later/);
		// backoffDelay: attempt n waits between half and all of base * 2^n.
		const gaps = sent.slice(1).map((s, i) => s.at - sent[i].at);
		gaps.forEach((gap, n) => expect(gap).toBeGreaterThanOrEqual((base * 2 ** n) / 2 - 2));
		expect(gaps[2]).toBeGreaterThan(gaps[0]);
	});

	test('persistent resets: readRetries + 1 attempts, then "could not reach" with the count', async () => {
		const { sent, price } = scripted([reset()]);
		await expect(price.run()).rejects.toThrow('Could not reach the gateway: connection reset by the gateway (ECONNRESET) on 4 attempts; nothing was paid');
		expect(sent).toHaveLength(4);
	});

	test('429 with Retry-After: 0 forever stops after rateLimitRetries retries', async () => {
		const { sent, price } = scripted([answer(429, { 'retry-after': '0' })]);
		const error = await caught(price.run());
		expect(sent).toHaveLength(FAST.rateLimitRetries + 1);
		expect(error.message).toMatch(/^The gateway's rate limit held: 5 unpaid attempts at its price, the last answered with status 429; nothing was signed or paid$/);
	});

	test('Retry-After is honoured, and a wait past the budget ends the retries at once', async () => {
		const honoured = scripted([answer(429, { 'retry-after': '0.2' }), priced()]);
		await honoured.price.run();
		expect(honoured.sent[1].at - honoured.sent[0].at).toBeGreaterThanOrEqual(195);

		const { sent, price } = scripted([answer(429, { 'retry-after': '0.2' }), answer(429, { 'retry-after': '0.2' }), priced()]);
		const error = await caught(price.run());
		// 200 ms waited, 200 more would pass the 300 ms budget.
		expect(sent).toHaveLength(2);
		expect(error.description).toMatch(/^The gateway asked to wait 0\.2 s more, past the 0\.3 s the node waits for a rate limit\./);
	});

	test('the 429 and the 5xx counts are kept apart, each within its own bound', async () => {
		const outcomes = [unavailable(), answer(429, { 'retry-after': '0' }), unavailable(), answer(429, { 'retry-after': '0' }), unavailable(), unavailable(), priced()];
		const { sent, price } = scripted(outcomes);
		await expect(price.run()).rejects.toThrow(/^The gateway did not give its price: 6 unpaid attempts, the last answered with status 503/);
		expect(sent).toHaveLength(6);
	});

});

describe('a price that changes between attempts is checked when it arrives', () => {
	test('a price above the cap after a 503 is refused; nothing is learned', async () => {
		const { price, requirements } = scripted([unavailable(), priced({ amount: '20000' })]);
		await expect(price.run()).rejects.toThrow(/^Payment refused, nothing was signed: it asks 0\.02 USDC per request/);
		// Nothing kept for the path: a later call asks again instead of paying an unchecked price.
		let asked = 0;
		await requirements.requirementFor(request.path, async () => {
			asked++;
			return { kind: 'free', answer: (answer(200) as { answer: HttpAnswer }).answer };
		});
		expect(asked).toBe(1);
	});

	test('only the 402 that ends the loop is kept: its price and payee are what will be signed', async () => {
		// Earlier answers that carry a PAYMENT-REQUIRED header of another price are not a price: only a 402 is.
		const cheap = (priced({ amount: '1', payTo: PAY_TO }) as { answer: HttpAnswer }).answer.headers;
		const outcomes = [answer(429, { ...cheap, 'retry-after': '0' }), reset(), answer(503, cheap), priced({ amount: '9000', payTo: OTHER })];
		const { price, requirements } = scripted(outcomes);
		const found = await price.run();
		expect(found.kind === 'required' && found.known.requirement).toEqual({ ...requirement, amount: '9000', payTo: OTHER });
		// And it is what the next call of the path is signed from, without asking again.
		const next = await requirements.requirementFor(request.path, async () => {
			throw new Error('asked again');
		});
		expect(next.kind === 'required' && next.known.requirement).toEqual({ ...requirement, amount: '9000', payTo: OTHER });
	});
});

describe('a stopped execution', () => {
	test('nothing is sent once the execution is canceled', async () => {
		const controller = new AbortController();
		controller.abort();
		const { sent, price } = scripted([priced()], { signal: controller.signal });
		await expect(price.run()).rejects.toThrow('The execution was canceled before this item was paid; nothing was signed or paid');
		expect(sent).toHaveLength(0);
	});

	test('a cancel during a long Retry-After ends the wait at once and sends nothing more', async () => {
		const controller = new AbortController();
		const { sent, price } = scripted([answer(429, { 'retry-after': '60' }), priced()], { policy: DEFAULT_RETRY_POLICY, signal: controller.signal });
		const started = Date.now();
		void sleep(100).then(() => controller.abort());
		await expect(price.run()).rejects.toThrow(/^The execution was canceled/);
		expect(Date.now() - started).toBeLessThan(2_000);
		expect(sent).toHaveLength(1);
	});
});
