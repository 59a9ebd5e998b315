import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';

import { describeWallet, readWallet } from '../payment/wallet';

/** The x402 Wallet's Test button: checks the key and settings locally and shows the wallet address. Nothing is sent anywhere. */
export async function testWalletCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const result = readWallet((credential.data ?? {}) as Record<string, unknown>);
	if (!result.ok) {
		return { status: 'Error', message: `Invalid '${result.problem.field}': ${result.problem.message}. ${result.problem.fix}` };
	}
	return { status: 'OK', message: describeWallet(result.wallet) };
}
