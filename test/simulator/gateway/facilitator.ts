import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';

import type { LocalChain } from './chain';

/** How long a settlement waits for its transaction's receipt; anvil mines at once, so only a broken chain waits this. */
const CONFIRMATION_TIMEOUT_MS = 30_000;

/**
 * The x402 reference facilitator for a local chain, in process: @x402/core's `x402Facilitator` with @x402/evm's
 * `exact` scheme over the chain's viem clients, relaying as anvil account 0. It really verifies (signature, payee,
 * value, validity window, on-chain simulation) and really settles (`transferWithAuthorization`). It settles whatever
 * it is given as it comes: callers that settle in parallel queue their settlements (the relayer's transaction nonces
 * are read from the chain per transaction).
 */
export function createLocalFacilitator(chain: LocalChain): x402Facilitator {
	const { publicClient, facilitatorClient } = chain;
	const signer = toFacilitatorEvmSigner(
		{
			address: facilitatorClient.account.address,
			readContract: (args) => publicClient.readContract({ ...args, args: args.args ?? [] } as Parameters<typeof publicClient.readContract>[0]),
			verifyTypedData: (args) => publicClient.verifyTypedData(args as Parameters<typeof publicClient.verifyTypedData>[0]),
			writeContract: (args) => facilitatorClient.writeContract({ ...args, args: args.args ?? [] } as Parameters<typeof facilitatorClient.writeContract>[0]),
			sendTransaction: (args) => facilitatorClient.sendTransaction(args),
			waitForTransactionReceipt: (args) => publicClient.waitForTransactionReceipt(args),
			getCode: (args) => publicClient.getCode(args),
		},
		{ confirmationTimeoutMs: CONFIRMATION_TIMEOUT_MS },
	);
	return new x402Facilitator().register(`eip155:${chain.chainId}`, new ExactEvmScheme(signer));
}
