import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The wallet that pays the gateway with x402 (USDC transfer authorizations, signed locally). There is no API
 * key: the private key never leaves n8n; only signed authorizations for checked amounts are sent. Tested by
 * the Scraper Gateway node's `x402WalletTest`, which checks the key locally and shows the wallet address.
 */
export class X402WalletApi implements ICredentialType {
	name = 'x402WalletApi';

	// The protocol's own spelling, and a wallet rather than an API key: the name users are told to pick.
	displayName = 'x402 Wallet';

	icon: Icon = { light: 'file:../icons/scraper.svg', dark: 'file:../icons/scraper.dark.svg' };

	documentationUrl = 'https://github.com/scraper-service/n8n-nodes-scraper-service#credential-x402-wallet';

	properties: INodeProperties[] = [
		{
			displayName: 'Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'e.g. 0x…',
			description: 'Private key of the paying EVM wallet: 0x followed by 64 hexadecimal characters. Use a dedicated wallet holding only the USDC you mean to spend.',
		},
		{
			displayName: 'Gateway Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://gateway.example.com',
			description: 'Address of the pay-per-request gateway, without /api/service',
		},
		{
			displayName: 'Network',
			name: 'network',
			type: 'options',
			default: 'eip155:8453',
			options: [
				{ name: 'Base', value: 'eip155:8453' },
				{ name: 'Base Sepolia (Testnet)', value: 'eip155:84532' },
				{ name: 'Custom', value: 'custom' },
			],
			description: 'The only chain payments are made on',
		},
		{
			displayName: 'Custom Network',
			name: 'customNetwork',
			type: 'string',
			default: '',
			placeholder: 'e.g. eip155:31337',
			description: 'CAIP-2 id of the chain: eip155:<chain ID>',
			displayOptions: { show: { network: ['custom'] } },
		},
		{
			displayName: 'USDC Token Address',
			name: 'usdcAddress',
			type: 'string',
			default: '',
			placeholder: 'e.g. 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
			description: 'The token payments are made in. Leave empty for USDC on Base (0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913) or Base Sepolia (0x036CbD53842c5426634e7929541eC2318f3dCF7e); required for a custom network.',
		},
		{
			displayName: 'Max Price per Request (USDC)',
			name: 'maxPricePerRequest',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 6 },
			default: 0.01,
			description: 'The node refuses, before signing anything, any request the gateway prices higher than this',
		},
		{
			displayName: 'Pinned Payee Address',
			name: 'payTo',
			type: 'string',
			default: '',
			placeholder: 'e.g. 0x…',
			description: 'Optional. When set, the node pays only this address and refuses a gateway that asks to pay another.',
		},
	];
}
