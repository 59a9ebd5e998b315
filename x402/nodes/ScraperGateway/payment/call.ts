import { randomBytes } from 'node:crypto';

import type { IExecuteFunctions } from 'n8n-workflow';

import { NodeCall } from '../../../../nodes/shared/execution/call';
import { nodeOperationError } from '../../../../nodes/shared/execution/errors';
import type { CallFactory } from '../../../../nodes/shared/execution/operation';
import { spendLimit } from '../descriptions/paymentOptions';
import { paymentsFor } from './forWallet';
import type { PaymentIdScope } from './forWallet';
import type { GatewayPayments } from './payments';
import { executionSpend } from './executionSpend';
import { SPEND_REGISTRY } from './spendRegistry';
import { readWallet } from './wallet';
import { WALLET_CREDENTIAL_NAME } from './walletFields';

// The call sits beside the payments, not in a room of its own: a GatewayCall is n8n's NodeCall plus the call's
// payments, and all it does is open them (the wallet, the execution's limit and ledger, the payment identifiers).

const CREDENTIAL_TYPE = 'x402WalletApi';

/**
 * Where this call of the node stands: n8n's execution, node and run index, which a Retry On Fail of the node keeps,
 * so a retried item carries the payment identifier of its first try. Without an execution id (nothing n8n runs),
 * a random value: the identifiers are then this run's own.
 */
function paymentIdScope(ctx: IExecuteFunctions): PaymentIdScope {
	const node = ctx.getNode();
	const runIndex = ctx.getWorkflowDataProxy(0).$runIndex;
	return {
		execution: ctx.getExecutionId() || randomBytes(16).toString('hex'),
		nodeId: node.id || node.name,
		runIndex: typeof runIndex === 'number' ? runIndex : 0,
	};
}

/** The x402 Wallet credential, decrypted and checked once per call. */
async function openWallet(ctx: IExecuteFunctions): Promise<ReturnType<typeof readWallet>> {
	return readWallet((await ctx.getCredentials(CREDENTIAL_TYPE)) as Record<string, unknown>);
}

/**
 * A call of the gateway node (see NodeCall): its items share one set of payments, opened by the first item that pays,
 * which holds the known price. The spend is the execution's, shared by every call of the node (see `SpendRegistry`).
 */
export class GatewayCall extends NodeCall<IExecuteFunctions> {
	private wallet?: Promise<ReturnType<typeof readWallet>>;

	private opened?: GatewayPayments;

	/**
	 * The call's payments. A credential problem becomes this item's error (naming the field, never the key), then a
	 * Max Total Spend the options refuse.
	 */
	async payments(itemIndex: number): Promise<GatewayPayments> {
		this.wallet ??= openWallet(this.ctx);
		const read = await this.wallet;
		if (!read.ok) {
			const { field, message, fix } = read.problem;
			throw nodeOperationError(this.ctx.getNode(), `Invalid '${field}' in the '${WALLET_CREDENTIAL_NAME}' credential: ${message}`, { itemIndex, description: fix });
		}
		const { wallet } = read;
		const maxTotalSpend = spendLimit(this.ctx, itemIndex);
		this.opened ??= paymentsFor(this.ctx.getNode(), wallet, SPEND_REGISTRY.ledgerFor(this.ctx.getExecutionId(), wallet.address, executionSpend(this.ctx, wallet.address)), {
			maxTotalSpend,
			// The Stop button: the price request's retries end on it (as the core's waits do), and nothing is paid after it.
			signal: this.ctx.getExecutionCancelSignal(),
			paymentIdScope: paymentIdScope(this.ctx),
		});
		return this.opened;
	}

	/** The run returned (no retry follows): its items' payments are forgotten, as nothing will ask for them again. */
	finished(): void {
		this.opened?.forgetRecorded();
	}
}

/** The router's maker of the gateway's calls; the gateway has its own Parallel Requests, so no shared limiter. */
export const gatewayCall: CallFactory<GatewayCall> = (ctx) => new GatewayCall(ctx);
