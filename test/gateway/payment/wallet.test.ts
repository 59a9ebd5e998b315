import { generatePrivateKey } from 'viem/accounts';

import { X402WalletApi } from '../../../x402/credentials/X402WalletApi.credentials';
import { readWallet } from '../../../x402/nodes/ScraperGateway/payment/wallet';
import { PRIVATE_KEY, WALLET_FIELDS } from '../../../x402/nodes/ScraperGateway/payment/walletFields';
import { USDC as USDC_ADDRESS } from '../fixtures';

/** The x402 Wallet credential read on its own, without a chain or a gateway. */

describe('readWallet: field by field, in the form order', () => {
	const valid = { privateKey: generatePrivateKey(), baseUrl: 'https://gateway.example.com/', network: 'eip155:84532', usdcAddress: '', maxPricePerRequest: 0.01, payTo: '' };

	test('a valid credential gives the wallet, base URL without its trailing slash', () => {
		const result = readWallet(valid);
		expect(result.ok && result.wallet).toMatchObject({ network: 'eip155:84532', networkName: 'Base Sepolia', tokenAddress: USDC_ADDRESS, maxAmount: 10_000n, payTo: undefined, baseUrl: 'https://gateway.example.com' });
	});

	test('the first broken field is the one reported', () => {
		const problem = (data: Record<string, unknown>) => (readWallet({ ...valid, ...data }) as { problem: { field: string } }).problem.field;
		expect(problem({ privateKey: '', baseUrl: 'nope' })).toBe('Private Key');
		expect(problem({ baseUrl: 'nope', network: 'x' })).toBe('Gateway Base URL');
		expect(problem({ network: 'custom', customNetwork: 'x', usdcAddress: '0x1' })).toBe('Custom Network');
		expect(problem({ usdcAddress: '0x1', maxPricePerRequest: 0 })).toBe('USDC Token Address');
		expect(problem({ maxPricePerRequest: -1, payTo: 'x' })).toBe('Max Price per Request (USDC)');
		expect(problem({ payTo: '0x12' })).toBe('Pinned Payee Address');
	});

	test('the Gateway Base URL follows the spelling rules of every URL field, naming the field and how to fix it', () => {
		const read = (baseUrl: string) => readWallet({ ...valid, baseUrl }) as { ok: false; problem: { field: string; message: string; fix: string } };
		const backslash = read('https://gateway.example.com\\@evil.example');
		expect(backslash.problem).toMatchObject({ field: 'Gateway Base URL', message: expect.stringMatching(/contains a backslash \(\\\) at character 28$/) });
		expect(backslash.problem.fix).toMatch(/%5C/);
		expect(read('http:gateway.example.com').problem.message).toMatch(/does not have "\/\/" and a host right after "http:"$/);
		expect(read('ftp://gateway.example.com').problem.message).toBe('"ftp://gateway.example.com" is not an http(s) address');
	});

	test('addresses in any letter case are accepted, as the message states (0x and 40 hexadecimal characters)', () => {
		// A mixed-case address whose EIP-55 checksum is off: viem's strict check would refuse it.
		const result = readWallet({ ...valid, payTo: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01' });
		expect(result.ok).toBe(true);
	});
});

describe('the credential form: each field declared once in walletFields.ts', () => {
	test('the credential lists the declared fields, in the order readWallet checks them; the key is a password field', () => {
		expect(new X402WalletApi().properties).toEqual(WALLET_FIELDS);
		expect(WALLET_FIELDS.map((f) => f.name)).toEqual(['privateKey', 'baseUrl', 'network', 'customNetwork', 'usdcAddress', 'maxPricePerRequest', 'payTo']);
		// n8n's lint checks a password option only in a property written inside the credential class.
		expect(PRIVATE_KEY.typeOptions.password).toBe(true);
	});
});
