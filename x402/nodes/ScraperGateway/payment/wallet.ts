import { privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';

import { formatAtomic, toAtomic } from './money';

/** Networks the credential offers by name, with Circle's USDC on each. */
export const KNOWN_NETWORKS: Record<string, { name: string; usdc: string }> = {
	'eip155:8453': { name: 'Base', usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
	'eip155:84532': { name: 'Base Sepolia', usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
};

export const CUSTOM_NETWORK = 'custom';
export const DEFAULT_MAX_PRICE_USDC = 0.01;

const PRIVATE_KEY_PATTERN = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
const NETWORK_PATTERN = /^eip155:[1-9]\d{0,17}$/;

/** The wallet credential once checked. It holds the signing account, never the key text. */
export interface Wallet {
	account: PrivateKeyAccount;
	address: string;
	/** CAIP-2 id, e.g. eip155:8453. */
	network: string;
	networkName: string;
	/** The token payments must be made in (USDC on the chosen network unless the user set another). */
	tokenAddress: string;
	/** Highest price per request the user accepts, atomic units. */
	maxAmount: bigint;
	/** Only this payee may be paid, when the user pinned one. */
	payTo?: string;
	/** Gateway base address without a trailing slash. */
	baseUrl: string;
}

/** A broken credential field: its display name and what is wrong (never the key itself). */
export interface CredentialProblem {
	field: string;
	message: string;
	fix: string;
}

export type WalletResult = { ok: true; wallet: Wallet } | { ok: false; problem: CredentialProblem };

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

export function isAddress(value: string): boolean {
	return ADDRESS_PATTERN.test(value);
}

/**
 * Reads and checks the x402 Wallet credential locally. Nothing is sent anywhere: the address comes from the
 * key by elliptic-curve arithmetic. Error texts never repeat the key.
 */
export function readWallet(data: Record<string, unknown>): WalletResult {
	const fail = (field: string, message: string, fix: string): WalletResult => ({ ok: false, problem: { field, message, fix } });

	const key = text(data.privateKey);
	if (key === '') return fail('Private Key', 'it is empty', 'Paste the private key of the paying wallet: 0x followed by 64 hexadecimal characters.');
	if (!PRIVATE_KEY_PATTERN.test(key)) {
		return fail(
			'Private Key',
			`it must be 0x followed by 64 hexadecimal characters (got ${key.length} characters${key.startsWith('0x') ? '' : ', without the 0x prefix'})`,
			'Export the private key from your wallet again and paste it whole, including the 0x prefix. Never use a seed phrase here.',
		);
	}
	let account: PrivateKeyAccount;
	try {
		account = privateKeyToAccount(key as `0x${string}`);
	} catch {
		// The library's message could quote its input: say what is wrong in our own words.
		return fail('Private Key', 'it is not a valid secp256k1 private key (zero or above the curve order)', 'Use the private key of a real EVM wallet.');
	}

	const baseUrl = text(data.baseUrl).replace(/\/+$/, '');
	let parsedBase: URL | undefined;
	try {
		parsedBase = new URL(baseUrl);
	} catch {
		parsedBase = undefined;
	}
	if (!parsedBase || (parsedBase.protocol !== 'https:' && parsedBase.protocol !== 'http:')) {
		return fail('Gateway Base URL', `"${baseUrl.slice(0, 100)}" is not an http(s) address`, 'Enter the gateway address, e.g. https://gateway.example.com (without /api/service).');
	}
	if (parsedBase.username !== '' || parsedBase.password !== '') {
		return fail('Gateway Base URL', 'it must not contain a user name or password', 'Remove the user:password@ part: the gateway needs no login, payment replaces it.');
	}

	const choice = text(data.network) || 'eip155:8453';
	const network = choice === CUSTOM_NETWORK ? text(data.customNetwork) : choice;
	if (!NETWORK_PATTERN.test(network)) {
		return fail(
			choice === CUSTOM_NETWORK ? 'Custom Network' : 'Network',
			`"${network.slice(0, 60)}" is not an EVM network id of the form eip155:<chain id>`,
			'Enter the CAIP-2 id of the chain, e.g. eip155:31337 for a local test chain.',
		);
	}
	const known = KNOWN_NETWORKS[network];

	const tokenText = text(data.usdcAddress);
	const tokenAddress = tokenText === '' ? known?.usdc : tokenText;
	if (tokenAddress === undefined) {
		return fail('USDC Token Address', 'it is required for a custom network', 'Enter the address of the USDC (EIP-3009) token contract on that chain.');
	}
	if (!isAddress(tokenAddress)) {
		return fail('USDC Token Address', `"${tokenAddress.slice(0, 60)}" is not an address (0x followed by 40 hexadecimal characters)`, 'Copy the token contract address exactly.');
	}

	const rawMax = data.maxPricePerRequest === undefined || data.maxPricePerRequest === '' ? DEFAULT_MAX_PRICE_USDC : data.maxPricePerRequest;
	const maxAmount = toAtomic(rawMax);
	if (maxAmount === undefined || maxAmount <= 0n) {
		return fail('Max Price per Request (USDC)', `${String(rawMax)} is not a positive amount`, 'Enter the most you accept to pay per request, e.g. 0.01.');
	}

	const payToText = text(data.payTo);
	if (payToText !== '' && !isAddress(payToText)) {
		return fail('Pinned Payee Address', `"${payToText.slice(0, 60)}" is not an address (0x followed by 40 hexadecimal characters)`, 'Copy the payee address exactly, or leave the field empty to accept the gateway\'s payee.');
	}

	return {
		ok: true,
		wallet: {
			account,
			address: account.address,
			network,
			networkName: known?.name ?? network,
			tokenAddress,
			maxAmount,
			payTo: payToText === '' ? undefined : payToText,
			baseUrl,
		},
	};
}

/** One line for the credential test: which wallet pays, where, and how much at most. */
export function describeWallet(wallet: Wallet): string {
	const payee = wallet.payTo ? `, payee pinned to ${wallet.payTo}` : '';
	return `Key is valid. Wallet address ${wallet.address} pays on ${wallet.networkName} (${wallet.network}) with token ${wallet.tokenAddress}, at most ${formatAtomic(wallet.maxAmount)} USDC per request${payee}. The key was checked locally and sent nowhere.`;
}
