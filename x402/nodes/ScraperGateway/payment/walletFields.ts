import type { INodeProperties } from 'n8n-workflow';

/**
 * The x402 Wallet credential's fields, each declared once: the credential class lists them, `wallet.ts` reads each by
 * its `name` and names it in errors by its `displayName`. Nothing here signs or sends: the credential's bundle imports
 * this file, not the signing libraries.
 */

/** The credential as the user knows it in messages (the class's display name). */
export const WALLET_CREDENTIAL_NAME = 'x402 Wallet';

/** The Network choice that reads the Custom Network field. */
export const CUSTOM = 'custom';

/** Networks the credential offers by name, with Circle's USDC on each. */
export const KNOWN_NETWORKS: Readonly<Record<string, { name: string; usdc: string }>> = {
	'eip155:8453': { name: 'Base', usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
	'eip155:84532': { name: 'Base Sepolia', usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
};

const BASE = 'eip155:8453';
const BASE_SEPOLIA = 'eip155:84532';

export const PRIVATE_KEY = {
	displayName: 'Private Key',
	name: 'privateKey',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	required: true,
	placeholder: 'e.g. 0x…',
	description: 'Private key of the paying EVM wallet: 0x followed by 64 hexadecimal characters. Use a dedicated wallet holding only the USDC you mean to spend.',
} satisfies INodeProperties;

export const GATEWAY_BASE_URL = {
	displayName: 'Gateway Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. https://gateway.example.com',
	description: 'Address of the pay-per-request gateway, without /api/service',
} satisfies INodeProperties;

export const NETWORK = {
	displayName: 'Network',
	name: 'network',
	type: 'options',
	default: BASE,
	options: [
		{ name: 'Base', value: BASE },
		{ name: 'Base Sepolia (Testnet)', value: BASE_SEPOLIA },
		{ name: 'Custom', value: CUSTOM },
	],
	description: 'The only chain payments are made on',
} satisfies INodeProperties;

export const CUSTOM_NETWORK = {
	displayName: 'Custom Network',
	name: 'customNetwork',
	type: 'string',
	default: '',
	placeholder: 'e.g. eip155:31337',
	description: 'CAIP-2 id of the chain: eip155:<chain ID>',
	displayOptions: { show: { [NETWORK.name]: [CUSTOM] } },
} satisfies INodeProperties;

export const USDC_TOKEN_ADDRESS = {
	displayName: 'USDC Token Address',
	name: 'usdcAddress',
	type: 'string',
	default: '',
	placeholder: `e.g. ${KNOWN_NETWORKS[BASE].usdc}`,
	description: `The token payments are made in. Leave empty for USDC on Base (${KNOWN_NETWORKS[BASE].usdc}) or Base Sepolia (${KNOWN_NETWORKS[BASE_SEPOLIA].usdc}); required for a custom network.`,
} satisfies INodeProperties;

export const MAX_PRICE_PER_REQUEST = {
	displayName: 'Max Price per Request (USDC)',
	name: 'maxPricePerRequest',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 6 },
	default: 0.01,
	description: 'The node refuses, before signing anything, any request the gateway prices higher than this',
} satisfies INodeProperties;

export const PINNED_PAYEE_ADDRESS = {
	displayName: 'Pinned Payee Address',
	name: 'payTo',
	type: 'string',
	default: '',
	placeholder: 'e.g. 0x…',
	description: 'Optional. When set, the node pays only this address and refuses a gateway that asks to pay another.',
} satisfies INodeProperties;

/** The credential's form, in the order it shows the fields and `readWallet` checks them. */
export const WALLET_FIELDS: INodeProperties[] = [PRIVATE_KEY, GATEWAY_BASE_URL, NETWORK, CUSTOM_NETWORK, USDC_TOKEN_ADDRESS, MAX_PRICE_PER_REQUEST, PINNED_PAYEE_ADDRESS];
