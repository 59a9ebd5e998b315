import { decodePaymentResponseHeader } from '@x402/core/http';
import type { IDataObject } from 'n8n-workflow';

import { readHeader } from './headers';
import { formatAtomic } from './money';
import type { SignedPayment } from './signer';

/** The settlement result of the PAYMENT-RESPONSE header. */
export interface Settlement {
	success: boolean;
	transaction?: string;
	network?: string;
	payer?: string;
	amount?: string;
	errorReason?: string;
	errorMessage?: string;
}

/** Decodes a PAYMENT-RESPONSE header (base64 of JSON); undefined when absent or unreadable. */
export function decodeSettlement(header: string | undefined): Settlement | undefined {
	const value = readHeader(header, decodePaymentResponseHeader);
	if (!value || typeof value.success !== 'boolean') return undefined;
	const str = (key: string) => (typeof value[key] === 'string' ? (value[key] as string) : undefined);
	return {
		success: value.success,
		transaction: str('transaction') || undefined,
		network: str('network'),
		payer: str('payer'),
		amount: str('amount'),
		errorReason: str('errorReason'),
		errorMessage: str('errorMessage'),
	};
}

/** What a paid call cost, as the output's `payment` field: {transaction, network, payer, amount (USDC), paymentId}. */
export interface Receipt extends IDataObject {
	transaction: string | null;
	network: string;
	payer: string;
	/** USDC, decimal text, e.g. "0.01". */
	amount: string;
	/** The payment identifier the payment carried (the gateway's key for it), null when the gateway offers none. */
	paymentId: string | null;
}

/** The receipt from the gateway's settlement, completed from the signed payment where the header is silent. */
export function toReceipt(signed: SignedPayment, settlement: Settlement | undefined): Receipt {
	const atomic = settlement?.amount && /^\d+$/.test(settlement.amount) ? BigInt(settlement.amount) : signed.amount;
	return {
		transaction: settlement?.transaction ?? null,
		network: settlement?.network ?? signed.network,
		payer: settlement?.payer ?? signed.payer,
		amount: formatAtomic(atomic),
		paymentId: signed.paymentId ?? null,
	};
}

/** "charged 0.01 USDC (transaction 0x…, payer 0x…)": what a settled call took, for an error that follows it. */
export function describeCharge(receipt: Receipt): string {
	return `charged ${receipt.amount} USDC (transaction ${receipt.transaction ?? 'not reported'}, payer ${receipt.payer})`;
}
