import { isAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { PrivateKeyAccount } from 'viem/accounts';

import { readHttpUrl, shownUrl } from '../../../../nodes/shared/input/urlRules';
import { formatAtomic, toAtomic } from './money';
import {
	CUSTOM,
	CUSTOM_NETWORK,
	GATEWAY_BASE_URL,
	KNOWN_NETWORKS,
	MAX_PRICE_PER_REQUEST,
	NETWORK,
	PINNED_PAYEE_ADDRESS,
	PRIVATE_KEY,
	USDC_TOKEN_ADDRESS,
} from './walletFields';

const PRIVATE_KEY_PATTERN = /^0x[0-9a-fA-F]{64}$/;
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

type WalletResult = { ok: true; wallet: Wallet } | { ok: false; problem: CredentialProblem };

/** One field read: its value, or what is wrong with it. */
type Field<T> = { ok: true; value: T } | { ok: false; problem: CredentialProblem };

const fail = (field: string, message: string, fix: string): { ok: false; problem: CredentialProblem } => ({ ok: false, problem: { field, message, fix } });

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

/**
 * 0x and 40 hexadecimal digits in any letter case, as the messages state it. viem's check, not strict: its default
 * also refuses a mixed-case address whose EIP-55 checksum is off, which this node has always accepted.
 */
export function isHexAddress(value: string): boolean {
	return isAddress(value, { strict: false });
}

/** The signing account of the key; the library's message could quote its input, so errors are in our own words. */
function readAccount(value: unknown): Field<PrivateKeyAccount> {
	const key = text(value);
	if (key === '') return fail(PRIVATE_KEY.displayName, 'it is empty', 'Paste the private key of the paying wallet: 0x followed by 64 hexadecimal characters.');
	if (!PRIVATE_KEY_PATTERN.test(key)) {
		return fail(
			PRIVATE_KEY.displayName,
			`it must be 0x followed by 64 hexadecimal characters (got ${key.length} characters${key.startsWith('0x') ? '' : ', without the 0x prefix'})`,
			'Export the private key from your wallet again and paste it whole, including the 0x prefix. Never use a seed phrase here.',
		);
	}
	try {
		return { ok: true, value: privateKeyToAccount(key as `0x${string}`) };
	} catch {
		return fail(PRIVATE_KEY.displayName, 'it is not a valid secp256k1 private key (zero or above the curve order)', 'Use the private key of a real EVM wallet.');
	}
}

function readBaseUrl(value: unknown): Field<string> {
	const baseUrl = text(value).replace(/\/+$/, '');
	const read = readHttpUrl(baseUrl);
	if (!read.ok && read.broken === 'spelling') return fail(GATEWAY_BASE_URL.displayName, `"${shownUrl(baseUrl)}" ${read.problem.message}`, read.problem.fix);
	if (!read.ok) {
		return fail(GATEWAY_BASE_URL.displayName, `"${baseUrl.slice(0, 100)}" is not an http(s) address`, 'Enter the gateway address, e.g. https://gateway.example.com (without /api/service).');
	}
	const parsed = read.url;
	if (parsed.username !== '' || parsed.password !== '') {
		return fail(GATEWAY_BASE_URL.displayName, 'it must not contain a user name or password', 'Remove the user:password@ part: the gateway needs no login, payment replaces it.');
	}
	return { ok: true, value: baseUrl };
}

/** The CAIP-2 network chosen, or typed when Custom. */
function readNetwork(data: Record<string, unknown>): Field<string> {
	const choice = text(data[NETWORK.name]) || NETWORK.default;
	const network = choice === CUSTOM ? text(data[CUSTOM_NETWORK.name]) : choice;
	if (!NETWORK_PATTERN.test(network)) {
		return fail(
			choice === CUSTOM ? CUSTOM_NETWORK.displayName : NETWORK.displayName,
			`"${network.slice(0, 60)}" is not an EVM network id of the form eip155:<chain id>`,
			'Enter the CAIP-2 id of the chain, e.g. eip155:31337 for a local test chain.',
		);
	}
	return { ok: true, value: network };
}

/** The token typed, else USDC of a known network. */
function readToken(value: unknown, network: string): Field<string> {
	const typed = text(value);
	const tokenAddress = typed === '' ? KNOWN_NETWORKS[network]?.usdc : typed;
	if (tokenAddress === undefined) {
		return fail(USDC_TOKEN_ADDRESS.displayName, 'it is required for a custom network', 'Enter the address of the USDC (EIP-3009) token contract on that chain.');
	}
	if (!isHexAddress(tokenAddress)) {
		return fail(USDC_TOKEN_ADDRESS.displayName, `"${tokenAddress.slice(0, 60)}" is not an address (0x followed by 40 hexadecimal characters)`, 'Copy the token contract address exactly.');
	}
	return { ok: true, value: tokenAddress };
}

function readMaxAmount(value: unknown): Field<bigint> {
	const rawMax = value === undefined || value === '' ? MAX_PRICE_PER_REQUEST.default : value;
	const maxAmount = toAtomic(rawMax);
	if (maxAmount === undefined || maxAmount <= 0n) {
		return fail(MAX_PRICE_PER_REQUEST.displayName, `${String(rawMax)} is not a positive amount`, 'Enter the most you accept to pay per request, e.g. 0.01.');
	}
	return { ok: true, value: maxAmount };
}

/** The pinned payee, undefined when the field is empty. */
function readPayTo(value: unknown): Field<string | undefined> {
	const payTo = text(value);
	if (payTo !== '' && !isHexAddress(payTo)) {
		return fail(PINNED_PAYEE_ADDRESS.displayName, `"${payTo.slice(0, 60)}" is not an address (0x followed by 40 hexadecimal characters)`, 'Copy the payee address exactly, or leave the field empty to accept the gateway\'s payee.');
	}
	return { ok: true, value: payTo === '' ? undefined : payTo };
}

/**
 * Reads and checks the x402 Wallet credential locally, field by field in the form's order: the first broken one is
 * reported. Nothing is sent anywhere: the address comes from the key by elliptic-curve arithmetic. Error texts
 * never repeat the key.
 */
export function readWallet(data: Record<string, unknown>): WalletResult {
	const account = readAccount(data[PRIVATE_KEY.name]);
	if (!account.ok) return account;
	const baseUrl = readBaseUrl(data[GATEWAY_BASE_URL.name]);
	if (!baseUrl.ok) return baseUrl;
	const network = readNetwork(data);
	if (!network.ok) return network;
	const tokenAddress = readToken(data[USDC_TOKEN_ADDRESS.name], network.value);
	if (!tokenAddress.ok) return tokenAddress;
	const maxAmount = readMaxAmount(data[MAX_PRICE_PER_REQUEST.name]);
	if (!maxAmount.ok) return maxAmount;
	const payTo = readPayTo(data[PINNED_PAYEE_ADDRESS.name]);
	if (!payTo.ok) return payTo;
	const wallet: Wallet = {
		account: account.value,
		address: account.value.address,
		network: network.value,
		networkName: KNOWN_NETWORKS[network.value]?.name ?? network.value,
		tokenAddress: tokenAddress.value,
		maxAmount: maxAmount.value,
		payTo: payTo.value,
		baseUrl: baseUrl.value,
	};
	return { ok: true, wallet };
}

/** One line for the credential test: which wallet pays, where, and how much at most. */
export function describeWallet(wallet: Wallet): string {
	const payee = wallet.payTo ? `, payee pinned to ${wallet.payTo}` : '';
	return `Key is valid. Wallet address ${wallet.address} pays on ${wallet.networkName} (${wallet.network}) with token ${wallet.tokenAddress}, at most ${formatAtomic(wallet.maxAmount)} USDC per request${payee}. The key was checked locally and sent nowhere.`;
}
