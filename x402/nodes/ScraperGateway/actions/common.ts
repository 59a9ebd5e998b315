import { randomBytes } from 'node:crypto';

import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IExecuteFunctions,
	INodeCredentialTestResult,
	INodeProperties,
	JsonObject,
	NodeApiError,
} from 'n8n-workflow';

import { optionsCollection } from '../../../../nodes/shared/descriptions/collections';
import { answerableByAgent, nodeApiError, nodeOperationError } from '../../../../nodes/shared/execution/errors';
import { NodeCall } from '../../../../nodes/shared/execution/call';
import type { CallFactory } from '../../../../nodes/shared/execution/operation';
import { isToolCall } from '../../../../nodes/shared/execution/tool';
import { InputValidator } from '../../../../nodes/shared/input/validation';
import { toAtomic } from '../payment/money';
import { ledgerFor } from '../payment/ledger';
import { describeCharge } from '../payment/receipt';
import type { GatewayResult } from '../payment/request';
import { paymentsFor } from '../payment/forWallet';
import type { PaymentIdScope } from '../payment/forWallet';
import { GatewayPayments } from '../payment/payments';
import { CREDENTIAL_NAME, describeWallet, readWallet } from '../payment/wallet';
import type { CredentialProblem } from '../payment/wallet';

const CREDENTIAL_TYPE = 'x402WalletApi';

/** Extra time over the page timeout for rendering, screenshots and the on-chain settlement. */
const DEADLINE_MARGIN_SECONDS = 60;
/** The page timeout assumed when the user sets none (the interface's maximum). */
const DEFAULT_PAGE_TIMEOUT_SECONDS = 300;
/** The longest Response Deadline: an hour. */
const MAX_DEADLINE_SECONDS = 3600;
const MAX_PARALLEL_PAYMENTS = 10;
/** Max Total Spend shown when the option is added, and the limit of a tool call that has none. */
const DEFAULT_MAX_TOTAL_SPEND_USDC = 1;

/** Node behaviour options shared by both operations (read once per execution, from the first item), listed alphabetically. */
export function paymentOptions(extra: INodeProperties[] = []): INodeProperties {
	const options: INodeProperties[] = [
		...extra,
		{
			displayName: 'Max Total Spend per Execution (USDC)',
			name: 'maxTotalSpend',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 6 },
			default: DEFAULT_MAX_TOTAL_SPEND_USDC,
			description: `Most one execution may pay from this wallet, counting every item and every run of Scraper Gateway nodes with this wallet (each tool call of an AI Agent, each round of a loop). A payment that would go over it is not signed: the item fails, or an AI Agent is told the budget is reached. Not added: no limit, except as an AI Agent's tool, where it is ${DEFAULT_MAX_TOTAL_SPEND_USDC} USDC.`,
		},
		{
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_PAYMENTS },
			default: 1,
			description: 'How many items are fetched at the same time. Output keeps the input order.',
		},
		{
			displayName: 'Response Deadline (Seconds)',
			name: 'deadline',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_DEADLINE_SECONDS },
			default: 360,
			description: `How long to wait for the gateway's answer. By default: Page > Fetch's 'Timeout (Seconds)' (or ${DEFAULT_PAGE_TIMEOUT_SECONDS} s) plus ${DEADLINE_MARGIN_SECONDS} s for rendering and payment settlement.`,
			hint: 'The gateway is paid before it fetches: a deadline shorter than the fetch pays for a page never received',
		},
	];
	return optionsCollection(options.sort((a, b) => a.displayName.localeCompare(b.displayName)));
}

function readOptions(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	return ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
}

/** Parallel Requests as set, or refused when out of range (never clamped); the router's `concurrency` hook. */
export function parallelRequests(this: IExecuteFunctions): number {
	const v = new InputValidator(this.getNode(), 0);
	return v.integer(readOptions(this, 0).parallelRequests ?? 1, 'Parallel Requests', { min: 1, max: MAX_PARALLEL_PAYMENTS });
}

/** The HTTP deadline for one call: the user's, or the page timeout plus the margin. */
export function deadlineMs(ctx: IExecuteFunctions, itemIndex: number, pageTimeoutSeconds: number | undefined): number {
	const v = new InputValidator(ctx.getNode(), itemIndex);
	const chosen = v.optionalSecondsAsMs(readOptions(ctx, itemIndex).deadline, 'Response Deadline (Seconds)', { min: 1, max: MAX_DEADLINE_SECONDS });
	return chosen ?? ((pageTimeoutSeconds ?? DEFAULT_PAGE_TIMEOUT_SECONDS) + DEADLINE_MARGIN_SECONDS) * 1000;
}

