import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

import { WALLET_CREDENTIAL_NAME, WALLET_FIELDS } from '../nodes/ScraperGateway/payment/walletFields';

/**
 * The wallet that pays the gateway with x402 (USDC transfer authorizations, signed locally). There is no API
 * key: the private key never leaves n8n; only signed authorizations for checked amounts are sent. Tested by
 * the Scraper Gateway node's `x402WalletTest`, which checks the key locally and shows the wallet address. Its fields
 * are declared once in `walletFields.ts`, where the node's wallet reading takes their names and display names.
 */
export class X402WalletApi implements ICredentialType {
	name = 'x402WalletApi';

	// The protocol's own spelling, and a wallet rather than an API key: the name users are told to pick.
	displayName = WALLET_CREDENTIAL_NAME;

	icon: Icon = { light: 'file:../icons/scraper.svg', dark: 'file:../icons/scraper.dark.svg' };

	documentationUrl = 'https://github.com/scraper-service/n8n-nodes-scraper-service#credential-x402-wallet';

	properties: INodeProperties[] = [...WALLET_FIELDS];
}
