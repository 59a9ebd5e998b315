import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { INode } from 'n8n-workflow';

import type { KnownRequirement } from '../../x402/nodes/ScraperGateway/payment/requirementCache';
import type { PaymentPolicy } from '../../x402/nodes/ScraperGateway/payment/requirements';
import type { PaidRequest } from '../../x402/nodes/ScraperGateway/payment/request';
import type { HttpAnswer } from '../../x402/nodes/ScraperGateway/transport/transport';

/** The payment's pieces tested on their own (no chain, no gateway) share one node, price, policy and request. */

export const GATEWAY_NODE: INode = { id: '1', name: 'Scraper Gateway', type: 'scraperGateway', typeVersion: 2, position: [0, 0], parameters: {} };
export const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
export const PAY_TO = '0x2222222222222222222222222222222222222222';
export const POLICY: PaymentPolicy = { network: 'eip155:84532', asset: USDC, maxAmount: 10_000n, maxTimeoutSeconds: 3600 };
export const REQUIREMENT: PaymentRequirements = {
	scheme: 'exact',
	network: 'eip155:84532',
	asset: USDC,
	amount: '10000',
	payTo: PAY_TO,
	maxTimeoutSeconds: 300,
	extra: { name: 'USDC', version: '2' },
};
export const PAID_REQUEST: PaidRequest = { itemIndex: 0, path: '/api/service/scraperAPI', body: { url: 'https://example.com/' }, deadlineMs: 5_000, unit: ['page', 'pages'] };

/** A payment identifier as the node derives them: 'n8n_' and 64 hex digits. */
export const PAYMENT_ID = `n8n_${'ab'.repeat(32)}`;

/** A 402's body offering `accepts` for the fetch resource. */
export function paymentRequired(accepts: PaymentRequirements[] = [REQUIREMENT]): PaymentRequired {
	return {
		x402Version: 2,
		resource: { url: 'https://gateway.example.com/api/service/scraperAPI', description: 'fetch', mimeType: 'application/json' },
		accepts,
	};
}

/** The fetch requirement as the cache knows it once learned. */
export const KNOWN: KnownRequirement = { requirement: REQUIREMENT, resource: paymentRequired().resource };

/** A gateway answer of `status`, with `headers` and a JSON body. */
export function answer(status: number, headers: Record<string, string> = {}, json: unknown = {}): HttpAnswer {
	return { status, headers, json, text: JSON.stringify(json), decoded: new Map() };
}
