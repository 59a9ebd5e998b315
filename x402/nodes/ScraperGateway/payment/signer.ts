import { x402Client, x402HTTPClient } from '@x402/core/client';
import type { PaymentRequirements, ResourceInfo } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import type { PrivateKeyAccount } from 'viem/accounts';

import { paymentIdExtensions } from './paymentId';
import type { PaymentIdAdvert } from './paymentId';

/** One signed payment, ready to send, with what identifies it if its outcome becomes unknown. */
export interface SignedPayment {
	/** Value of the PAYMENT-SIGNATURE header. */
	header: string;
	payer: string;
	payTo: string;
	/** The EIP-3009 authorization nonce: what a block explorer or the token's authorizationState knows it by. */
	nonce: string;
	amount: bigint;
	network: string;
	asset: string;
	/** Unix seconds after which the authorization can no longer be used. */
	validBefore: string;
	/** The payment identifier carried in the payload, when the gateway advertises the extension. */
	paymentId?: string;
}

/**
 * Signs x402 v2 payments for one wallet on one network, from a requirement the caller already checked.
 * The library's own controls stay on as a second line: only the credential's network is registered, and its
 * spend controls allow only the credential's token, capped at the same per-request maximum.
 */
export class PaymentSigner {
	private readonly client: x402Client;

	private readonly http: x402HTTPClient;

	constructor(
		private readonly account: PrivateKeyAccount,
		network: string,
		asset: string,
		maxAmount: bigint,
	) {
		this.client = new x402Client();
		this.client.register(network as `${string}:${string}`, new ExactEvmScheme(account));
		this.client.setSpendControls({
			maxAmountPerPayment: false,
			allowedAssets: [{ network: network as `${string}:${string}`, asset, maxAmountPerPayment: maxAmount.toString() }],
		});
		this.http = new x402HTTPClient(this.client);
	}

	/**
	 * Signs a payment for `requirement`; `accepted` in the payload is that requirement object, unchanged. With a
	 * `paymentId`, the payload's extensions carry it (and nothing else the gateway declared).
	 */
	async sign(requirement: PaymentRequirements, resource: ResourceInfo, paymentId?: { advert: PaymentIdAdvert; id: string }): Promise<SignedPayment> {
		const extensions = paymentId ? paymentIdExtensions(paymentId.advert, paymentId.id) : undefined;
		const payload = await this.http.createPaymentPayload({ x402Version: 2, resource, accepts: [requirement], extensions });
		const authorization = (payload.payload as { authorization?: Record<string, string> }).authorization ?? {};
		const headers = this.http.encodePaymentSignatureHeader(payload);
		return {
			header: headers['PAYMENT-SIGNATURE'],
			payer: this.account.address,
			payTo: requirement.payTo,
			nonce: String(authorization.nonce ?? ''),
			amount: BigInt(requirement.amount),
			network: requirement.network,
			asset: requirement.asset,
			validBefore: String(authorization.validBefore ?? ''),
			paymentId: paymentId?.id,
		};
	}
}
