/** USDC amounts: decimal text for people, atomic integers (6 decimals) on the wire. No floating point. */

const USDC_DECIMALS = 6;

/**
 * A decimal USDC amount (number or text, e.g. 0.01 or "0.01") in atomic units, rounded down: a cap rounded
 * down never allows more than the user wrote. Undefined when the value is not a non-negative decimal.
 */
export function toAtomic(value: unknown, decimals = USDC_DECIMALS): bigint | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value) || value < 0) return undefined;
		// toFixed avoids exponent notation (1e-7) and keeps enough digits to round down correctly.
		text = value.toFixed(decimals + 2);
	} else if (typeof value === 'string') {
		text = value.trim();
	} else {
		return undefined;
	}
	const match = /^(\d*)(?:\.(\d*))?$/.exec(text);
	if (!match || (match[1] === '' && (match[2] ?? '') === '')) return undefined;
	const whole = match[1] === '' ? '0' : match[1];
	const fraction = (match[2] ?? '').slice(0, decimals).padEnd(decimals, '0');
	return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction === '' ? '0' : fraction);
}

/** Atomic units as decimal text without trailing zeros: 10000n -> "0.01". */
export function formatAtomic(amount: bigint, decimals = USDC_DECIMALS): string {
	const negative = amount < 0n;
	const abs = negative ? -amount : amount;
	const base = 10n ** BigInt(decimals);
	const whole = abs / base;
	const fraction = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
	return `${negative ? '-' : ''}${whole.toString()}${fraction ? `.${fraction}` : ''}`;
}

/** "0.01 USDC" */
export function usdc(amount: bigint): string {
	return `${formatAtomic(amount)} USDC`;
}
