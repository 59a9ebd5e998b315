/**
 * The gateway's payment requirement: the `accepts` entry it advertises in every 402 (PAYMENT-REQUIRED) and enforces,
 * a test's override applied, and whether a payload's `accepted` entry names it.
 */
import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';

import type { SimReply } from '../core/http';
import { paymentIdentifierExtensions, type PaymentIdentifierMode } from './paymentIds';
import type { GatewayService, RequirementOverride } from './types';

export const DEFAULT_MAX_TIMEOUT_SECONDS = 120;

const RESOURCE_DESCRIPTION: Record<GatewayService, string> = {
	scraperAPI: 'Fetch one public web page: rendered HTML, Markdown and a JPEG screenshot',
	webSearch: 'Localized search-engine results',
};

/** The requirement with a test's override applied; an override of `extra: undefined` removes `extra`. */
export function withOverride(base: PaymentRequirements, override: RequirementOverride | undefined): PaymentRequirements {
	if (!override) return base;
	const merged = { ...base, ...override } as PaymentRequirements;
	if ('extra' in override && override.extra === undefined) delete (merged as Partial<PaymentRequirements>).extra;
	return merged;
}

/** The PAYMENT-REQUIRED object of an operation of the gateway at `gatewayUrl`. */
export function paymentRequiredObject(
	gatewayUrl: string,
	service: GatewayService,
	requirement: PaymentRequirements,
	mode: PaymentIdentifierMode,
	error: string,
): PaymentRequired {
	const paymentRequired: PaymentRequired = {
		x402Version: 2,
		error,
		resource: {
			url: `${gatewayUrl}/api/service/${service}`,
			description: RESOURCE_DESCRIPTION[service],
			mimeType: 'application/json',
		},
		accepts: [requirement],
	};
	const extensions = paymentIdentifierExtensions(mode);
	if (extensions) paymentRequired.extensions = extensions;
	return paymentRequired;
}

/** The 402 carrying it: base64 in the PAYMENT-REQUIRED header, the same object as the JSON body. */
export function paymentRequiredReply(paymentRequired: PaymentRequired): SimReply {
	return {
		status: 402,
		headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(paymentRequired), 'cache-control': 'no-store' },
		json: paymentRequired,
	};
}

function deepEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
	const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
	if (ka.length !== kb.length) return false;
	return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Does the `accepted` entry of a payload name this requirement? Like the x402 resource server: every field but
 * `extra` equal, and `extra` of the requirement contained in the accepted one.
 */
export function matchesRequirement(requirement: PaymentRequirements, accepted: PaymentRequirements): boolean {
	const { extra: requiredExtra, ...requiredCore } = requirement;
	const { extra: acceptedExtra, ...acceptedCore } = accepted;
	if (!deepEqual(requiredCore, acceptedCore)) return false;
	if (requiredExtra === undefined) return true;
	if (typeof acceptedExtra !== 'object' || acceptedExtra === null) return false;
	return Object.entries(requiredExtra).every(([k, v]) => deepEqual(v, (acceptedExtra as Record<string, unknown>)[k]));
}
