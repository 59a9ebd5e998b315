/**
 * Paying clients for tests of the gateway simulator, built from the published x402 client packages
 * (@x402/fetch, @x402/evm): what a real buyer would run. Not used by the simulator itself.
 */
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';

import type { DevWallet } from './chain';
import type { GatewaySimulator } from './index';
import type { GatewayService } from './types';

/** An x402 client that pays with this wallet on `network`, allowing the simulator's token up to `maxAtomic`. */
export function createPayingClient(
	sim: GatewaySimulator,
	wallet: Pick<DevWallet, 'privateKey'>,
	options: { network?: string; maxAtomic?: string } = {},
): x402Client {
	const network = (options.network ?? sim.network) as Network;
	const client = new x402Client();
	client.register(network, new ExactEvmScheme(privateKeyToAccount(wallet.privateKey)));
	// The local token is not in the library's table of well-known assets: allow it explicitly, with a cap.
	client.setSpendControls({
		allowedAssets: [{ network, asset: sim.tokenAddress, maxAmountPerPayment: options.maxAtomic ?? '1000000' }],
	});
	return client;
}

/** `fetch` that answers a 402 by paying once with the wallet (wrapFetchWithPayment over the global fetch). */
export function payingFetch(
	sim: GatewaySimulator,
	wallet: Pick<DevWallet, 'privateKey'>,
	options: { network?: string; maxAtomic?: string } = {},
): typeof fetch {
	return wrapFetchWithPayment(fetch, createPayingClient(sim, wallet, options)) as typeof fetch;
}

/**
 * Signs a payment for the requirement the gateway advertises now (or for `paymentRequired`), offline. With
 * `paymentId`, the payload's extensions carry it (`appendPaymentIdentifierToExtensions` on a copy of the
 * PAYMENT-REQUIRED's extensions: added only when that object declares `payment-identifier`; throws on an invalid id).
 */
export async function signPayment(
	sim: GatewaySimulator,
	wallet: Pick<DevWallet, 'privateKey'>,
	options: { service?: GatewayService; paymentRequired?: PaymentRequired; network?: string; paymentId?: string } = {},
): Promise<{ payload: PaymentPayload; header: string }> {
	let paymentRequired = options.paymentRequired ?? sim.paymentRequired(options.service ?? 'scraperAPI');
	if (options.paymentId !== undefined) {
		const extensions = appendPaymentIdentifierToExtensions(structuredClone(paymentRequired.extensions ?? {}), options.paymentId);
		paymentRequired = { ...paymentRequired, extensions };
	}
	const client = createPayingClient(sim, wallet, { network: options.network ?? paymentRequired.accepts[0]?.network });
	client.setSpendControls(false);
	const payload = await client.createPaymentPayload(paymentRequired);
	return { payload, header: encodePaymentSignatureHeader(payload) };
}

/** A PAYMENT-REQUIRED object for a requirement other than the advertised one (e.g. another amount). */
export function paymentRequiredFor(
	sim: GatewaySimulator,
	changes: Partial<PaymentRequirements>,
	service: GatewayService = 'scraperAPI',
): PaymentRequired {
	const current = sim.paymentRequired(service);
	return { ...current, accepts: [{ ...current.accepts[0], ...changes }] };
}