async function openPayments(ctx: IExecuteFunctions): Promise<GatewayPayments | CredentialProblem> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const result = readWallet(data as Record<string, unknown>);
	if (!result.ok) return result.problem;
	const options = readOptions(ctx, 0);
	// An agent decides how many calls it makes: as a tool the node never pays without a limit.
	let maxTotalSpend: bigint | undefined = isToolCall(ctx) ? toAtomic(DEFAULT_MAX_TOTAL_SPEND_USDC) : undefined;
	if (options.maxTotalSpend !== undefined && options.maxTotalSpend !== null && options.maxTotalSpend !== '') {
		maxTotalSpend = toAtomic(options.maxTotalSpend);
		if (maxTotalSpend === undefined) {
			return { field: 'Max Total Spend per Execution (USDC)', message: `${String(options.maxTotalSpend)} is not an amount`, fix: 'Enter an amount in USDC, e.g. 0.5.' };
		}
	}
	// The Stop button: the price request's retries end on it (as the core's waits do), and nothing is paid after it.
	const signal = ctx.getExecutionCancelSignal();
	return paymentsFor(ctx.getNode(), result.wallet, ledgerFor(ctx.getExecutionId(), result.wallet.address), { maxTotalSpend, signal, paymentIdScope: paymentIdScope(ctx) });
}

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

/**
 * A call of the gateway node (see NodeCall): its items share one set of payments, opened by the first item that pays,
 * which holds the known price. The spend is the execution's, shared by every call of the node (see `ledgerFor`).
 */
export class GatewayCall extends NodeCall<IExecuteFunctions> {
	private opened?: Promise<GatewayPayments | CredentialProblem>;

	/** The call's payments; a credential problem becomes this item's error (naming the field, never the key). */
	async payments(itemIndex: number): Promise<GatewayPayments> {
		this.opened ??= openPayments(this.ctx);
		const payments = await this.opened;
		if (payments instanceof GatewayPayments) return payments;
		const inCredential = payments.field.startsWith('Max Total Spend') ? 'node option' : `'${CREDENTIAL_NAME}' credential`;
		throw nodeOperationError(this.ctx.getNode(), `Invalid '${payments.field}' in the ${inCredential}: ${payments.message}`, {
			itemIndex,
			description: payments.fix,
		});
	}
}

/** The router's maker of the gateway's calls; the gateway has its own Parallel Requests, so no shared limiter. */
export const gatewayCall: CallFactory<GatewayCall> = (ctx) => new GatewayCall(ctx);

/** Credential test: checks the key and settings locally and shows the wallet address. Nothing is sent anywhere. */
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

/**
 * A paid call whose work failed after the gateway took the payment (settled before the upstream work, never
 * refunded): the error says it was charged and names the transaction. Without a settlement receipt the charge
 * is unknown, and the error gives the payer and nonce to check it.
 */
export function chargedError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	result: Pick<GatewayResult, 'receipt' | 'nonce'>,
	what: string,
	upstreamError: string,
): NodeApiError {
	const { receipt, nonce } = result;
	let charged: string;
	if (receipt?.transaction) charged = describeCharge(receipt);
	else if (receipt) charged = `may have charged ${receipt.amount} USDC (it sent no settlement receipt; payer ${receipt.payer}, nonce ${nonce ?? 'unknown'})`;
	else charged = 'answered';
	const message = `The gateway ${charged} but ${what} failed: ${upstreamError}`;
	const error = nodeApiError(ctx.getNode(), { upstreamError, ...(receipt ?? {}) } as JsonObject, {
		message,
		description: receipt
			? 'The gateway takes the payment before the upstream work and does not refund it when that work fails. Check the input (is the page public and up?) or try later; running the item again pays again.'
			: 'Check the input and try again later.',
		itemIndex,
	});
	// Settled with a known transaction: nothing is in doubt, so an agent may learn it and try another page.
	if (receipt?.transaction) answerableByAgent(error, `${message}. It is paid and will not be refunded; do not retry it: try another page or answer with what you have.`);
	return error;
}
