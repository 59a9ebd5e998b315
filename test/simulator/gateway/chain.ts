import { pbkdf2Sync } from 'node:crypto';

import {
	createPublicClient,
	createTestClient,
	createWalletClient,
	defineChain,
	http,
	toHex,
	type Abi,
	type Chain,
	type Hex,
	type PublicClient,
	type Transport,
	type WalletClient,
	type Account,
} from 'viem';
import { HDKey, hdKeyToAccount, privateKeyToAccount } from 'viem/accounts';

import { AnvilProcess } from './anvil';
import multicallArtifact from './contracts/Multicall3.json';
import tokenArtifact from './contracts/UsdcToken.json';

/**
 * anvil's public development mnemonic. Every key derived from it is a well-known test key printed by anvil itself
 * and used by every Ethereum tutorial: never hold real value with them. Derived at run time (not written out as
 * hex) so the repository holds no key-shaped literals.
 */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** 0.01 USDC in atomic units (6 decimals): the gateway's price per accepted request. */
export const PRICE_ATOMIC = 10_000n;
/** What the demo wallet and each test wallet hold after start: 1000 USDC. */
export const DEFAULT_FUNDING_ATOMIC = 1_000_000_000n;
/** Canonical Multicall3 address; the x402 facilitator's failure diagnosis calls it. */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

export const TOKEN_ABI = tokenArtifact.abi as Abi;

export interface DevWallet {
	/** A public anvil development key (see ANVIL_MNEMONIC). */
	privateKey: Hex;
	address: `0x${string}`;
}

/** BIP-39 seed of a mnemonic without passphrase (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic"). */
function mnemonicSeed(mnemonic: string): Uint8Array {
	return new Uint8Array(pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512'));
}

let cachedRoot: HDKey | undefined;

/** anvil's dev wallets m/44'/60'/0'/0/i for i in [from, from + count), the same ones anvil funds with ETH. */
export function deriveDevWallets(from: number, count: number): DevWallet[] {
	cachedRoot ??= HDKey.fromMasterSeed(mnemonicSeed(ANVIL_MNEMONIC));
	const root = cachedRoot;
	return Array.from({ length: count }, (_, i) => {
		const account = hdKeyToAccount(root, { addressIndex: from + i });
		const privateKey = account.getHdKey().privateKey;
		if (!privateKey) throw new Error('HD derivation gave no private key');
		return { privateKey: toHex(privateKey), address: account.address };
	});
}

export interface LocalChainOptions {
	anvilPort?: number;
	chainId?: number;
	testWalletCount?: number;
	/** Atomic USDC minted to the demo wallet and each test wallet. */
	fundingAtomic?: bigint;
}

/**
 * anvil + the USDC-like EIP-3009 token deployed on it + funded wallets. Account roles (anvil indices):
 * 0 deploys the token, mints, and relays settlements as the facilitator; 1 is the service's payTo;
 * 2 is the demo wallet; 3.. are the test wallets.
 */
export class LocalChain {
	readonly publicClient: PublicClient<Transport, Chain>;
	readonly facilitatorClient: WalletClient<Transport, Chain, Account>;
	private deployedToken?: `0x${string}`;

	private constructor(
		readonly anvil: AnvilProcess,
		readonly chain: Chain,
		readonly facilitator: DevWallet,
		readonly payTo: `0x${string}`,
		readonly demoWallet: DevWallet,
		readonly testWallets: DevWallet[],
	) {
		const transport = http(anvil.rpcUrl, { retryCount: 0 });
		this.publicClient = createPublicClient({ chain, transport, pollingInterval: 25 });
		this.facilitatorClient = createWalletClient({
			account: privateKeyToAccount(facilitator.privateKey),
			chain,
			transport,
			pollingInterval: 25,
		});
	}

	/** Address of the deployed UsdcToken. */
	get tokenAddress(): `0x${string}` {
		if (!this.deployedToken) throw new Error('UsdcToken is not deployed yet');
		return this.deployedToken;
	}

	get rpcUrl(): string {
		return this.anvil.rpcUrl;
	}

	get chainId(): number {
		return this.chain.id;
	}

	static async start(options: LocalChainOptions = {}): Promise<LocalChain> {
		const testWalletCount = options.testWalletCount ?? 5;
		const anvil = await AnvilProcess.start({
			port: options.anvilPort,
			chainId: options.chainId ?? 31337,
			accounts: Math.max(10, 3 + testWalletCount),
		});
		let started = false;
		try {
			const chain = defineChain({
				id: anvil.chainId,
				name: 'Gateway simulator (anvil)',
				nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
				rpcUrls: { default: { http: [anvil.rpcUrl] } },
			});
			const [facilitator, payTo, demo, ...tests] = deriveDevWallets(0, 3 + testWalletCount);
			const local = new LocalChain(anvil, chain, facilitator, payTo.address, demo, tests);
			await local.deploy(options.fundingAtomic ?? DEFAULT_FUNDING_ATOMIC);
			started = true;
			return local;
		} finally {
			// A failed deployment must not leave anvil running.
			if (!started) await anvil.stop();
		}
	}

	private async deploy(fundingAtomic: bigint): Promise<void> {
		const hash = await this.facilitatorClient.deployContract({ abi: TOKEN_ABI, bytecode: tokenArtifact.bytecode as Hex });
		const receipt = await this.publicClient.waitForTransactionReceipt({ hash });
		if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('UsdcToken deployment failed');
		this.deployedToken = receipt.contractAddress;
		const testClient = createTestClient({ mode: 'anvil', chain: this.chain, transport: http(this.rpcUrl, { retryCount: 0 }) });
		await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: multicallArtifact.deployedBytecode as Hex });
		for (const wallet of [this.demoWallet, ...this.testWallets]) await this.mint(wallet.address, fundingAtomic);
	}

	/** Mints USDC (atomic units) to an address; the facilitator account is the token's minter. */
	async mint(to: `0x${string}`, amountAtomic: bigint): Promise<Hex> {
		const hash = await this.facilitatorClient.writeContract({
			address: this.tokenAddress,
			abi: TOKEN_ABI,
			functionName: 'mint',
			args: [to, amountAtomic],
		});
		const receipt = await this.publicClient.waitForTransactionReceipt({ hash });
		if (receipt.status !== 'success') throw new Error(`mint to ${to} failed`);
		return hash;
	}

	async balanceOf(address: `0x${string}`, token: `0x${string}` = this.tokenAddress): Promise<bigint> {
		return (await this.publicClient.readContract({
			address: token,
			abi: TOKEN_ABI,
			functionName: 'balanceOf',
			args: [address],
		})) as bigint;
	}

	async authorizationState(authorizer: `0x${string}`, nonce: Hex): Promise<boolean> {
		return (await this.publicClient.readContract({
			address: this.tokenAddress,
			abi: TOKEN_ABI,
			functionName: 'authorizationState',
			args: [authorizer, nonce],
		})) as boolean;
	}

	async close(): Promise<void> {
		await this.anvil.stop();
	}
}
