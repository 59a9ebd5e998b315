import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';

import { isRecord, readHeader } from './headers';
import { usdc } from './money';
import { isHexAddress } from './wallet';

/**
 * What the paying wallet accepts. Nothing in x402 checks the price against anything but the server's own list,
 * so every requirement is checked against this before anything is signed.
 */
export interface PaymentPolicy {
	/** CAIP-2 network of the credential, e.g. eip155:8453. */
	network: string;
	/** The token to pay in (the credential's USDC address). */
	asset: string;
	/** Highest accepted price per request, atomic units. */
	maxAmount: bigint;
	/** The only payee accepted, when pinned. */
	payTo?: string;
	/** Longest accepted validity of a signed authorization, in seconds. */
	maxTimeoutSeconds: number;
}

/** An authorization is never signed for longer than an hour: a leaked one could otherwise be used for long. */
export const MAX_TIMEOUT_SECONDS = 3600;

/** Decodes a PAYMENT-REQUIRED header (base64 of JSON); undefined when absent or unreadable. */
export function decodePaymentRequired(header: string | undefined): PaymentRequired | undefined {
	const decoded = readHeader(header, decodePaymentRequiredHeader);
	return decoded && Array.isArray(decoded.accepts) ? (decoded as unknown as PaymentRequired) : undefined;
}

// Not viem's isAddressEqual: it throws on a malformed address, and a gateway's requirement may hold anything.
const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Everything wrong with one `accepts` entry under the policy, in words a user can act on; empty when it may
 * be signed. Checks: exact scheme, EIP-3009 transfer, the credential's network, the expected token, the
 * pinned payee, amount <= cap, bounded validity, EIP-712 domain name/version present.
 */
function checkRequirement(entry: unknown, policy: PaymentPolicy): string[] {
	if (!isRecord(entry)) return ['the payment requirement is not an object'];
	const problems: string[] = [];
	if (entry.scheme !== 'exact') problems.push(`it uses the "${String(entry.scheme)}" payment scheme; only "exact" is supported`);
	if (entry.network !== policy.network) {
		problems.push(`it asks for payment on network ${String(entry.network)}, but the credential pays on ${policy.network}`);
	}
	if (typeof entry.asset !== 'string' || !sameAddress(entry.asset, policy.asset)) {
		problems.push(`it asks for token ${String(entry.asset)}, but the credential pays in ${policy.asset}`);
	}
	if (typeof entry.payTo !== 'string' || !isHexAddress(entry.payTo)) {
		problems.push(`its payee ${String(entry.payTo)} is not an address`);
	} else if (policy.payTo !== undefined && !sameAddress(entry.payTo, policy.payTo)) {
		problems.push(`it pays ${entry.payTo}, but the credential pins the payee ${policy.payTo}`);
	}
	if (typeof entry.amount !== 'string' || !/^\d{1,78}$/.test(entry.amount)) {
		problems.push(`its amount ${String(entry.amount)} is not a whole number of token units`);
	} else if (BigInt(entry.amount) > policy.maxAmount) {
		problems.push(`it asks ${usdc(BigInt(entry.amount))} per request, above the credential's maximum of ${usdc(policy.maxAmount)}`);
	}
	const timeout = entry.maxTimeoutSeconds;
	if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > policy.maxTimeoutSeconds) {
		problems.push(`its validity of ${String(timeout)} seconds is outside 1 to ${policy.maxTimeoutSeconds} seconds`);
	}
	const extra = entry.extra;
	if (!isRecord(extra) || typeof extra.name !== 'string' || extra.name === '' || typeof extra.version !== 'string' || extra.version === '') {
		problems.push('it lacks the token\'s EIP-712 name and version (extra.name, extra.version)');
	} else if (extra.assetTransferMethod !== undefined && extra.assetTransferMethod !== 'eip3009') {
		problems.push(`it asks for a "${String(extra.assetTransferMethod)}" transfer; only EIP-3009 transfer authorizations are signed`);
	}
	return problems;
}

export type RequirementChoice =
	| { ok: true; requirement: PaymentRequirements }
	| { ok: false; reason: string };

/** The first `accepts` entry the policy allows, verbatim (it is sent back as `accepted`), or why none is. */
export function chooseRequirement(paymentRequired: PaymentRequired, policy: PaymentPolicy): RequirementChoice {
	if (paymentRequired.x402Version !== 2) {
		return { ok: false, reason: `the gateway speaks x402 version ${String(paymentRequired.x402Version)}; only version 2 is supported` };
	}
	const accepts = paymentRequired.accepts ?? [];
	if (accepts.length === 0) return { ok: false, reason: 'the gateway offered no way to pay' };
	const reasons: string[] = [];
	for (const entry of accepts) {
		const problems = checkRequirement(entry, policy);
		if (problems.length === 0) return { ok: true, requirement: entry };
		reasons.push(problems.join('; '));
	}
	return { ok: false, reason: accepts.length === 1 ? reasons[0] : reasons.map((r, i) => `option ${i + 1}: ${r}`).join(' | ') };
}
