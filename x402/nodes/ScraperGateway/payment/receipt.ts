import type { IDataObject } from 'n8n-workflow';

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
	if (!header) return undefined;
	try {
		const value = JSON.parse(Buffer.from(header.trim(), 'base64').toString('utf8')) as Record<string, unknown>;
		if (typeof value !== 'object' || value === null || typeof value.success !== 'boolean') return undefined;
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
	} catch {
		return undefined;
	}
}

/** What a paid call cost, as the output's `payment` field: {transaction, network, payer, amount (USDC)}. */
export interface Receipt extends IDataObject {
	transaction: string | null;
	network: string;
	payer: string;
	/** USDC, decimal text, e.g. "0.01". */
	amount: string;
}

/** The receipt from the gateway's settlement, completed from the signed payment where the header is silent. */
export function toReceipt(signed: SignedPayment, settlement: Settlement | undefined): Receipt {
	const atomic = settlement?.amount && /^\d+$/.test(settlement.amount) ? BigInt(settlement.amount) : signed.amount;
	return {
		transaction: settlement?.transaction ?? null,
		network: settlement?.network ?? signed.network,
		payer: settlement?.payer ?? signed.payer,
		amount: formatAtomic(atomic),
	};
}
